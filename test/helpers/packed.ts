// The package as a user installs it: `npm pack`'s tarball, installed offline into a temporary
// project whose lock file is built from ours, so `npm ci --offline` takes every dependency from
// the npm cache `npm ci` filled, at the versions we pinned, without network.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Packed {
  /** The temporary directory holding the tarball and the app; removed by remove(). */
  dir: string;
  tarball: string;
  size: number;
  files: string[];
  /** The app that installed the tarball (its package.json, lock file and node_modules). */
  app: string;
  /** The installed package's directory and the `contacts` npm linked for it. */
  installed: string;
  contacts: string;
  /** PATH with this test's own node first, so the installed shebang runs the Node under test. */
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

export interface PackOptions {
  /**
   * Packages of our own lock file (devDependencies such as `msw` or `@types/node`) the app
   * installs beside the package as its devDependencies, each with what it depends on.
   */
  devDependencies?: string[];
}

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The lock's entries for `names` and everything they depend on, as Node and npm find them: a
 * dependency of `node_modules/a` is `node_modules/a/node_modules/b` if that exists, else the
 * same under each directory above it.
 */
function closure(packages: Record<string, LockEntry>, names: string[]): Set<string> {
  const found = new Set<string>();
  const locate = (from: string, name: string): string | undefined => {
    let at = from;
    for (;;) {
      const path = at === '' ? `node_modules/${name}` : `${at}/node_modules/${name}`;
      if (packages[path]) return path;
      if (at === '') return undefined;
      const up = at.lastIndexOf('/node_modules/');
      at = up < 0 ? '' : at.slice(0, up);
    }
  };
  const visit = (path: string) => {
    if (found.has(path)) return;
    found.add(path);
    const entry = packages[path] ?? {};
    const deps = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const name of Object.keys(deps)) {
      const dep = locate(path, name);
      if (dep) visit(dep);
    }
  };
  for (const name of names) {
    const path = locate('', name);
    if (!path) throw new Error(`${name} is not in package-lock.json`);
    visit(path);
  }
  return found;
}

/**
 * Packs the package as it is built (dist/ from `npm test`'s build; prepack's rebuild would
 * replace it under the other tests) and installs the tarball into a fresh app, offline.
 */
export async function packAndInstall(options: PackOptions = {}): Promise<Packed> {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  const dir = await mkdtemp(join(tmpdir(), 'contacts-cli-packed-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    const env: NodeJS.ProcessEnv = {
      PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
      HOME: dir,
      npm_config_cache: cache,
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    };
    const [report] = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      }),
    );

    // An app that depends on the tarball, with a lock file of our production dependencies (and
    // the devDependencies asked for): `npm ci --offline` then installs exactly that.
    const app = join(dir, 'app');
    await mkdir(app);
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8'));
    const lockPackages = lock.packages as Record<string, LockEntry>;
    const dependencies = { 'contacts-cli': `file:../${report.filename}` };
    const devNames = options.devDependencies ?? [];
    const devDependencies = Object.fromEntries(
      devNames.map((name) => [name, lockPackages[posix.join('node_modules', name)]?.version ?? '*']),
    );
    const packages: Record<string, unknown> = {
      '': { name: 'app', version: '1.0.0', dependencies, devDependencies },
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
    for (const [path, entry] of Object.entries(lockPackages)) {
      if (path !== '' && !entry.dev) packages[path] = entry;
    }
    for (const path of closure(lockPackages, devNames)) {
      if (!packages[path]) packages[path] = lockPackages[path];
    }
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies, devDependencies }),
    );
    await writeFile(
      join(app, 'package-lock.json'),
      JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }),
    );
    // A dev tool's install script (msw's) has no part here; the package's own install is as a user's.
    const scripts = devNames.length > 0 ? ['--ignore-scripts'] : [];
    execFileSync('npm', ['ci', '--offline', ...scripts], { cwd: app, env, stdio: 'pipe' });
    return {
      dir,
      tarball: join(dir, report.filename),
      size: report.size,
      files: report.files.map((f: { path: string }) => f.path),
      app,
      installed: join(app, 'node_modules', 'contacts-cli'),
      contacts: join(app, 'node_modules', '.bin', 'contacts'),
      env,
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}
