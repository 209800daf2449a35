// The contract from one place: every module of src/api/ that the index re-exports is there
// whole, as the same objects, and the contract loads nothing but zod.
import { describe, expect, it } from 'vitest';
import * as index from '../../src/api/index.js';
import { contractRegistry } from '../../src/api/registry.js';
import { loadedWith } from '../helpers/import-graph.js';
import { wholeReexports } from '../helpers/reexports.js';

describe('src/api/index.ts', () => {
  it('re-exports each module whole, the same objects', async () => {
    const modules = await wholeReexports('api/index.ts');
    expect(modules.map(([name]) => name)).toContain('api/contact.ts');
    for (const [name, module] of modules) {
      for (const [exported, value] of Object.entries(module)) {
        expect((index as Record<string, unknown>)[exported], `${name}.${exported}`).toBe(value);
      }
    }
    expect(index.contractRegistry).toBe(contractRegistry);
  });

  it('loads zod and nothing outside src/api and src/core', () => {
    const { modules, packages } = loadedWith('api/index.ts');
    expect([...modules].filter((m) => !/^(api|core)\//.test(m))).toEqual([]);
    expect([...packages]).toEqual(['zod']);
  });
});
