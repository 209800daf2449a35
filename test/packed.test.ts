// The package as a user installs it: `npm pack`'s tarball, installed offline into a temporary
// project (its dependencies from the npm cache `npm ci` filled, pinned by our lock file; see
// helpers/packed.ts), then the installed `contacts` run as a user would.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Packed, packAndInstall, ROOT } from './helpers/packed.js';

const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));

let packed: Packed;

beforeAll(async () => {
  packed = await packAndInstall();
  return () => packed.remove();
}, 180_000);

/** Runs the installed `contacts` with a temporary config directory. */
function contacts(argv: string[], extra: NodeJS.ProcessEnv = {}): string {
  return execFileSync(packed.contacts, argv, {
    cwd: packed.dir,
    env: { ...packed.env, CONTACTS_CONFIG_DIR: join(packed.dir, 'config'), NO_COLOR: '1', ...extra },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('the published package', () => {
  it('has no install-time script and ships each module once: no bundle, no source maps, no CLI types', async () => {
    const manifest = JSON.parse(await readFile(join(packed.installed, 'package.json'), 'utf8'));
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
      expect(manifest.scripts?.[hook], hook).toBeUndefined();
    }
    expect(packed.files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // The binary runs tsc's output of src/cli; its dependencies are the installed ones.
    expect(packed.files).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'bin/contacts.js',
        'dist/cli/main.js',
        'dist/openapi.json',
      ]),
    );
    expect(packed.files.filter((f) => f.startsWith('dist/bin/'))).toEqual([]);
    expect(packed.files.filter((f) => f.startsWith('dist/cli/') && f.endsWith('.d.ts'))).toEqual([]);
    expect(packed.files.filter((f) => f.includes('node_modules/'))).toEqual([]);
  });

  it('installs a working `contacts`: --version, completion bash', () => {
    expect(contacts(['--version'])).toContain(`contacts version ${pkg.version}`);
    const completion = contacts(['completion', 'bash']);
    expect(completion).toContain('complete ');
    expect(completion).toContain('contacts');
  });

  it('serves the mock on port 0 and imports a file into it', async () => {
    const child: ChildProcess = spawn(packed.contacts, ['serve', '--mock', '--port', '0'], {
      cwd: packed.dir,
      env: { ...packed.env, CONTACTS_CONFIG_DIR: join(packed.dir, 'config'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    onTestFinished(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    const url = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once('line', resolve),
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);

    const file = join(packed.dir, 'people.csv');
    await writeFile(
      file,
      'external_id,name,email\nu_1,Ada Lovelace,ada@example.com\nu_2,Alan Turing,alan@example.com\n',
    );
    const env = { CONTACTS_API_KEY: 'bk_packed_install_test', CONTACTS_BASE_URL: url, CONTACTS_AGENT: 'a1' };
    const summary = JSON.parse(contacts(['import', file, '-o', 'json', '-q'], env));
    expect(summary).toMatchObject({ rows: 2, created: 2, rejected: 0 });
    const listed = JSON.parse(contacts(['list', '-o', 'json'], env));
    expect(listed.map((c: { external_id: string }) => c.external_id)).toEqual(['u_1', 'u_2']);
  });
});
