// The library's main entry ("contacts-cli"): the client, its errors and the contract, as the same
// objects their modules hold (so `instanceof` agrees whichever way a class was imported), and
// nothing a user of the client does not need loaded with it.
import { describe, expect, it } from 'vitest';
import * as api from '../src/api/index.js';
import * as client from '../src/client/index.js';
import * as entry from '../src/index.js';
import { loadedWith } from './helpers/import-graph.js';

describe('the main entry', () => {
  it('is the contract and the client, each name the same object as in its module', () => {
    const names = new Set([...Object.keys(api), ...Object.keys(client)]);
    expect(Object.keys(entry).sort()).toEqual([...names].sort());
    for (const name of names) {
      const own =
        name in client ? (client as Record<string, unknown>)[name] : (api as Record<string, unknown>)[name];
      expect((entry as Record<string, unknown>)[name], name).toBe(own);
    }
    expect(entry.ContactsClient).toBeTypeOf('function');
    expect(entry.ContactSchema).toBe(api.ContactSchema);
  });

  it('loads neither the importer, the mock, the config nor the CLI, nor their packages', () => {
    const { modules, packages } = loadedWith('index.ts');
    const parts = new Set([...modules].map((m) => (m.includes('/') ? m.split('/')[0] : m)));
    expect([...parts].sort()).toEqual(['api', 'client', 'core', 'index.ts']);
    for (const heavy of [
      'commander',
      'libsql',
      'csv-parse',
      'stream-json',
      '@cj-tech-master/excelts',
      'conf',
    ]) {
      expect(packages.has(heavy), heavy).toBe(false);
    }
  });
});
