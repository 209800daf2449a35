// The client's public face: what src/client/index.ts offers is the object its module holds, and
// the client loads nothing of the importer, the config, the mock or the CLI.
import { describe, expect, it } from 'vitest';
import * as client from '../../src/client/client.js';
import * as errors from '../../src/client/errors.js';
import * as index from '../../src/client/index.js';
import { ContactPage } from '../../src/client/pagination.js';
import { DEFAULT_RETRY_POLICY } from '../../src/client/retry.js';
import { walkUntilConsistent } from '../../src/client/walk.js';
import { VERSION } from '../../src/core/version.js';
import { loadedWith } from '../helpers/import-graph.js';

describe('src/client/index.ts', () => {
  it('offers the client, every error class, pages, retries and the walk, the same objects', () => {
    expect(index.ContactsClient).toBe(client.ContactsClient);
    for (const [name, value] of Object.entries(errors)) {
      expect((index as Record<string, unknown>)[name], name).toBe(value);
    }
    expect(index.ContactPage).toBe(ContactPage);
    expect(index.DEFAULT_RETRY_POLICY).toBe(DEFAULT_RETRY_POLICY);
    expect(index.walkUntilConsistent).toBe(walkUntilConsistent);
    expect(index.VERSION).toBe(VERSION);
  });

  it('masks a key for display and redacts it from text', () => {
    const key = 'bk_live_0123456789abcdef';
    expect(index.maskKey(key)).not.toContain('0123456789abcdef');
    expect(index.redactSecrets(`sent ${key}`, [key])).not.toContain(key);
  });

  it('loads only the client, the contract and the core', () => {
    const { modules } = loadedWith('client/index.ts');
    expect([...modules].filter((m) => !/^(client|api|core)\//.test(m))).toEqual([]);
  });
});
