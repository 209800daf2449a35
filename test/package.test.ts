// The package as users import it: its `exports` entry points, resolved by Node itself (a package
// may import itself by name), from the built dist/ that `npm run build` produces.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildOpenApiDocument } from '../src/api/openapi.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function inNode(code: string): unknown {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('package exports', () => {
  it('"contacts-cli" offers the client, its errors and the contract', () => {
    const names = inNode(
      `const m = await import('contacts-cli'); console.log(JSON.stringify(Object.keys(m).sort()));`,
    ) as string[];
    for (const name of [
      'ContactsClient',
      'APIError',
      'NotFoundError',
      'RateLimitError',
      'ContactSchema',
      'ContactInputSchema',
      'createContactValidators',
      'ErrorBodySchema',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('"contacts-cli/import" offers the importer and the undo of an import', () => {
    const names = inNode(
      `const m = await import('contacts-cli/import'); console.log(JSON.stringify(Object.keys(m).sort()));`,
    ) as string[];
    for (const name of [
      'runImport',
      'ImportStoppedError',
      'undoImport',
      'listUndoRecords',
      'UndoRefusedError',
      'undoDir',
      'DEFAULT_BATCH_SIZE',
      'DEFAULT_CONCURRENCY',
    ])
      expect(names).toContain(name);
  });

  it('"contacts-cli/mock" offers the server, the store (in memory or in a file) and the core; "contacts-cli/mock/msw" the handlers', () => {
    const names = inNode(
      `const m = await import('contacts-cli/mock'); console.log(JSON.stringify(Object.keys(m).sort()));`,
    ) as string[];
    for (const name of [
      'startMockServer',
      'respond',
      'handleRequest',
      'createMockStore',
      'openSqliteStore',
      'loadSeed',
    ]) {
      expect(names).toContain(name);
    }
    expect(names).not.toContain('createMockHandlers');
    const msw = inNode(
      `const m = await import('contacts-cli/mock/msw'); console.log(JSON.stringify(Object.keys(m).sort()));`,
    ) as string[];
    expect(msw).toContain('createMockHandlers');
  });

  it('without msw installed, "contacts-cli/mock" still serves and "contacts-cli/mock/msw" fails naming msw', async () => {
    // An install of the package without msw: dist copied, every other dependency linked.
    const dir = await mkdtemp(join(tmpdir(), 'contacts-no-msw-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const pkg = join(dir, 'node_modules', 'contacts-cli');
    await mkdir(pkg, { recursive: true });
    await cp(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
    await cp(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    for (const name of await readdir(join(ROOT, 'node_modules'))) {
      if (name === 'msw' || name === '.bin' || name === '.package-lock.json') continue;
      await symlink(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
    }
    // stderr captured: the refusal below is expected, not a failure for the run's log to show.
    const run = (code: string) =>
      execFileSync(process.execPath, ['--input-type=module', '-e', code], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const served = run(
      `const { startMockServer } = await import('contacts-cli/mock');
       const s = await startMockServer({ port: 0 });
       const r = await fetch(s.url + '/health'); console.log(r.status); await s.close();`,
    );
    expect(served.trim()).toBe('200');
    let message = '';
    try {
      run(`await import('contacts-cli/mock/msw');`);
    } catch (error) {
      message = String((error as { stderr?: string }).stderr);
    }
    expect(message).toContain("Cannot find package 'msw'");
  });

  it('"contacts-cli/openapi.json" is the OpenAPI 3.1 document generated from the contract', () => {
    const doc = inNode(
      `import { createRequire } from 'node:module'; const r = createRequire(process.cwd() + '/'); console.log(JSON.stringify(r('contacts-cli/openapi.json')));`,
    ) as { openapi: string; info: { version: string } };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc).toEqual(buildOpenApiDocument(doc.info.version));
  });
});

describe('the repository', () => {
  it('ignores what the README example imports leave in examples/ (rejects, fixes, checkpoint)', () => {
    for (const file of ['examples/contacts.rejects.csv', 'examples/contacts.fixes.csv']) {
      // check-ignore exits 0 when the path is ignored, and throws otherwise.
      expect(() => execFileSync('git', ['check-ignore', '-q', file], { cwd: ROOT })).not.toThrow();
    }
  });
});
