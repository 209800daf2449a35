// The modules an index re-exports whole (`export * from './x.js'`), read from its text, so a test
// of the index follows the modules it names today.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SRC } from './import-graph.js';

/** Each module `index` (under src/) re-exports whole, loaded: [its path under src/, the module]. */
export async function wholeReexports(index: string): Promise<[string, Record<string, unknown>][]> {
  const text = readFileSync(join(SRC, index), 'utf8');
  const dir = index.includes('/') ? index.slice(0, index.lastIndexOf('/') + 1) : '';
  const names = [...text.matchAll(/^export \* from '\.\/([^']+)\.js';$/gm)].map((m) => `${dir}${m[1]}.ts`);
  return Promise.all(
    names.map(async (name) => [
      name,
      (await import(pathToFileURL(join(SRC, name)).href)) as Record<string, unknown>,
    ]),
  );
}
