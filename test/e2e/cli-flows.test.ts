// The CLI as a user runs it: a real child process against the mock on port 0, with a
// temporary CONTACTS_CONFIG_DIR, asserting output, exit codes and that the key never shows.
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { startMockServer } from '../../src/mock/server.js';
import { openSqliteStore } from '../../src/mock/sqlite-store.js';
import { BIN, type CliResult, runBin, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'bk_live_flow_secret_9876';
const home = useTempHome();
const outputs: CliResult[] = [];

afterEach(() => {
  // Whatever a test ran, the key must not have been printed.
  for (const r of outputs.splice(0)) {
    expect(r.stdout).not.toContain(KEY);
    expect(r.stderr).not.toContain(KEY);
  }
});

async function cli(argv: string[], extra: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) {
  const result = await runBin(argv, {
    env: { ...home.env, ...extra.env },
    stdin: extra.stdin,
    cwd: home.dir,
  });
  outputs.push(result);
  return result;
}

async function withMock() {
  const mock = await startTestMock();
  const env = { CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: mock.url, CONTACTS_AGENT: 'agent-1' };
  return { mock, env, run: (argv: string[], stdin?: string) => cli(argv, { env, stdin }) };
}

describe('auth and config', () => {
  it('logs in from stdin, stores the key owner-only, shows it masked, and logs out', async () => {
    const mock = await startTestMock();
    const login = await cli(['auth', 'login', '--with-key', '--base-url', mock.url], { stdin: `${KEY}\n` });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('bk_...9876');

    const file = join(home.env.CONTACTS_CONFIG_DIR!, 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(home.env.CONTACTS_CONFIG_DIR!)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8')).profiles.default.api_key).toBe(KEY);

    const status = await cli(['auth', 'status', '-o', 'json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'default',
      base_url: mock.url,
      key: 'bk_...9876',
      key_source: `file (${file})`,
    });

    // The stored key and base URL are used by a real command.
    const list = await cli(['list', '--agent', 'a1']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);

    const fromEnv = await cli(['auth', 'status', '-o', 'json'], {
      env: { CONTACTS_API_KEY: 'bk_from_env_1111' },
    });
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({
      key: 'bk_...1111',
      key_source: 'env (CONTACTS_API_KEY)',
    });

    expect((await cli(['auth', 'logout'])).code).toBe(0);
    const after = await cli(['auth', 'status', '-o', 'json']);
    expect(after.code).toBe(ExitCode.AUTH);
    expect(JSON.parse(after.stdout).key).toBeNull();
  });

  it('refuses a key that is not bk_, without echoing it', async () => {
    const r = await cli(['auth', 'login', '--with-key'], { stdin: 'sk_not_ours_abcdef\n' });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/bk_/);
    expect(r.stderr).not.toContain('sk_not_ours_abcdef');
  });

  it('will not prompt without a terminal', async () => {
    const r = await cli(['auth', 'login']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('--with-key');
  });

  it('sets, gets, lists and unsets settings per profile', async () => {
    expect((await cli(['config', 'set', 'agent', 'a-9'])).code).toBe(0);
    expect((await cli(['config', 'set', 'output', 'ndjson', '--profile', 'work'])).code).toBe(0);
    expect((await cli(['config', 'get', 'agent'])).stdout).toBe('a-9\n');
    expect((await cli(['config', 'get', 'agent', '--profile', 'work'])).code).toBe(1);
    const list = await cli(['config', 'list', '--profile', 'work', '-o', 'json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ profile: 'work', output: 'ndjson', agent: null });
    expect((await cli(['config', 'set', 'output', 'yaml'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['config', 'set', 'base-url', 'ftp://x'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['config', 'set', 'colour', 'red'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['config', 'unset', 'agent'])).code).toBe(0);
    expect((await cli(['config', 'get', 'agent'])).code).toBe(1);
  });

  it('takes flags over env over the profile', async () => {
    await cli(['config', 'set', 'agent', 'from-profile']);
    const status = async (argv: string[], env: NodeJS.ProcessEnv = {}) =>
      JSON.parse((await cli(['auth', 'status', '-o', 'json', ...argv], { env })).stdout).agent;
    expect(await status([])).toBe('from-profile');
    expect(await status([], { CONTACTS_AGENT: 'from-env' })).toBe('from-env');

    const mock = await startTestMock();
    const env = { CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: mock.url, CONTACTS_AGENT: 'from-env' };
    await cli(['list', '--agent', 'from-flag'], { env });
    await cli(['list'], { env });
    await cli(['list'], { env: { ...env, CONTACTS_AGENT: '' } });
    expect(mock.requests.map((r) => r.path.split('/')[4])).toEqual(['from-flag', 'from-env', 'from-profile']);
  });
});

describe('contacts and attributes', () => {
  // One CLI process per command and format: 39 s alone on a busy two-core machine; 30 s bounds a hang, not this.
  it('runs every command, in every output format', async () => {
    const { run } = await withMock();
    expect((await run(['attrs', 'define', 'plan', '--type', 'text', '--label', 'Plan'])).code).toBe(0);
    expect((await run(['attrs', 'define', 'seats', '--type', 'number'])).code).toBe(0);

    const created = await run([
      'upsert',
      '--external-id',
      'u1',
      '--name',
      'Ada',
      '--email',
      'ada@example.com',
      '--attr',
      'plan=pro',
      '--attr',
      'seats=3',
    ]);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('Created contact u1');
    expect(JSON.parse(created.stdout)).toMatchObject({
      external_id: 'u1',
      custom_attributes: { plan: 'pro', seats: 3 },
    });

    const updated = await run([
      'upsert',
      '--data',
      '{"external_id":"u1","phonenumber":"+44 20 7946 0958"}',
      '--name',
      'Ada L',
    ]);
    expect(updated.stderr).toContain('Updated contact u1');
    expect(JSON.parse(updated.stdout)).toMatchObject({
      name: 'Ada L',
      email: 'ada@example.com',
      phonenumber: '+442079460958',
    });

    await run(['upsert', '--data', '@-'], '{"external_id":"u2","name":"Grace"}');

    const json = JSON.parse((await run(['list', '-o', 'json'])).stdout);
    expect(json.map((c: { external_id: string }) => c.external_id)).toEqual(['u1', 'u2']);

    const ndjson = (await run(['list', '--all', '-o', 'ndjson'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(ndjson).toHaveLength(2);

    const csv = (await run(['list', '--all', '-o', 'csv'])).stdout.trim().split('\n');
    expect(csv[0]).toBe(
      'id,external_id,name,email,phonenumber,stripe_accounts,created_at,updated_at,attr.plan,attr.seats',
    );
    // -o csv is for scripts: values as they are (export's CSV is the one guarded for spreadsheets).
    expect(csv[1]).toContain(',u1,Ada L,ada@example.com,+442079460958,');
    expect(csv[1]).toMatch(/,pro,3$/);

    const table = await run(['list', '-o', 'table']);
    expect(table.stdout).toMatch(/^u1\s+Ada L\s+ada@example\.com/m);

    const got = await run(['get', 'u1', '-o', 'table']);
    expect(got.stdout).toMatch(/^attr\.plan\s+pro$/m);

    const patched = await run([
      'update',
      'u1',
      '--unset',
      'email',
      '--unset',
      'attr.seats',
      '--attr',
      'plan=team',
    ]);
    const patchedContact = JSON.parse(patched.stdout);
    expect(patchedContact).toMatchObject({ email: null, custom_attributes: { plan: 'team' } });
    expect(patchedContact.custom_attributes).not.toHaveProperty('seats');

    const attrs = JSON.parse((await run(['attrs', 'update', 'seats', '--archive', '-o', 'json'])).stdout);
    expect(attrs).toMatchObject({ name: 'seats', archived: true });
    const defs = (await run(['attrs', 'list', '-o', 'csv'])).stdout;
    expect(defs.split('\n')[0]).toBe('name,type,label,description,archived');
    expect(defs).toContain('plan,text,Plan,,false');

    const refused = await run(['delete', 'u2']);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect(refused.stderr).toContain('--yes');
    const deleted = await run(['delete', 'u2', '--yes']);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout).external_id).toBe('u2');
    expect((await run(['get', 'u2'])).code).toBe(ExitCode.NOT_FOUND);
  }, 120_000);

  it('attrs define --if-not-exists is idempotent for the same type only', async () => {
    const { run } = await withMock();
    expect((await run(['attrs', 'define', 'plan', '--type', 'text'])).code).toBe(0);
    expect((await run(['attrs', 'define', 'plan', '--type', 'text'])).code).toBe(ExitCode.CONFLICT);
    const again = await run(['attrs', 'define', 'plan', '--type', 'text', '--if-not-exists']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already exists');
    expect(JSON.parse(again.stdout)).toMatchObject({ name: 'plan', type: 'text' });
    const other = await run(['attrs', 'define', 'plan', '--type', 'number', '--if-not-exists']);
    expect(other.code).toBe(ExitCode.CONFLICT);
    expect(other.stderr).toContain('already exists with type text');
  });

  it('pages: --page, --per-page, and a note about the next page on stderr', async () => {
    const { run, mock } = await withMock();
    for (let i = 0; i < 25; i++) mock.store.upsertContact('agent-1', { external_id: `u${i}` });
    const page2 = await run(['list', '--page', '2', '--per-page', '10']);
    expect(JSON.parse(page2.stdout).map((c: { external_id: string }) => c.external_id)[0]).toBe('u10');
    expect(page2.stderr).toContain('Page 2 of 3 (25 contacts)');
    const all = await run(['list', '--all', '--per-page', '10', '-o', 'ndjson']);
    expect(all.stdout.trim().split('\n')).toHaveLength(25);
    expect((await run(['list', '--page', '9'])).code).toBe(ExitCode.USAGE);
  });

  it('prints a 400 field by field and exits 2', async () => {
    const { run } = await withMock();
    const data = JSON.stringify({ external_id: 'x', email: 'nope', name: 'n'.repeat(300) });
    const r = await run(['upsert', '--data', data]);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/error: Invalid request body \(HTTP 400, request req_\w+\)/);
    expect(r.stderr).toContain('email: Invalid email');
    expect(r.stderr).toContain('name:');
  });

  it('checks --attr names locally, with a suggestion, before anything is sent', async () => {
    const { run, mock } = await withMock();
    await run(['attrs', 'define', 'plan', '--type', 'text']);
    const sent = mock.requests.length;
    const r = await run(['upsert', '--external-id', 'x', '--attr', 'plna=pro']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/--attr plna: no such custom attribute \(did you mean plan\?\)/);
    expect(mock.requests.slice(sent).map((q) => q.method)).toEqual(['GET']);
  });

  it('gives each failure its documented exit code', async () => {
    const { run } = await withMock();
    await run(['upsert', '--external-id', 'a', '--email', 'same@example.com']);
    expect((await run(['upsert', '--external-id', 'b', '--email', 'SAME@example.com'])).code).toBe(
      ExitCode.CONFLICT,
    );
    expect((await run(['get', 'nobody'])).code).toBe(ExitCode.NOT_FOUND);
    expect((await run(['upsert', '--name', 'no id'])).code).toBe(ExitCode.USAGE);
    expect((await run(['list', '--per-page', '5'])).code).toBe(ExitCode.USAGE);
    expect((await run(['frobnicate'])).code).toBe(ExitCode.USAGE);
    expect((await cli(['list', '--agent', 'a'])).code).toBe(ExitCode.AUTH);
    const noAgent = await cli(['list'], {
      env: { CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(noAgent.code).toBe(ExitCode.USAGE);
    expect(noAgent.stderr).toContain('contacts config set agent');
  });

  it('exits 3 when the service rejects the key', async () => {
    const mock = await startTestMock({ keys: ['bk_the_only_good_key'] });
    const r = await cli(['list', '--agent', 'a'], {
      env: { CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: mock.url },
    });
    expect(r.code).toBe(ExitCode.AUTH);
    expect(r.stderr).toContain('Unauthorized access');
  });

  it('exits 6 on a failing service and 7 when it cannot be reached', async () => {
    const server = await startScriptedServer([{ status: 503, body: { message: 'down' } }]);
    try {
      const env = { CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: server.url, CONTACTS_AGENT: 'a' };
      const r = await cli(['get', 'u1'], { env });
      expect(r.code).toBe(ExitCode.SERVICE);
      expect(server.requests.length).toBe(3);
    } finally {
      await server.close();
    }
    // A server that resets every connection: unlike a closed port, no other test can take it over.
    const resetting = await startScriptedServer([{ reset: true }]);
    try {
      const unreachable = await cli(['get', 'u1'], {
        env: { CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: resetting.url, CONTACTS_AGENT: 'a' },
      });
      expect(unreachable.code).toBe(ExitCode.NETWORK);
      expect(unreachable.stderr).toContain('Could not reach');
    } finally {
      await resetting.close();
    }
  });

  it('--debug shows requests and responses with the key redacted', async () => {
    const { run } = await withMock();
    const r = await run(['--debug', 'get', 'missing']);
    expect(r.stderr).toContain('[debug] → GET');
    expect(r.stderr).toContain('Bearer [REDACTED]');
    expect(r.stderr).toContain('[debug] ← 404');
  });
});

describe('embedded mock', () => {
  it('--mock runs the main job with no key and no server, keeping state between commands', async () => {
    const define = await cli(['--mock', 'attrs', 'define', 'plan', '--type', 'text']);
    expect(define.code).toBe(0);
    expect((await cli(['--mock', 'upsert', '--external-id', 'u1', '--attr', 'plan=pro'])).code).toBe(0);
    const listed = await cli(['list', '-o', 'json'], { env: { CONTACTS_MOCK: '1' } });
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { external_id: 'u1', custom_attributes: { plan: 'pro' } },
    ]);
    // A SQLite database that `sqlite3` (or any SQLite) can open.
    const db = new Database(join(home.dir, '.contacts-mock', 'mock.db'));
    expect((db.prepare('SELECT external_id FROM contacts').raw().all() as string[][]).flat()).toEqual(['u1']);
    db.close();
  });
});

describe('embedded mock, concurrently', () => {
  it('parallel --mock commands in one directory all keep their writes', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => cli(['--mock', 'upsert', '--external-id', `p${i}`, '-q'])),
    );
    expect(
      results.map((r) => r.code),
      results.map((r) => r.stderr).join(''),
    ).toEqual([0, 0, 0, 0, 0, 0]);
    const listed = JSON.parse((await cli(['--mock', 'list', '-o', 'json'])).stdout);
    expect(listed.map((c: { external_id: string }) => c.external_id).sort()).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
    ]);
  });

  it("runs at once beside a serve --mock on the same database, each seeing the other's writes", async () => {
    const dataFile = join(home.dir, '.contacts-mock', 'mock.db');
    await mkdir(dirname(dataFile), { recursive: true });
    const server = await startMockServer({ port: 0, dataFile });
    try {
      const res = await fetch(`${server.url}/api/v1/chatbots/demo/contacts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ external_id: 'from-serve', email: 'same@example.com' }),
      });
      expect(res.status).toBe(201);
      // The embedded mock sees it, and the schema's uniqueness holds across the two processes.
      const clash = await cli([
        '--mock',
        'upsert',
        '--external-id',
        'from-cli',
        '--email',
        'SAME@example.com',
      ]);
      expect(clash.code).not.toBe(0);
      expect(clash.stderr).toContain('Email already exists');
      expect((await cli(['--mock', 'upsert', '--external-id', 'from-cli', '-q'])).code).toBe(0);
      expect(server.store.contacts('demo').map((c) => c.external_id)).toEqual(['from-serve', 'from-cli']);
    } finally {
      await server.close();
    }
  });
});

describe('serve --mock', () => {
  it('prints its URL first, logs requests to stderr, persists with --data, and stops on SIGTERM', async () => {
    const dataFile = join(home.dir, 'state.db');
    const child = spawn(process.execPath, [BIN, 'serve', '--mock', '--port', '0', '--data', dataFile], {
      env: home.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const firstLine = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const res = await fetch(`${firstLine}/api/v1/chatbots/a/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ external_id: 'kept' }),
    });
    expect(res.status).toBe(201);
    expect((await fetch(`${firstLine}/health`)).status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/POST \/api\/v1\/chatbots\/a\/contacts 201/);
    expect(stderr).not.toContain(KEY);
    const store = openSqliteStore(dataFile);
    expect(store.contacts('a').map((c) => c.external_id)).toEqual(['kept']);
    store.close();
  });
});
