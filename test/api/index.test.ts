// The contract from one place: every module of src/api/ that the index re-exports is there
// whole, as the same objects, and the contract loads nothing but zod.
import { describe, expect, it } from 'vitest';
import * as attribute from '../../src/api/attribute.js';
import * as contact from '../../src/api/contact.js';
import * as envelope from '../../src/api/envelope.js';
import * as headers from '../../src/api/headers.js';
import * as index from '../../src/api/index.js';
import * as jsonDepth from '../../src/api/json-depth.js';
import * as key from '../../src/api/key.js';
import * as limits from '../../src/api/limits.js';
import * as operations from '../../src/api/operations.js';
import * as paths from '../../src/api/paths.js';
import * as query from '../../src/api/query.js';
import { contractRegistry } from '../../src/api/registry.js';
import { loadedWith } from '../helpers/import-graph.js';

describe('src/api/index.ts', () => {
  it('re-exports each module whole, the same objects', () => {
    const modules = {
      attribute,
      contact,
      envelope,
      headers,
      jsonDepth,
      key,
      limits,
      operations,
      paths,
      query,
    };
    for (const [name, module] of Object.entries(modules)) {
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
