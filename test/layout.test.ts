// The layout CONTRIBUTING.md describes, checked: a module's test sits at the module's path
// (src/a/b.ts -> test/a/b.test.ts), and no floor of src/ imports a floor above it. Both count
// what exists when the test runs: a new module or directory is held to the same rules.
// A test rather than biome's noRestrictedImports: that rule matches the text of a specifier
// (`../cli/x.js` from one depth, `../../cli/x.js` from another), one override per directory and
// depth, where this resolves each import (static, type-only, re-export, `import()`) to its module.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, resolveInSrc, SRC } from './helpers/import-graph.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The share of source modules that must have a test at their path. */
const MIRRORED_SHARE = 0.8;

/**
 * The floors of src/, bottom first (CONTRIBUTING.md, "Layout"): a module may import its own
 * floor and the floors below it, never one above. An entry is a path under src/, a directory or
 * a file; the longest entry that holds a module places it.
 */
const FLOORS: readonly (readonly string[])[] = [
  // ContactsError, VERSION, redaction: used by all.
  ['core'],
  // The contract; file-system and time-zone helpers.
  ['api', 'util'],
  ['client'],
  // Settings and profiles; the scheduler and paced requests of the bulk commands.
  ['config', 'bulk'],
  // The import, and the record it leaves to undo it (each uses the other).
  ['importer', 'undo'],
  // The CLI, and the package's entry points (src/index.ts, src/import.ts).
  ['cli', 'index.ts', 'import.ts'],
];

/** Beside the floors: what a part stands on, and the parts that may import it. */
const BESIDE: Readonly<Record<string, { standsOn: readonly string[]; usedBy: readonly string[] }>> = {
  // The mock server: the contract alone, so the package can serve it to tests without the CLI.
  mock: { standsOn: ['api', 'core'], usedBy: ['cli'] },
};

/**
 * Imports across the rule, each with its reason: `from` is a module under src/, `to` a module or
 * a directory under src/.
 */
const EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [
  {
    from: 'mock/seed.ts',
    to: 'importer',
    why: 'a seed is any file `contacts import` takes: read by its readers, loaded only to seed',
  },
];

/** Paths under src/ with `/`, of every TypeScript module (declaration files are not modules). */
function sourceModules(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .map((f) => f.split(sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
}

const mirroredTest = (module: string) => `test/${module.replace(/\.ts$/, '.test.ts')}`;

/** The part of src/ a module belongs to: the longest entry of FLOORS or BESIDE that holds it. */
function partOf(module: string): string | undefined {
  const entries = [...FLOORS.flat(), ...Object.keys(BESIDE)];
  return entries
    .filter((e) => module === e || module.startsWith(`${e}/`))
    .sort((a, b) => b.length - a.length)[0];
}

const floorOf = (part: string) => FLOORS.findIndex((floor) => floor.includes(part));

/** Why `from` may not import `to` (parts), or null when it may. */
function refusal(from: string, to: string): string | null {
  if (from === to) return null;
  const beside = BESIDE[from];
  if (beside)
    return beside.standsOn.includes(to) ? null : `${from} stands on ${beside.standsOn.join(', ')} only`;
  const used = BESIDE[to];
  if (used) return used.usedBy.includes(from) ? null : `${to} is used by ${used.usedBy.join(', ')} only`;
  return floorOf(to) > floorOf(from) ? `${to} is a floor above ${from}` : null;
}

/** Every import that breaks the floors, as "src/file imports 'specifier': why". */
function layeringViolations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [module, text] of files) {
    const from = partOf(module);
    if (from === undefined) {
      found.push(`src/${module} is on no floor: add its directory to FLOORS in test/layout.test.ts`);
      continue;
    }
    for (const specifier of importSpecifiers(text).filter((name) => name.startsWith('.'))) {
      const to = resolveInSrc(module, specifier);
      if (
        to === null ||
        EXCEPTIONS.some((e) => e.from === module && (to === e.to || to.startsWith(`${e.to}/`)))
      )
        continue;
      const toPart = partOf(to);
      const why = toPart === undefined ? `src/${to} is on no floor` : refusal(from, toPart);
      if (why) found.push(`src/${module} imports '${specifier}': ${why}`);
    }
  }
  return found;
}

describe('tests mirror src/', () => {
  const modules = sourceModules();
  const missing = modules.filter((m) => !existsSync(join(ROOT, mirroredTest(m))));
  const mirrored = modules.length - missing.length;

  it(`${mirrored} of ${modules.length} source modules have a test at their path`, () => {
    expect(modules.length).toBeGreaterThan(0);
    expect(
      mirrored / modules.length,
      `at least ${MIRRORED_SHARE * 100}% must; without one:\n${missing.map((m) => `  src/${m} -> ${mirroredTest(m)}`).join('\n')}`,
    ).toBeGreaterThanOrEqual(MIRRORED_SHARE);
  });
});

describe('the floors of src/', () => {
  it('no module imports a floor above its own', () => {
    const files = new Map(sourceModules().map((m) => [m, readFileSync(join(SRC, m), 'utf8')]));
    expect(layeringViolations(files)).toEqual([]);
  });

  it('names the file and the import that break them, whatever form the import takes', () => {
    const files = new Map([
      ['api/a.ts', "import type { X } from '../client/x.js';\nexport const a = 1;"],
      ['client/b.ts', "export { y } from '../config/y.js';\nimport { c } from '../core/c.js';"],
      ['config/c.ts', "const m = await import('../cli/main.js');\nimport { b } from '../bulk/b.js';"],
      ['mock/d.ts', "import '../client/z.js';\nimport { o } from '../api/operations.js';"],
      ['importer/e.ts', "import { s } from '../mock/server.js';\nimport { u } from '../undo/u.js';"],
      ['mock/seed.ts', "const { roles } = await import('../importer/columns.js');"],
      ['elsewhere/f.ts', "import { a } from '../api/a.js';"],
      ['cli/g.ts', "import { s } from '../mock/server.js';\nimport p from '../../package.json';"],
    ]);
    expect(layeringViolations(files)).toEqual([
      "src/api/a.ts imports '../client/x.js': client is a floor above api",
      "src/client/b.ts imports '../config/y.js': config is a floor above client",
      "src/config/c.ts imports '../cli/main.js': cli is a floor above config",
      "src/mock/d.ts imports '../client/z.js': mock stands on api, core only",
      "src/importer/e.ts imports '../mock/server.js': mock is used by cli only",
      'src/elsewhere/f.ts is on no floor: add its directory to FLOORS in test/layout.test.ts',
    ]);
  });
});
