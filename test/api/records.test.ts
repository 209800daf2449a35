// The records as read: the same schemas wherever they are imported from, and the only contract
// schemas the client loads (the request schemas are built by code that validates input).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as attribute from '../../src/api/attribute.js';
import * as contact from '../../src/api/contact.js';
import * as api from '../../src/api/index.js';
import { AttributeDefinitionSchema, ContactSchema } from '../../src/api/records.js';

const CLIENT = fileURLToPath(new URL('../../src/client', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('records', () => {
  it('are the schemas the package and the request modules export', () => {
    expect(api.ContactSchema).toBe(ContactSchema);
    expect(contact.ContactSchema).toBe(ContactSchema);
    expect(api.AttributeDefinitionSchema).toBe(AttributeDefinitionSchema);
    expect(attribute.AttributeDefinitionSchema).toBe(AttributeDefinitionSchema);
  });

  it('read a contact as the service returns it', () => {
    const record = {
      id: 'ct_1',
      external_id: 'u1',
      name: 'Ada',
      email: null,
      phonenumber: null,
      custom_attributes: { plan: 'pro', seats: 3 },
      created_at: 1,
      updated_at: 2,
      extra: true,
    };
    expect(ContactSchema.parse(record)).toEqual({ ...record, stripe_accounts: [] });
    expect(ContactSchema.safeParse({ ...record, created_at: 'now' }).success).toBe(false);
  });

  it('are all the client loads of the contract: it imports the request schemas as types only', () => {
    const offending = sources(CLIENT).flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(
          /^import (?!type )[^;]*?from '(?:\.\.\/)+api\/(?:contact|attribute)\.js'/gm,
        ),
      ].map(([statement]) => `${file}: ${statement}`),
    );
    expect(offending).toEqual([]);
  });
});
