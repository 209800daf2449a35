// What a script or a container needs from the CLI: a key from a mounted secret file, prompts
// that fail instead of waiting (--no-input), and -q leaving stderr to errors alone.
import { execFileSync } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';
import { startProxy } from '../helpers/proxy.js';

const home = useTempHome();

const cli = (argv: string[], env: NodeJS.ProcessEnv = {}, options: { stdin?: string; tty?: boolean } = {}) =>
  runInProcess(argv, { env: { ...home.env, ...env }, cwd: home.dir, ...options });

async function keyFile(text: string, mode = 0o600): Promise<string> {
  const file = join(home.dir, 'api-key');
  await writeFile(file, text);
  await chmod(file, mode);
  return file;
}

describe('CONTACTS_API_KEY_FILE', () => {
  it("reads the key from the file's first line and uses it", async () => {
    const mock = await startTestMock({ keys: [TEST_KEY] });
    const file = await keyFile(`${TEST_KEY}\nsecond line ignored\n`);
    const env = { CONTACTS_API_KEY_FILE: file, CONTACTS_BASE_URL: mock.url };
    const r = await cli(['list', '--agent', AGENT, '-o', 'json'], env);
    expect(r).toMatchObject({ code: 0, stdout: '[]\n' });
    const status = await cli(['auth', 'status', '-o', 'json'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({
      key_source: `key file (CONTACTS_API_KEY_FILE: ${file})`,
    });
    expect(status.stdout).not.toContain(TEST_KEY);
  });

  it.skipIf(process.platform === 'win32')('refuses a file others can read, as ssh does', async () => {
    const file = await keyFile(`${TEST_KEY}\n`, 0o644);
    const r = await cli(['list', '--agent', AGENT], {
      CONTACTS_API_KEY_FILE: file,
      CONTACTS_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(ExitCode.AUTH);
    expect(r.stderr).toContain(`CONTACTS_API_KEY_FILE (${file}) is accessible by others (mode 0644)`);
    expect(r.stderr).toContain(`chmod 600 ${file}`);
    expect(r.stderr).not.toContain(TEST_KEY);
  });

  it('says what is wrong with a missing, empty or malformed file, never echoing it', async () => {
    const env = { CONTACTS_BASE_URL: 'http://127.0.0.1:9' };
    const missing = await cli(['list', '--agent', AGENT], {
      ...env,
      CONTACTS_API_KEY_FILE: join(home.dir, 'nope'),
    });
    expect(missing.stderr).toMatch(/Cannot read the key from CONTACTS_API_KEY_FILE \(.*nope\): ENOENT/);
    const empty = await cli(['list', '--agent', AGENT], {
      ...env,
      CONTACTS_API_KEY_FILE: await keyFile('\n'),
    });
    expect(empty.stderr).toContain('is empty');
    const bad = await cli(['list', '--agent', AGENT], {
      ...env,
      CONTACTS_API_KEY_FILE: await keyFile('sk_secret_1\n'),
    });
    expect(bad.stderr).toMatch(/first line of CONTACTS_API_KEY_FILE .* is not a valid bk_ key/);
    expect(bad.stderr).not.toContain('sk_secret_1');
  });

  it('CONTACTS_API_KEY wins over the file; a command needing no key ignores a bad file', async () => {
    const file = await keyFile('not a key\n');
    const status = await cli(['auth', 'status', '-o', 'json'], {
      CONTACTS_API_KEY: TEST_KEY,
      CONTACTS_API_KEY_FILE: file,
    });
    expect(JSON.parse(status.stdout)).toMatchObject({ key_source: 'env (CONTACTS_API_KEY)' });
    expect((await cli(['config', 'set', 'agent', 'a1'], { CONTACTS_API_KEY_FILE: file })).code).toBe(0);
  });
});

describe('CONTACTS_API_KEY_FILE that is not a regular file', () => {
  it.skipIf(process.platform === 'win32')(
    'refuses a FIFO at once instead of waiting for a writer',
    async () => {
      const fifo = join(home.dir, 'key-pipe');
      execFileSync('mkfifo', ['-m', '600', fifo]);
      const r = await cli(['auth', 'status'], { CONTACTS_API_KEY_FILE: fifo });
      expect(r.code).toBe(ExitCode.AUTH);
      expect(r.stderr).toContain(`CONTACTS_API_KEY_FILE (${fifo}) is not a file`);
    },
  );
});

describe('--no-input and CONTACTS_NO_INPUT=1', () => {
  it("the delete hint keeps the run's global flags and agent", async () => {
    const r = await cli(['--no-input', '--mock', '-o', 'json', 'delete', 'u_1', '--agent', 'a1']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('hint: contacts --mock delete u_1 --yes --agent a1 -o json');
  });

  it('delete --from under --no-input is an error naming --yes, with the command to run', async () => {
    await writeFile(join(home.dir, 'ids.txt'), 'u_1\nu_2\n');
    const r = await cli(['--no-input', '--mock', 'delete', '--from', 'ids.txt'], {}, { tty: true });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(
      /^error: Delete 2 contacts of agent demo named in ids\.txt\?: not asked, since --no-input is set; pass --yes/,
    );
    expect(r.stderr).toContain(
      'hint: contacts --mock delete --from ids.txt --yes (or --dry-run to see the list first)',
    );
  });

  it('turn the delete confirmation into an error naming --yes, even on a terminal', async () => {
    const flag = await cli(['--no-input', '--mock', 'delete', 'u_1'], {}, { tty: true });
    expect(flag.code).toBe(ExitCode.USAGE);
    expect(flag.stderr).toMatch(
      /^error: Delete contact u_1\?: not asked, since --no-input is set; pass --yes/,
    );
    const env = await cli(['--mock', 'delete', 'u_1'], { CONTACTS_NO_INPUT: '1' }, { tty: true });
    expect(env.stderr).toContain('not asked, since CONTACTS_NO_INPUT is set; pass --yes');
  });

  it.each([['1'], ['true'], ['YES'], ['on'], [' On ']])(
    'CONTACTS_NO_INPUT=%j turns the prompt into an error',
    async (value) => {
      const r = await cli(['--mock', 'delete', 'u_1'], { CONTACTS_NO_INPUT: value }, { tty: true });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain('not asked, since CONTACTS_NO_INPUT is set; pass --yes');
    },
  );

  it.each([['0'], ['false'], ['no'], ['OFF'], ['']])(
    'CONTACTS_NO_INPUT=%j leaves prompts on',
    async (value) => {
      // Not on a terminal, so the confirmation is refused for that reason, not for --no-input.
      const r = await cli(['--mock', 'delete', 'u_1'], { CONTACTS_NO_INPUT: value });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(/^error: Refusing to delete u_1 without confirmation/);
    },
  );

  it.each([
    ['CONTACTS_NO_INPUT', ['--mock', 'delete', 'u_1']],
    ['CONTACTS_MOCK', ['list']],
    ['CONTACTS_INSECURE_HTTP', ['list', '--agent', AGENT]],
  ])('%s with a value that is neither on nor off is a configuration error naming it', async (name, argv) => {
    const r = await cli(argv, {
      [name]: 'maybe',
      CONTACTS_API_KEY: TEST_KEY,
      CONTACTS_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(`error: Invalid value in ${name}: "maybe"`);
    expect(r.stderr).toMatch(/hint: Set .* to 1, true, yes or on/);
  });

  it('CONTACTS_MOCK=true and CONTACTS_INSECURE_HTTP=on are read as on, as CONTACTS_NO_INPUT is', async () => {
    const mock = await cli(['list', '-o', 'json'], { CONTACTS_MOCK: 'true' });
    expect(mock).toMatchObject({ code: 0, stdout: '[]\n' });
    // Allowed to another machine: the request goes (through the test proxy, which alone knows
    // contacts.test) instead of being refused.
    const server = await startTestMock({ keys: [TEST_KEY], allowedHosts: ['contacts.test'] });
    const proxy = await startProxy();
    const insecure = await cli(['list', '--agent', AGENT, '-o', 'json'], {
      CONTACTS_INSECURE_HTTP: 'on',
      CONTACTS_API_KEY: TEST_KEY,
      CONTACTS_BASE_URL: server.url.replace('127.0.0.1', 'contacts.test'),
      HTTP_PROXY: proxy.url,
    });
    expect(insecure).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(proxy.seen).toHaveLength(1);
  });

  it('turn the key prompt of auth login into an error naming --with-key', async () => {
    const r = await cli(['--no-input', 'auth', 'login'], {}, { tty: true });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('pass --with-key');
    expect(r.stderr).toContain('contacts auth login --with-key < key.txt');
  });
});

describe('-q', () => {
  it('keeps stdout for data and stderr for errors: no notes, no warnings', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY] });
    const env = { CONTACTS_API_KEY: TEST_KEY, CONTACTS_BASE_URL: mock.url };
    const args = [
      'upsert',
      '--agent',
      AGENT,
      '--data',
      '{"external_id":"u_1","company":"Acme"}',
      '-o',
      'json',
    ];
    const loud = await cli(args, env);
    expect(loud.stderr).toContain('warning: the service ignored fields it does not know: company');
    const quiet = await cli(['-q', ...args], env);
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.stdout)).toMatchObject({ external_id: 'u_1' });
    expect(quiet.stderr).toBe('');
    const failing = await cli(['-q', 'get', 'nobody', '--agent', AGENT], env);
    expect(failing.code).toBe(ExitCode.NOT_FOUND);
    expect(failing.stderr).toMatch(/^error: /);
  });
});
