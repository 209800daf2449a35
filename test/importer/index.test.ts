// The importer's reading half from one place (src/importer/index.ts): the modules it re-exports
// are there whole, as the same objects; the pipeline and the network are not.
import { describe, expect, it } from 'vitest';
import * as checkpoint from '../../src/importer/checkpoint.js';
import * as errors from '../../src/importer/errors.js';
import * as format from '../../src/importer/format.js';
import * as index from '../../src/importer/index.js';
import * as mapping from '../../src/importer/mapping.js';
import * as rejects from '../../src/importer/rejects.js';
import * as results from '../../src/importer/results.js';
import * as rows from '../../src/importer/rows.js';
import * as sources from '../../src/importer/sources/index.js';
import { loadedWith } from '../helpers/import-graph.js';

describe('src/importer/index.ts', () => {
  it('re-exports its modules whole, the same objects', () => {
    const modules = { checkpoint, errors, format, mapping, rejects, results, rows, sources };
    for (const [name, module] of Object.entries(modules)) {
      for (const [exported, value] of Object.entries(module)) {
        expect((index as Record<string, unknown>)[exported], `${name}.${exported}`).toBe(value);
      }
    }
  });

  it('reads without the client, the pipeline or the scheduler', () => {
    const { modules, packages } = loadedWith('importer/index.ts');
    expect(
      [...modules].filter((m) => /^(client|bulk|cli|mock)\//.test(m) || m === 'importer/pipeline.ts'),
    ).toEqual([]);
    expect(packages.has('undici')).toBe(false);
  });
});
