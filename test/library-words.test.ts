// The library layers word nothing around the CLI's flags: a client, importer, bulk, undo or teardown
// message is read by library callers too, who have no `--resume` or `--map`. They return codes
// and data; the CLI says them with its flags (src/cli/output/import-words.ts). This reads every
// string those layers can say (string and template literals, comments aside) and fails on a
// `--flag` in any of them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
// Teardown is in them: its deletes in src/bulk/teardown.ts, its file reading in src/importer.
const LIBRARY_LAYERS = ['src/client', 'src/importer', 'src/bulk', 'src/undo'];
const FLAG = /(?:^|[^\w-])(--[a-z][a-z0-9-]*)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every `--flag` in a string or template literal of the source, with its line. */
function flagsIn(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const flag = FLAG.exec(node.text)?.[1];
      if (flag) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${relative(ROOT, file)}:${line}: ${flag} in ${JSON.stringify(node.text)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the library layers', () => {
  it('name no CLI flag in any string they can say', () => {
    const files = LIBRARY_LAYERS.flatMap((dir) => sources(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(flagsIn)).toEqual([]);
  });

  it('finds a flag where one is written, in each kind of literal', () => {
    const probe = join(ROOT, 'test/fixtures/library-words-probe.ts.txt');
    expect(flagsIn(probe).map((l) => l.replace(/^.*?: /, ''))).toEqual([
      '--resume in "pass --resume"',
      '--date-order in "or --date-order "',
      '--map in " and --map"',
    ]);
  });
});
