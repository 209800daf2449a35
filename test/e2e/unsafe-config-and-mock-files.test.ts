// Issue "nothing lost, nothing injected", config and mock: a key in a file others can read is
// warned about and tightened on the next write; a user's mistake gets a clear message and the
// documented exit code, never "this looks like a bug".
import { chmod, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { toExit } from '../../src/cli/exit.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

const KEY = 'bk_live_perm_check_1234';

describe('a config file others can read', () => {
  it('is warned about on read and tightened on the next write', async () => {
    const dir = home.env.CONTACTS_CONFIG_DIR!;
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'config.json');
    await writeFile(file, JSON.stringify({ version: 1, profiles: { default: { api_key: KEY } } }));
    await chmod(file, 0o644);
    await chmod(dir, 0o755);

    const status = await runInProcess(['auth', 'status', '-o', 'json'], { env: home.env });
    expect(status.code).toBe(0);
    expect(status.stderr).toMatch(
      /config file .*config\.json holds an API key but others can access it \(mode 0644\)/,
    );
    expect(status.stderr).toMatch(/directory of the config file .* \(mode 0755\)/);
    expect(status.stderr).not.toContain(KEY);

    expect((await runInProcess(['config', 'set', 'agent', 'a1'], { env: home.env })).code).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const after = await runInProcess(['auth', 'status', '-o', 'json'], { env: home.env });
    expect(after.stderr).not.toMatch(/others can access it/);
  });

  it('says nothing about a file without a key', async () => {
    const dir = home.env.CONTACTS_CONFIG_DIR!;
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({ version: 1, profiles: { default: { agent: 'a' } } }),
    );
    await chmod(join(dir, 'config.json'), 0o644);
    const r = await runInProcess(['config', 'list', '-o', 'json'], { env: home.env });
    expect(r.stderr).not.toMatch(/others can access/);
  });
});

describe('mock data files and ports: clear messages, documented exit codes', () => {
  const serve = (argv: string[]) =>
    runInProcess(['serve', '--mock', '--port', '0', ...argv], { env: home.env, cwd: home.dir });

  it('a contacts seed with several --agents names its agent: without --seed-agent, or with one not among them, a usage error', async () => {
    await writeFile(join(home.dir, 'people.csv'), 'external_id,name\nu1,Ada\n');
    const ambiguous = await serve(['--agents', 'a,b', '--seed', 'people.csv']);
    expect(ambiguous.code).toBe(ExitCode.USAGE);
    expect(ambiguous.stderr).toMatch(/say which agent its contacts belong to \(--seed-agent ID\)/);
    const outside = await serve(['--agents', 'a,b', '--seed', 'people.csv', '--seed-agent', 'c']);
    expect(outside.code).toBe(ExitCode.USAGE);
    expect(outside.stderr).toMatch(/--seed-agent c is not one of --agents a,b/);
  });

  it('a data file that is not a SQLite database, an old JSON one, or a directory is a usage error naming the file', async () => {
    await writeFile(join(home.dir, 'notes.txt'), 'not a database');
    await writeFile(join(home.dir, 'old.json'), '{"version":1,"seq":0,"agents":{}}');
    await mkdir(join(home.dir, 'adir'));
    for (const [file, why] of [
      ['notes.txt', /notes\.txt is not a SQLite database/],
      ['old.json', /old\.json is a JSON file[\s\S]*--seed .*old\.json/],
      ['adir', /it is a directory/],
    ] as const) {
      const r = await serve(['--data', file]);
      expect(r.code, file).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toMatch(/looks like a bug/);
    }
  });

  it('a port in use is a usage error that says how to pick another', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const r = await runInProcess(['serve', '--mock', '--port', String(port)], {
        env: home.env,
        cwd: home.dir,
      });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(new RegExp(`Port ${port} is already in use`));
      expect(r.stderr).toMatch(/--port/);
      expect(r.stderr).not.toMatch(/looks like a bug/);
    } finally {
      blocker.close();
    }
  });

  it('a full disk is said plainly, naming the file', () => {
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      path: '/tmp/out.csv',
    });
    const plan = toExit(error);
    expect(plan.code).toBe(ExitCode.FAILURE);
    expect(plan.lines[0]).toBe('error: No space left on the device (or quota) for /tmp/out.csv');
    expect(plan.lines.join('\n')).not.toMatch(/looks like a bug/);
  });
});

describe('export --out', () => {
  it('refuses to write over the embedded mock data file or the config file', async () => {
    const cli = (argv: string[]) => runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir });
    expect((await cli(['upsert', '--external-id', 'u1'])).code).toBe(0);
    // -o csv: without it, a .db extension is refused before anything else (no format writes one).
    const data = await cli(['export', '-o', 'csv', '--out', '.contacts-mock/mock.db']);
    expect(data.code).toBe(ExitCode.USAGE);
    expect(data.stderr).toMatch(/it is the embedded mock's data file/);
    const unnamed = await cli(['export', '--out', '.contacts-mock/mock.db']);
    expect(unnamed.code).toBe(ExitCode.USAGE);
    expect(unnamed.stderr).toMatch(/cannot tell which format to write to .contacts-mock\/mock\.db/);
    expect((await cli(['list', '-o', 'json'])).stdout).toContain('"u1"');
  });

  it.skipIf(process.platform === 'win32')(
    'replaces the file a symlink points at, keeping the link and the file mode, and leaves no temp file',
    async () => {
      const cli = (argv: string[]) => runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir });
      expect((await cli(['upsert', '--external-id', 'u1'])).code).toBe(0);
      await mkdir(join(home.dir, 'real'));
      await mkdir(join(home.dir, 'links'));
      const real = join(home.dir, 'real', 'contacts.csv');
      await writeFile(real, 'old\n');
      await chmod(real, 0o600);
      await symlink('../real/contacts.csv', join(home.dir, 'links', 'contacts.csv'));

      const r = await cli(['export', '--out', 'links/contacts.csv']);
      expect(r.code).toBe(0);
      expect((await lstat(join(home.dir, 'links', 'contacts.csv'))).isSymbolicLink()).toBe(true);
      expect(await readFile(real, 'utf8')).toMatch(/^id,external_id,.*\n.*,u1,/s);
      expect((await stat(real)).mode & 0o777).toBe(0o600);
      expect(await readdir(join(home.dir, 'real'))).toEqual(['contacts.csv']);
      expect(await readdir(join(home.dir, 'links'))).toEqual(['contacts.csv']);
    },
  );
});
