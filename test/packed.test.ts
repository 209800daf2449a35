// The package as a user installs it: `npm pack`'s tarball, installed offline into a temporary
// project (its dependencies from the npm cache `npm ci` filled, pinned by our lock file), then
// the installed `contacts` run as a user would.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));

interface Packed {
  dir: string;
  tarball: string;
  size: number;
  files: string[];
  /** The installed package's directory and the `contacts` npm linked for it. */
  installed: string;
  contacts: string;
  /** PATH with this test's own node first, so the installed shebang runs the Node under test. */
  env: NodeJS.ProcessEnv;
}

let packed: Packed;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'contacts-cli-packed-'));
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const env: NodeJS.ProcessEnv = {
    PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: dir,
    npm_config_cache: cache,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  // dist/ is built by `npm test` before the suite runs; prepack's rebuild would replace it under
  // the other tests, so the pack here takes it as it is.
  const [report] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    }),
  );
  const tarball = join(dir, report.filename);

  // An app that depends on the tarball, with a lock file of our production dependencies only:
  // `npm ci --offline` then installs exactly what a user gets, from the cache, without network.
  const app = join(dir, 'app');
  await mkdir(app);
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8'));
  const dependencies = { 'contacts-cli': `file:../${report.filename}` };
  const packages: Record<string, unknown> = {
    '': { name: 'app', version: '1.0.0', dependencies },
    'node_modules/contacts-cli': {
      version: pkg.version,
      resolved: `file:../${report.filename}`,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
      peerDependencies: pkg.peerDependencies,
      peerDependenciesMeta: pkg.peerDependenciesMeta,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean }>)) {
    if (path !== '' && !entry.dev) packages[path] = entry;
  }
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies }),
  );
  await writeFile(
    join(app, 'package-lock.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }),
  );
  execFileSync('npm', ['ci', '--offline'], { cwd: app, env, stdio: 'pipe' });
  packed = {
    dir,
    tarball,
    size: report.size,
    files: report.files.map((f: { path: string }) => f.path),
    installed: join(app, 'node_modules', 'contacts-cli'),
    contacts: join(app, 'node_modules', '.bin', 'contacts'),
    env,
  };
  return () => rm(dir, { recursive: true, force: true });
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
