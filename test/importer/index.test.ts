// The importer's reading half from one place (src/importer/index.ts): the modules it re-exports
// are there whole, as the same objects; the pipeline and the network are not.
import { describe, expect, it } from 'vitest';
import * as index from '../../src/importer/index.js';
import { loadedWith } from '../helpers/import-graph.js';
import { wholeReexports } from '../helpers/reexports.js';

describe('src/importer/index.ts', () => {
  it('re-exports its modules whole, the same objects', async () => {
    const modules = await wholeReexports('importer/index.ts');
    expect(modules.map(([name]) => name)).toContain('importer/errors.ts');
    for (const [name, module] of modules) {
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
