// Issue 30, items 1 and 9: every file a command writes passes one output-path rule. A path that
// is the config file, the mock's database, another output of the same command, or that follows a
// link another user planted in a shared directory is refused (exit 2) with the option and the
// path, and nothing is written.
import { chmod, lchown, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { openConfigStore } from '../../src/config/store.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { startTestMock, TEST_KEY } from '../helpers/mock.js';

const home = useTempHome();
const at = (...names: string[]) => join(home.dir, ...names);
const cli = (argv: string[]) => runInProcess(argv, { env: home.env, cwd: home.dir });

const SQLITE = 'SQLite format 3\0';
const dbHead = async () =>
  (await readFile(at('.contacts-mock', 'mock.db'))).subarray(0, SQLITE.length).toString('latin1');
const mockIds = async () =>
  JSON.parse((await cli(['--mock', 'list', '-o', 'json'])).stdout).map(
    (c: { external_id: string }) => c.external_id,
  );

beforeEach(async () => {
  // u2 is rejected: a run that went ahead would write the rejects file.
  await writeFile(at('in.csv'), 'external_id,email\nu1,u1@example.com\nu2,not-an-email\n');
});

describe('the config file', () => {
  it('--rejects <config dir>/config.json is refused; the config keeps its key', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY] });
    const store = await openConfigStore({ env: home.env });
    await store.setApiKey('default', TEST_KEY);
    await store.set('default', 'base-url', mock.url);
    const config = join(home.env.CONTACTS_CONFIG_DIR!, 'config.json');
    const before = await readFile(config, 'utf8');
    const r = await cli(['import', 'in.csv', '--agent', 'a1', '--rejects', config]);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(
      `Cannot write --rejects ${config}: it is the config file (${config}), which would be overwritten`,
    );
    expect(await readFile(config, 'utf8')).toBe(before);
    expect(JSON.parse(before).profiles.default.api_key).toBe(TEST_KEY);
    expect(mock.requests.filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('template --out and export --out at the config file are refused', async () => {
    const config = join(home.env.CONTACTS_CONFIG_DIR!, 'config.json');
    await mkdir(home.env.CONTACTS_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    await writeFile(config, '{"version":1,"profiles":{}}', { mode: 0o600 });
    for (const command of ['template', 'export']) {
      const r = await cli(['--mock', command, '--out', config]);
      expect(r.code, command).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(`Cannot write --out ${config}: it is the config file`);
    }
    expect(await readFile(config, 'utf8')).toBe('{"version":1,"profiles":{}}');
  });
});

describe("the embedded mock's database", () => {
  beforeEach(async () => {
    expect((await cli(['--mock', 'upsert', '-e', 'keep'])).code).toBe(0);
  });

  it('--rejects and --fixes at .contacts-mock/mock.db are refused; the database is as it was', async () => {
    for (const option of ['--rejects', '--fixes']) {
      const r = await cli(['--mock', 'import', 'in.csv', option, '.contacts-mock/mock.db']);
      expect(r.code, option).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(
        `Cannot write ${option} .contacts-mock/mock.db: it is the embedded mock's data file`,
      );
    }
    expect(await dbHead()).toBe(SQLITE);
    expect(await mockIds()).toEqual(['keep']);
  });

  it('--results through a symlink to mock.db is refused; the link and the database stay', async () => {
    await symlink(join('.contacts-mock', 'mock.db'), at('results.csv'));
    const r = await cli(['--mock', 'import', 'in.csv', '--results', 'results.csv']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain("Cannot write --results results.csv: it is the embedded mock's data file");
    expect((await lstat(at('results.csv'))).isSymbolicLink()).toBe(true);
    expect(await dbHead()).toBe(SQLITE);
    expect(await mockIds()).toEqual(['keep']);
  });

  it('its journal, and template --out or export --out at it, are refused', async () => {
    const wal = await cli(['--mock', 'import', 'in.csv', '--rejects', '.contacts-mock/mock.db-wal']);
    expect(wal.code).toBe(ExitCode.USAGE);
    expect(wal.stderr).toContain("a journal of the embedded mock's data file");
    for (const command of ['template', 'export']) {
      const r = await cli(['--mock', command, '-o', 'csv', '--out', '.contacts-mock/mock.db']);
      expect(r.code, command).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(
        "Cannot write --out .contacts-mock/mock.db: it is the embedded mock's data file",
      );
    }
    expect(await dbHead()).toBe(SQLITE);
    expect(await mockIds()).toEqual(['keep']);
  });
});

describe('two outputs of one import', () => {
  it('--fixes X --results X is refused naming both, before anything is sent or written', async () => {
    await symlink('x.csv', at('y.csv'));
    for (const results of ['x.csv', 'y.csv']) {
      const r = await cli(['--mock', 'import', 'in.csv', '--fixes', 'x.csv', '--results', results]);
      expect(r.code, results).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(`--fixes x.csv and --results ${results} name one file`);
    }
    const r = await cli(['--mock', 'import', 'in.csv', '--rejects', 'in.csv.import-checkpoint.json']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(
      /the resume checkpoint in\.csv\.import-checkpoint\.json and --rejects .* name one file/,
    );
    // Nothing written beside the input: no x.csv, rejects, fixes or checkpoint.
    expect((await readdir(home.dir)).filter((f) => !f.startsWith('.') && f !== 'config').sort()).toEqual([
      'in.csv',
      'y.csv',
    ]);
    expect(await mockIds()).toEqual([]);
  });
});

const root = process.platform !== 'win32' && process.getuid?.() === 0;
if (!root)
  console.info(
    'output-paths.test.ts: a link planted by another user is not tested: it takes root to lchown one',
  );

describe.skipIf(!root)('an output beside the input, in a shared sticky directory', () => {
  it('is refused when another user planted a link at its name; the file it points at is untouched', async () => {
    const shared = at('shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    await writeFile(join(shared, 'in.csv'), 'external_id,email\nu1,bad\n');
    await writeFile(at('victim.txt'), 'mine');
    await symlink(at('victim.txt'), join(shared, 'in.rejects.csv'));
    await lchown(join(shared, 'in.rejects.csv'), 65534, 65534);
    const r = await cli(['--mock', 'import', join('shared', 'in.csv')]);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(
      `Cannot write the rejects file shared/in.rejects.csv (the default of --rejects): ${join(shared, 'in.rejects.csv')} is a symbolic link owned by another user (uid 65534) in the shared directory ${shared}; refusing to follow it`,
    );
    expect(await readFile(at('victim.txt'), 'utf8')).toBe('mine');
    expect(await mockIds()).toEqual([]);
  });
});

describe('files that are no regular file, and the files a command reads', () => {
  it.skipIf(process.platform === 'win32')(
    'export --out /dev/null is refused, saying it is a device; /dev/null stays a character device',
    async () => {
      const r = await cli(['--mock', 'export', '--out', '/dev/null']);
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(
        'Cannot write --out /dev/null: it is a character device, not a regular file',
      );
      expect(r.stderr).toContain('Omit --out to write to stdout');
      expect((await lstat('/dev/null')).isCharacterDevice()).toBe(true);
    },
  );

  it('--rejects naming the --map-file is refused; the mapping file keeps its content', async () => {
    const map = '{"external_id": "external_id", "email": "email"}\n';
    await writeFile(at('map.json'), map);
    await symlink('map.json', at('alias.json'));
    for (const rejects of ['map.json', 'alias.json']) {
      const r = await cli(['--mock', 'import', 'in.csv', '--map-file', 'map.json', '--rejects', rejects]);
      expect(r.code, rejects).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(`Cannot write --rejects ${rejects}: it is the mapping file (--map-file)`);
    }
    expect(await readFile(at('map.json'), 'utf8')).toBe(map);
    expect(await mockIds()).toEqual([]);
  });

  it('template --from F --out M writes the mapping to M through the rule; --out F is refused', async () => {
    const r = await cli(['--mock', 'template', '--from', 'in.csv', '--out', 'm.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(await readFile(at('m.json'), 'utf8'))).toMatchObject({ external_id: 'external_id' });
    expect(r.stderr).toContain('--map-file m.json');

    const before = await readFile(at('in.csv'), 'utf8');
    const refused = await cli(['--mock', 'template', '--from', 'in.csv', '--out', 'in.csv']);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect(refused.stderr).toContain('Cannot write --out in.csv: it is the input (--from)');
    expect(await readFile(at('in.csv'), 'utf8')).toBe(before);
  });
});

describe("a mock's database path", () => {
  const withData = (data: string, argv: string[]) =>
    runInProcess(argv, { env: { ...home.env, CONTACTS_MOCK_DATA: data }, cwd: home.dir });

  it("at the config file's lock is refused; no database is made there", async () => {
    const lock = join(home.env.CONTACTS_CONFIG_DIR!, 'config.json.lock');
    await mkdir(home.env.CONTACTS_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    const r = await withData(lock, ['--mock', 'list']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(`Cannot write CONTACTS_MOCK_DATA ${lock}: it is the config file's lock`);
    await expect(lstat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(!root)('through a link another user planted in a shared directory is refused', async () => {
    const shared = at('shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    const planted = join(shared, 'mock.db');
    await symlink(at('victim.db'), planted);
    await lchown(planted, 65534, 65534);
    const r = await withData(planted, ['--mock', 'list']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(`${planted} is a symbolic link owned by another user (uid 65534)`);
    await expect(lstat(at('victim.db'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
