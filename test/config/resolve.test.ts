import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { toExit } from '../../src/cli/exit.js';
import { ConfigError } from '../../src/config/errors.js';
import {
  type ResolvedSettings,
  requireAgent,
  requireApiKey,
  requireBaseUrl,
  resolveSettings,
  type SettingsFlags,
} from '../../src/config/resolve.js';
import type { ProfileConfig } from '../../src/config/settings.js';
import { openConfigStore, type ProfileSource } from '../../src/config/store.js';
import { tempConfigDir } from '../helpers/temp-config-dir.js';

const CONFIG_PATH = '/nowhere/contacts/config.json';

function fakeStore(profiles: Record<string, ProfileConfig>): ProfileSource {
  return {
    path: CONFIG_PATH,
    getProfile: (name) => ({ ...profiles[name] }),
    profiles: () => Object.keys(profiles),
  };
}

function resolve(
  flags: SettingsFlags = {},
  env: NodeJS.ProcessEnv = {},
  profiles: Record<string, ProfileConfig> = {},
  requireExistingProfile = false,
): ResolvedSettings {
  return resolveSettings({ flags, env, store: fakeStore(profiles), requireExistingProfile });
}

/** The exit code the CLI's one map gives an error. */
const exitOf = (error: unknown) => toExit(error).code;

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('defaults', () => {
  it('uses the default profile, and has no base URL, agent, key or output', () => {
    expect(resolve()).toEqual({
      profile: 'default',
      profileSource: 'default',
      baseUrl: undefined,
      baseUrlSource: 'none',
      apiKey: undefined,
      apiKeySource: 'none',
      configPath: CONFIG_PATH,
      agent: undefined,
      agentSource: 'none',
      output: undefined,
      outputSource: 'none',
      defaultCountry: undefined,
      maxRetries: undefined,
      timeout: undefined,
      defaultCountrySource: 'none',
      timeZone: undefined,
      timeZoneSource: 'none',
      maxRetriesSource: 'none',
      timeoutSource: 'none',
      apiKeyFile: undefined,
      apiKeyError: undefined,
      warnings: [],
      insecureHttp: false,
    } satisfies ResolvedSettings);
  });
});

describe('precedence: flag > env > profile > default', () => {
  const FLAG = 'https://flag.example.test';
  const ENV = 'https://env.example.test';
  const PROFILE = 'https://profile.example.test';
  // Every combination of the three sources being present.
  const cases = [
    [false, false, false, undefined, 'none'],
    [false, false, true, PROFILE, 'profile'],
    [false, true, false, ENV, 'env'],
    [false, true, true, ENV, 'env'],
    [true, false, false, FLAG, 'flag'],
    [true, false, true, FLAG, 'flag'],
    [true, true, false, FLAG, 'flag'],
    [true, true, true, FLAG, 'flag'],
  ] as const;

  it.each(cases)('base URL with flag=%s env=%s profile=%s -> %s', (flag, env, profile, url, source) => {
    const s = resolve(
      flag ? { baseUrl: FLAG } : {},
      env ? { CONTACTS_BASE_URL: ENV } : {},
      profile ? { default: { base_url: PROFILE } } : {},
    );
    expect(s.baseUrl).toBe(url);
    expect(s.baseUrlSource).toBe(source);
  });

  it.each(cases)('agent with flag=%s env=%s profile=%s', (flag, env, profile, _url, source) => {
    const s = resolve(
      flag ? { agent: 'flag-agent' } : {},
      env ? { CONTACTS_AGENT: 'env-agent' } : {},
      profile ? { default: { agent: 'profile-agent' } } : {},
    );
    const expected = { flag: 'flag-agent', env: 'env-agent', profile: 'profile-agent', none: undefined }[
      source
    ];
    expect(s.agent).toBe(expected);
    expect(s.agentSource).toBe(source);
  });

  it('output: flag over profile; there is no env variable for it', () => {
    expect(resolve({ output: 'csv' }, {}, { default: { output: 'ndjson' } })).toMatchObject({
      output: 'csv',
      outputSource: 'flag',
    });
    expect(resolve({}, { CONTACTS_OUTPUT: 'csv' }, { default: { output: 'ndjson' } })).toMatchObject({
      output: 'ndjson',
      outputSource: 'profile',
    });
  });

  it('treats blank env values as unset', () => {
    const s = resolve(
      {},
      { CONTACTS_BASE_URL: '', CONTACTS_AGENT: '  ', CONTACTS_API_KEY: '' },
      {
        default: { base_url: 'https://p.example.test', agent: 'p', api_key: 'bk_from_file_1234' },
      },
    );
    expect(s).toMatchObject({
      baseUrl: 'https://p.example.test',
      agent: 'p',
      apiKey: 'bk_from_file_1234',
      apiKeySource: 'file',
    });
  });
});

describe('profile selection', () => {
  const profiles = {
    default: { agent: 'default-agent' },
    work: { agent: 'work-agent' },
    ci: { agent: 'ci-agent' },
  };

  it('CONTACTS_PROFILE picks the profile when there is no --profile', () => {
    expect(resolve({}, { CONTACTS_PROFILE: 'work' }, profiles)).toMatchObject({
      profile: 'work',
      profileSource: 'env',
      agent: 'work-agent',
    });
  });

  it('--profile beats CONTACTS_PROFILE', () => {
    expect(resolve({ profile: 'ci' }, { CONTACTS_PROFILE: 'work' }, profiles)).toMatchObject({
      profile: 'ci',
      profileSource: 'flag',
      agent: 'ci-agent',
    });
  });

  it('an unknown profile is empty for the commands that create one', () => {
    expect(resolve({ profile: 'nope' }, {}, profiles)).toMatchObject({ profile: 'nope', agent: undefined });
  });

  it('an unknown profile is an error elsewhere, naming the profiles there are', () => {
    const error = thrown(() => resolve({ profile: 'nope' }, {}, profiles, true)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(exitOf(error)).toBe(ExitCode.USAGE);
    expect(error.message).toBe(`No profile "nope" (from --profile) in ${CONFIG_PATH}`);
    expect(error.hint).toContain(`Profiles: ${Object.keys(profiles).join(', ')}.`);
    expect(error.hint).toContain('`contacts --profile nope auth login`');
    // The default profile needs no entry in the file.
    expect(resolve({}, {}, {}, true).profile).toBe('default');
  });

  it('rejects a malformed profile name, naming its source', () => {
    const error = thrown(() => resolve({}, { CONTACTS_PROFILE: '../etc' }, profiles));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('CONTACTS_PROFILE');
  });
});

describe('api key', () => {
  it('comes from the env before the file', () => {
    const s = resolve(
      {},
      { CONTACTS_API_KEY: 'bk_from_env_1234' },
      { default: { api_key: 'bk_from_file_1234' } },
    );
    expect(s).toMatchObject({ apiKey: 'bk_from_env_1234', apiKeySource: 'env' });
  });

  it('comes from the selected profile in the file', () => {
    const s = resolve(
      { profile: 'work' },
      {},
      { default: { api_key: 'bk_a_1234' }, work: { api_key: 'bk_b_5678' } },
    );
    expect(s).toMatchObject({ apiKey: 'bk_b_5678', apiKeySource: 'file', configPath: CONFIG_PATH });
  });

  it('is trimmed when it comes from the env', () => {
    expect(resolve({}, { CONTACTS_API_KEY: ' bk_padded_1234\n' }).apiKey).toBe('bk_padded_1234');
  });
});

describe('invalid values are errors naming their source, never skipped', () => {
  it.each([
    [{ baseUrl: 'ftp://x' }, {}, {}, '--base-url'],
    [{}, { CONTACTS_BASE_URL: 'nope' }, {}, 'CONTACTS_BASE_URL'],
    [{}, {}, { default: { base_url: 'nope' } }, CONFIG_PATH],
    [{ output: 'yaml' }, {}, {}, '--output'],
    [{}, {}, { default: { output: 'xml' as never } }, CONFIG_PATH],
  ] as const)('%j %j %j', (flags, env, profiles, source) => {
    const error = thrown(() => resolve(flags, env, profiles));
    expect(error).toBeInstanceOf(ConfigError);
    expect(exitOf(error)).toBe(ExitCode.USAGE);
    expect((error as Error).message).toContain(source);
  });
});

describe('requireAgent', () => {
  it('returns the agent', () => {
    expect(requireAgent(resolve({ agent: 'a1' }))).toBe('a1');
  });

  it('says the three ways to set one', () => {
    const error = thrown(() => requireAgent(resolve())) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(exitOf(error)).toBe(ExitCode.USAGE);
    expect(error.hint).toContain('--agent');
    expect(error.hint).toContain('CONTACTS_AGENT');
    expect(error.hint).toContain('contacts config set agent <id>');
  });

  it('names a non-default profile in the hint', () => {
    const error = thrown(() => requireAgent(resolve({ profile: 'work' }))) as ConfigError;
    expect(error.hint).toContain('`contacts --profile work config set agent <id>`');
  });
});

describe('requireBaseUrl', () => {
  it('returns the base URL', () => {
    expect(requireBaseUrl(resolve({ baseUrl: 'https://x.test' }))).toBe('https://x.test');
  });

  it('refuses http:// to another machine unless --insecure-http or CONTACTS_INSECURE_HTTP says so', () => {
    const error = thrown(() => requireBaseUrl(resolve({ baseUrl: 'http://x.test:8080' }))) as ConfigError;
    expect(exitOf(error)).toBe(ExitCode.USAGE);
    expect(error.message).toBe(
      'Refusing to send the API key unencrypted to x.test:8080: the base URL is http://, and x.test is not this machine',
    );
    expect(error.hint).toContain('--insecure-http');
    expect(error.hint).toContain('CONTACTS_INSECURE_HTTP=1');
    expect(requireBaseUrl(resolve({ baseUrl: 'http://x.test', insecureHttp: true }))).toBe('http://x.test');
    expect(requireBaseUrl(resolve({ baseUrl: 'http://x.test' }, { CONTACTS_INSECURE_HTTP: '1' }))).toBe(
      'http://x.test',
    );
    for (const local of [
      'http://localhost:3000',
      'http://127.0.0.1:9',
      'http://[::1]:9',
      'http://127.1.2.3',
      'http://[::ffff:7f00:1]:9',
    ]) {
      expect(requireBaseUrl(resolve({ baseUrl: local }))).toBe(local);
    }
    // Only a browser promises that *.localhost is this machine; a resolver may send it anywhere,
    // and getaddrinfo asks DNS for the fully qualified `localhost.`.
    for (const remote of [
      'http://foo.localhost',
      'http://localhost.:4010',
      'http://localhost.example',
      'http://127.0.0.1.nip.io',
    ]) {
      expect(() => requireBaseUrl(resolve({ baseUrl: remote }))).toThrow(/is not this machine/);
    }
  });

  it('says plainly that none is set, and how to set one, inside the command it suggests', () => {
    const error = thrown(() => requireBaseUrl(resolve({ profile: 'work' }))) as ConfigError;
    expect(exitOf(error)).toBe(ExitCode.USAGE);
    expect(error.message).toMatch(/^No base URL set for profile "work"/);
    expect(error.hint).toContain('`contacts --profile work config set base-url https://...`');
    expect(error.hint).toContain('CONTACTS_BASE_URL');
  });
});

describe('requireApiKey', () => {
  it('returns the key', () => {
    expect(requireApiKey(resolve({}, { CONTACTS_API_KEY: 'bk_ok_key_1234' }))).toBe('bk_ok_key_1234');
  });

  it('says how to log in when there is none', () => {
    const error = thrown(() => requireApiKey(resolve())) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(exitOf(error)).toBe(ExitCode.AUTH);
    expect(error.hint).toContain('contacts auth login');
    expect(error.hint).toContain('CONTACTS_API_KEY');
  });

  it('rejects a key that is not a bk_ key without printing it', () => {
    const error = thrown(() =>
      requireApiKey(resolve({}, { CONTACTS_API_KEY: 'sk_live_secret_999' })),
    ) as ConfigError;
    expect(exitOf(error)).toBe(ExitCode.AUTH);
    expect(error.message).toContain('CONTACTS_API_KEY');
    expect(`${error.message} ${error.hint}`).not.toContain('sk_live_secret_999');
  });
});

describe('with the real store', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(() => cleanup?.());

  it('reads what the store wrote, reporting the file as the key source', async () => {
    const tmp = await tempConfigDir();
    cleanup = tmp.cleanup;
    const store = await openConfigStore({ env: tmp.env });
    await store.set('work', 'base-url', 'http://127.0.0.1:4010');
    await store.set('work', 'agent', 'agent-w');
    await store.setApiKey('work', 'bk_stored_key_9876');
    const s = resolveSettings({ flags: {}, env: { ...tmp.env, CONTACTS_PROFILE: 'work' }, store });
    expect(s).toMatchObject({
      profile: 'work',
      baseUrl: 'http://127.0.0.1:4010',
      baseUrlSource: 'profile',
      agent: 'agent-w',
      apiKey: 'bk_stored_key_9876',
      apiKeySource: 'file',
      configPath: store.path,
    });
  });
});
