// What a module of src/ imports, read by TypeScript's own pre-processor (so comments and
// strings never count): the layout test checks the floors with it, and the entry points'
// tests what an entry loads before any of its code runs.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every specifier a module's text imports: static, type-only, re-exports and `import()`. */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The module under src/ (`a/b.ts`) that a relative specifier names, or null outside src/. */
export function resolveInSrc(module: string, specifier: string): string | null {
  const path = relative(SRC, resolve(SRC, dirname(module), specifier))
    .split(sep)
    .join('/');
  return path.startsWith('..') ? null : path.replace(/\.js$/, '.ts');
}

/**
 * What loading `entry` (a module under src/) loads before its code runs: the modules of src/ and
 * the packages it reaches through static imports, type-only ones left out (they are erased) and
 * `import()` left out (it loads later, if at all).
 */
export function loadedWith(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (module: string) => {
    if (modules.has(module)) return;
    modules.add(module);
    const text = readFileSync(join(SRC, module), 'utf8');
    const source = ts.createSourceFile(module, text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      let specifier: ts.Expression | undefined;
      if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
        specifier = statement.moduleSpecifier;
      } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
        specifier = statement.moduleSpecifier;
      }
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const name = specifier.text;
      if (!name.startsWith('.')) {
        packages.add(name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!);
        continue;
      }
      const target = resolveInSrc(module, name);
      if (target) visit(target);
    }
  };
  visit(entry);
  return { modules, packages };
}
