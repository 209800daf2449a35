import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { toExit } from '../../src/cli/exit.js';
import { ConfigError } from '../../src/config/errors.js';
import {
  type ConfigStore,
  configDirFromEnv,
  configFilePath,
  openConfigReader,
  openConfigStore,
} from '../../src/config/store.js';
import { runBin, tempHome } from '../helpers/cli.js';
import {
  realConfigDir,
  snapshotRealConfig,
  type TempConfigDir,
  tempConfigDir,
} from '../helpers/temp-config-dir.js';

const mode = (p: string) => statSync(p).mode & 0o777;

let before: string;
beforeAll(() => {
  before = snapshotRealConfig();
});
afterAll(() => {
  // Nothing in this file may create, change or chmod the user's real config.
  expect(snapshotRealConfig()).toBe(before);
});

let tmp: TempConfigDir;
let store: ConfigStore;
beforeEach(async () => {
  tmp = await tempConfigDir();
  store = await openConfigStore({ env: tmp.env });
});
afterEach(() => tmp.cleanup());

describe('location', () => {
  it('lives in CONTACTS_CONFIG_DIR, never in the real config directory', () => {
    expect(store.path).toBe(path.join(tmp.dir, 'config.json'));
    expect(store.path.startsWith(realConfigDir())).toBe(false);
  });

  it('resolves a relative CONTACTS_CONFIG_DIR and ignores a blank one', () => {
    expect(configDirFromEnv({ CONTACTS_CONFIG_DIR: 'rel/dir' })).toBe(path.resolve('rel/dir'));
    expect(configDirFromEnv({ CONTACTS_CONFIG_DIR: '  ' })).toBeUndefined();
    expect(configDirFromEnv({})).toBeUndefined();
  });

  it('creates the directory 0700 but no file until something is written', () => {
    expect(mode(tmp.dir)).toBe(0o700);
    expect(() => statSync(store.path)).toThrow(/ENOENT/);
    expect(store.profiles()).toEqual([]);
  });
});

describe('permissions', () => {
  it('writes the file 0600 in a 0700 directory', async () => {
    await store.setApiKey('default', 'bk_secret_value_1234');
    expect(mode(store.path)).toBe(0o600);
    expect(mode(tmp.dir)).toBe(0o700);
  });

  it('tightens a file and directory that someone else left open', async () => {
    const other = path.join(tmp.root, 'loose');
    mkdirSync(other, { mode: 0o755 });
    chmodSync(other, 0o755);
    writeFileSync(path.join(other, 'config.json'), '{"version":1,"profiles":{}}', { mode: 0o644 });
    chmodSync(path.join(other, 'config.json'), 0o644);
    const loose = await openConfigStore({ env: { CONTACTS_CONFIG_DIR: other } });
    await loose.set('default', 'agent', 'a1');
    expect(mode(loose.path)).toBe(0o600);
    expect(mode(other)).toBe(0o700);
  });
});

describe('settings', () => {
  it('sets, gets, lists and unsets per profile, in the documented shape', async () => {
    expect(await store.set('default', 'base-url', 'https://api.example.test/')).toBe(
      'https://api.example.test',
    );
    await store.set('default', 'agent', ' agent-1 ');
    await store.set('work', 'output', 'CSV');
    expect(store.get('default', 'base-url')).toBe('https://api.example.test');
    expect(store.get('default', 'agent')).toBe('agent-1');
    expect(store.list('work')).toEqual({ output: 'csv' });
    expect(store.profiles().sort()).toEqual(['default', 'work']);

    const file = JSON.parse(readFileSync(store.path, 'utf8'));
    expect(file).toEqual({
      version: 1,
      profiles: {
        default: { base_url: 'https://api.example.test', agent: 'agent-1' },
        work: { output: 'csv' },
      },
    });

    expect(await store.unset('default', 'agent')).toBe(true);
    expect(await store.unset('default', 'agent')).toBe(false);
    expect(store.get('default', 'agent')).toBeUndefined();
  });

  it('drops a profile once its last setting is gone', async () => {
    await store.set('tmp', 'agent', 'x');
    await store.unset('tmp', 'agent');
    expect(store.profiles()).toEqual([]);
  });

  it('keeps profile names with dots whole', async () => {
    await store.set('prod.eu', 'agent', 'eu-agent');
    expect(store.get('prod.eu', 'agent')).toBe('eu-agent');
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles['prod.eu']).toEqual({ agent: 'eu-agent' });
  });

  it.each([
    ['base-url', 'ftp://example.com'],
    ['base-url', 'not a url'],
    ['base-url', 'https://user:pw@example.com'],
    ['base-url', 'https://example.com/?x=1'],
    ['output', 'yaml'],
    ['agent', '   '],
  ] as const)('rejects %s=%s with a usage error and writes nothing', async (key, value) => {
    await expect(store.set('default', key, value)).rejects.toThrow(ConfigError);
    expect(() => statSync(store.path)).toThrow(/ENOENT/);
  });

  it('rejects unsafe profile names', async () => {
    await expect(store.set('__proto__', 'agent', 'x')).rejects.toThrow(ConfigError);
    await expect(store.set('-x', 'agent', 'x')).rejects.toThrow(ConfigError);
  });

  it('never lists the key with the settings', async () => {
    await store.setApiKey('default', 'bk_secret_value_1234');
    await store.set('default', 'agent', 'a');
    expect(store.list('default')).toEqual({ agent: 'a' });
  });
});

describe('api key', () => {
  it('stores, reads and deletes the key per profile', async () => {
    await store.setApiKey('default', ' bk_secret_value_1234\n');
    await store.setApiKey('other', 'bk_other_key_5678');
    expect(store.getApiKey('default')).toBe('bk_secret_value_1234');
    expect(store.getApiKey('other')).toBe('bk_other_key_5678');
    expect(await store.deleteApiKey('default')).toBe(true);
    expect(await store.deleteApiKey('default')).toBe(false);
    expect(store.getApiKey('default')).toBeUndefined();
    expect(store.getApiKey('other')).toBe('bk_other_key_5678');
  });

  it('refuses a key without the bk_ prefix, without echoing it', async () => {
    let error: unknown;
    try {
      await store.setApiKey('default', 'sk_live_abcdefgh');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('sk_live_abcdefgh');
    await expect(store.setApiKey('default', 'bk_')).rejects.toThrow(ConfigError);
  });

  it('is seen by a second store on the same directory', async () => {
    await store.setApiKey('default', 'bk_secret_value_1234');
    const again = await openConfigStore({ env: tmp.env });
    expect(again.getApiKey('default')).toBe('bk_secret_value_1234');
  });
});

describe('a broken file', () => {
  it('is reported with its path, not silently cleared', async () => {
    mkdirSync(tmp.dir, { recursive: true });
    writeFileSync(store.path, '{"profiles": ');
    let error: unknown;
    try {
      await openConfigStore({ env: tmp.env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(toExit(error).code).toBe(ExitCode.USAGE);
    expect((error as Error).message).toContain(store.path);
    expect(readFileSync(store.path, 'utf8')).toBe('{"profiles": ');
  });

  it('is reported when its shape is wrong', () => {
    writeFileSync(store.path, JSON.stringify({ version: 1, profiles: { default: { agent: 42 } } }));
    expect(() => store.getProfile('default')).toThrow(/profiles\.default\.agent is not a string/);
    writeFileSync(store.path, JSON.stringify({ version: 2, profiles: {} }));
    expect(() => store.getProfile('default')).toThrow(/unsupported version 2/);
  });
});

describe('openConfigReader (reads without loading conf)', () => {
  it('sees what the store wrote, at the same path', async () => {
    await store.set('work', 'agent', 'a-7');
    await store.setApiKey('work', 'bk_reader_test_1234');
    const reader = await openConfigReader({ env: tmp.env });
    expect(reader.path).toBe(store.path);
    expect(reader.getProfile('work')).toEqual({ agent: 'a-7', api_key: 'bk_reader_test_1234' });
    expect(reader.getProfile('default')).toEqual({});
  });

  it('treats a missing file as no profiles, and finds the default path as conf does', async () => {
    const reader = await openConfigReader({ env: tmp.env });
    expect(reader.getProfile('default')).toEqual({});
    // env-paths reads XDG_CONFIG_HOME from the process, so the expectation does too.
    expect(await configFilePath({})).toBe(path.join(realConfigDir(), 'config.json'));
  });

  it('reports a broken file with its path, as the store does', async () => {
    mkdirSync(tmp.dir, { recursive: true });
    writeFileSync(path.join(tmp.dir, 'config.json'), '{"profiles": [');
    await expect(openConfigReader({ env: tmp.env })).rejects.toThrow(path.join(tmp.dir, 'config.json'));
    writeFileSync(path.join(tmp.dir, 'config.json'), '{"profiles": {"default": {"agent": 7}}}');
    await expect(openConfigReader({ env: tmp.env })).rejects.toThrow(
      /profiles\.default\.agent is not a string/,
    );
  });
});

describe('changes from several places at once', () => {
  it('each change reads the file again, so a store opened earlier writes over nothing', async () => {
    const first = await openConfigStore({ env: tmp.env });
    const second = await openConfigStore({ env: tmp.env });
    await first.set('default', 'agent', 'a1');
    await second.setApiKey('default', 'bk_second_store_1234');
    await first.set('work', 'output', 'csv');
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles).toEqual({
      default: { agent: 'a1', api_key: 'bk_second_store_1234' },
      work: { output: 'csv' },
    });
  });

  it('leaves no lock behind, after a change or a failed one', async () => {
    await store.set('default', 'agent', 'a1');
    await store.setApiKey('default', 'bk_lock_test_1234');
    await store.unset('default', 'agent');
    await store.deleteApiKey('default');
    await expect(store.set('default', 'output', 'yaml')).rejects.toThrow(ConfigError);
    expect(readdirSync(tmp.dir).filter((f) => f !== 'config.json')).toEqual([]);
  });

  it('changes the file past a lock left by a process that is gone', async () => {
    const gone = await openConfigStore({ env: tmp.env, lock: { isAlive: () => false } });
    mkdirSync(tmp.dir, { recursive: true });
    writeFileSync(
      `${store.path}.lock`,
      JSON.stringify({ pid: 999_999, host: hostname(), token: 't', since: '2024-01-01T00:00:00.000Z' }),
    );
    await gone.set('default', 'agent', 'after-a-crash');
    expect(store.get('default', 'agent')).toBe('after-a-crash');
    expect(existsSync(`${store.path}.lock`)).toBe(false);
  });

  it('gives up on a lock another process keeps, writing nothing', async () => {
    let t = 0;
    const waiting = await openConfigStore({
      env: tmp.env,
      lock: {
        timeoutMs: 500,
        now: () => t,
        sleep: async (ms) => {
          t += ms;
        },
      },
    });
    await store.set('default', 'agent', 'before');
    writeFileSync(
      `${store.path}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), token: 't', since: '2024-01-01T00:00:00.000Z' }),
    );
    const error = await waiting.setApiKey('default', 'bk_waited_key_1234').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('The config file is locked by another change');
    expect(toExit(error).code).toBe(ExitCode.USAGE);
    expect(store.getProfile('default')).toEqual({ agent: 'before' });
  });

  it('real CLI processes racing: auth login and config set of other keys all land', async () => {
    const home = await tempHome();
    try {
      const env = { ...home.env, CONTACTS_CONFIG_DIR: path.join(home.dir, 'config') };
      const key = 'bk_raced_login_key_1234';
      const sets: [string, string, string][] = [
        ['default', 'agent', 'agent-d'],
        ['default', 'output', 'csv'],
        ['default', 'default-country', 'GB'],
        ['default', 'time-zone', 'Europe/Paris'],
        ['default', 'max-retries', '4'],
        ['work', 'agent', 'agent-w'],
        ['ops', 'timeout', '45'],
      ];
      const runs = await Promise.all([
        // The key from stdin, never argv.
        runBin(['auth', 'login', '--with-key'], { env, stdin: `${key}\n`, cwd: home.dir }),
        ...sets.map(([profile, name, value]) =>
          runBin(['--profile', profile, 'config', 'set', name, value], { env, cwd: home.dir }),
        ),
      ]);
      for (const r of runs) expect(r, r.stderr).toMatchObject({ code: 0 });
      const reader = await openConfigReader({ env });
      expect(reader.getProfile('default').api_key).toBe(key);
      for (const [profile, name, value] of sets) {
        const stored = reader.getProfile(profile) as Record<string, string>;
        expect(stored[name.replace(/-/g, '_')], `${profile} ${name}`).toBe(value);
      }
      expect(readdirSync(env.CONTACTS_CONFIG_DIR)).toEqual(['config.json']);
      expect(mode(reader.path)).toBe(0o600);
      expect(mode(env.CONTACTS_CONFIG_DIR)).toBe(0o700);
    } finally {
      await home.cleanup();
    }
  });
});
