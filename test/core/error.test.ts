// Every error the package throws is named by its class, declared nowhere else: the library's, the
// mock's and the CLI's.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { BadRequestError, RateLimitError } from '../../src/client/errors.js';
import { ContactsError } from '../../src/core/error.js';
import * as importer from '../../src/import.js';
import * as library from '../../src/index.js';
import { MockHttpError } from '../../src/mock/errors.js';

const errorClasses = (module: Record<string, unknown>) =>
  Object.entries(module).filter(
    (entry): entry is [string, typeof ContactsError] =>
      typeof entry[1] === 'function' && entry[1].prototype instanceof ContactsError,
  );

describe('ContactsError', () => {
  it('names each error by its class', () => {
    const init = { status: 400, message: 'Invalid request body', method: 'POST', url: 'http://x/' };
    expect(new BadRequestError(init).name).toBe('BadRequestError');
    expect(String(new RateLimitError({ ...init, status: 429, message: 'slow down' }))).toBe(
      'RateLimitError: slow down',
    );
    expect(new UsageError('bad').name).toBe('UsageError');
    expect(new MockHttpError(404, 'Chatbot not found').name).toBe('MockHttpError');
    expect(new ContactsError('plain').stack).toMatch(/^ContactsError: plain\n/);
  });

  it('every error the library exports is a ContactsError under its exported name', () => {
    const classes = [...errorClasses(library), ...errorClasses(importer)];
    expect(classes.length).toBeGreaterThan(20);
    for (const [exported, ErrorClass] of classes) expect(ErrorClass.name).toBe(exported);
  });
});
