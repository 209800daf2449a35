// `auth login` checks the key when it can, and asks again at the prompt for a key that cannot be one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askForApiKey } from '../../../src/cli/commands/auth.js';
import { ExitCode } from '../../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../../helpers/cli.js';
import { startTestMock } from '../../helpers/mock.js';
import { startProxy } from '../../helpers/proxy.js';

const home = useTempHome();

const KEY = 'bk_live_login_check_1234';
const login = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  runInProcess(['auth', 'login', '--with-key', ...argv], {
    env: { ...home.env, ...env },
    cwd: home.dir,
    stdin: KEY,
  });
const storedKey = async () => {
  try {
    return JSON.parse(await readFile(join(home.env.CONTACTS_CONFIG_DIR!, 'config.json'), 'utf8')).profiles
      ?.default?.api_key;
  } catch {
    return undefined;
  }
};

describe('auth login checks the key', () => {
  it('says the key works when the agent answers with it', async () => {
    const mock = await startTestMock({ keys: [KEY] });
    const r = await login(['--base-url', mock.url, '--agent', 'a1']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Logged in: key bk_\.\.\.1234 stored .* It works: agent a1 answered/);
    expect(mock.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      'GET /api/v1/chatbots/a1/custom-attributes',
    ]);
    expect(await storedKey()).toBe(KEY);
  });

  it('refuses and does not store a key the service rejects (exit 3)', async () => {
    const mock = await startTestMock({ keys: ['bk_some_other_key_99'] });
    const r = await login(['--base-url', mock.url], { CONTACTS_AGENT: 'a1' });
    expect(r.code).toBe(ExitCode.AUTH);
    expect(r.stderr).toMatch(/The service refused this key \(HTTP 401\); it was not stored/);
    expect(await storedKey()).toBeUndefined();
  });

  it('stores the key unverified, and says so, when there is no agent to ask', async () => {
    const mock = await startTestMock();
    const r = await login(['--base-url', mock.url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/unverified: no agent is set to check it with/);
    expect(mock.requests).toHaveLength(0);
    expect(await storedKey()).toBe(KEY);
  });
});

describe('the key prompt', () => {
  it('says where a key comes from, and asks again after a paste that is not a key', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    let text = '';
    let onText: () => void = () => {};
    const stderr = {
      write(chunk: string) {
        text += chunk;
        onText();
        return true;
      },
    };
    const warnings: string[] = [];
    const io = {
      stdin,
      stderr,
      isTTY: { stdin: true },
      warn: (m: string) => {
        warnings.push(m);
        onText();
      },
    };
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        onText = () => {
          if (pattern.test(text) || warnings.some((w) => pattern.test(w))) resolve();
        };
        onText();
      });
    const answer = askForApiKey(io);
    await seen(/workspace settings, under API keys/);
    stdin.write('live_missing_prefix_1234\r');
    await seen(/not a workspace key: it does not start with "bk_"/);
    stdin.write(`${KEY}\r`);
    await expect(answer).resolves.toBe(KEY);
    expect(text).not.toContain('missing_prefix');
  });
});

describe('auth login and plain http', () => {
  it('refuses an http:// base URL on another machine before sending or storing the key', async () => {
    // The proxy would receive the check if it were sent: the name is not resolved on this machine.
    const proxy = await startProxy();
    const r = await login(['--base-url', 'http://contacts.test:4010', '--agent', 'a1'], {
      HTTP_PROXY: proxy.url,
    });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/Refusing to send the API key unencrypted to contacts\.test:4010/);
    expect(proxy.seen).toEqual([]);
    expect(await storedKey()).toBeUndefined();
  });
});

describe('auth login and the key variables', () => {
  it.each([
    [{ CONTACTS_API_KEY: 'bk_env_key_0000' }, 'CONTACTS_API_KEY is set and takes precedence'],
    [{ CONTACTS_API_KEY_FILE: '/nonexistent/key' }, 'CONTACTS_API_KEY_FILE is set and takes precedence'],
  ])('warns that %j wins over the key it stores', async (env, warning) => {
    const r = await login([], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Note: ${warning} over the stored key.`);
  });
});
