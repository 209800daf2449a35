// Settings in force for one run: each one from a flag, else the environment, else the profile,
// else its default, with where it came from so `auth status` and errors can say so.
import fs from 'node:fs';
import { apiKeyProblem } from '../api/key.js';
import { isLoopbackHost } from '../core/loopback.js';
import { ConfigError } from './errors.js';
import {
  API_KEY_ENV,
  API_KEY_FILE_ENV,
  API_KEY_PREFIX,
  type Camel,
  camel,
  DEFAULT_PROFILE,
  envSwitch,
  INSECURE_HTTP_ENV,
  PROFILE_ENV,
  SETTING_NAMES,
  SETTINGS,
  type SettingKey,
  type SettingSpec,
  type SettingValue,
  validateProfileName,
} from './settings.js';
import type { ProfileSource } from './store.js';

export type SettingSource = 'flag' | 'env' | 'profile';

/** The flags a command was given, by commander's names (`--base-url` is `baseUrl`). */
export type SettingsFlags = { [K in SettingKey as Camel<K>]?: string | undefined } & {
  profile?: string | undefined;
  /** `--insecure-http`: an http:// base URL may name another machine. */
  insecureHttp?: boolean | undefined;
};

/** Each setting's value in force (`timeout` in milliseconds), undefined when nothing sets it. */
export type SettingValues = { [K in SettingKey as Camel<K>]: SettingValue<K> | undefined };
/** Where each value came from. */
export type SettingSources = { [K in SettingKey as `${Camel<K>}Source`]: SettingSource | 'none' };

export interface ResolveSettingsOptions {
  flags: SettingsFlags;
  env: NodeJS.ProcessEnv;
  store: ProfileSource;
  /**
   * Refuse a profile named by --profile or CONTACTS_PROFILE that the file does not hold (a typo
   * would otherwise run with no settings at all). Off for the commands that create profiles.
   */
  requireExistingProfile?: boolean;
}

/**
 * Where the key comes from, first that is set wins: `env` CONTACTS_API_KEY, `key-file` the file
 * CONTACTS_API_KEY_FILE names, `file` the profile in `configPath`. Never from a flag (argv is
 * visible to every user of the machine).
 */
export type ApiKeySource = 'env' | 'key-file' | 'file' | 'none';

export interface ResolvedSettings extends SettingValues, SettingSources {
  profile: string;
  profileSource: 'flag' | 'env' | 'default';
  apiKey: string | undefined;
  apiKeySource: ApiKeySource;
  /** The file CONTACTS_API_KEY_FILE names, when it is the key's source. */
  apiKeyFile: string | undefined;
  /** Why the key file cannot be used: thrown by `requireApiKey`, so commands needing no key still run. */
  apiKeyError: ConfigError | undefined;
  configPath: string;
  /** What the store found wrong without failing (e.g. a key in a file others can read). */
  warnings: readonly string[];
  /** The key may cross the network unencrypted (`--insecure-http`, CONTACTS_INSECURE_HTTP=1). */
  insecureHttp: boolean;
}

export function resolveSettings({
  flags,
  env,
  store,
  requireExistingProfile = false,
}: ResolveSettingsOptions): ResolvedSettings {
  const flagProfile = present(flags.profile);
  const envProfile = present(env[PROFILE_ENV]);
  const profile = flagProfile
    ? validateProfileName(flagProfile, '--profile')
    : envProfile
      ? validateProfileName(envProfile, PROFILE_ENV)
      : DEFAULT_PROFILE;
  const profileSource = flagProfile ? 'flag' : envProfile ? 'env' : 'default';
  if (requireExistingProfile && profile !== DEFAULT_PROFILE) {
    const profiles = store.profiles();
    if (!profiles.includes(profile)) {
      const from = profileSource === 'flag' ? '--profile' : PROFILE_ENV;
      throw new ConfigError('invalid', `No profile "${profile}" (from ${from}) in ${store.path}`, {
        hint:
          (profiles.length > 0 ? `Profiles: ${profiles.join(', ')}. ` : 'There are no profiles yet. ') +
          `To create it: \`contacts --profile ${profile} auth login\` or \`contacts --profile ${profile} config set base-url <url>\`.`,
      });
    }
  }
  const stored = store.getProfile(profile) as Record<string, string | undefined>;
  const inFile = `profile "${profile}" in ${store.path}`;

  const resolved: Record<string, unknown> = {};
  for (const key of SETTING_NAMES) {
    const spec: SettingSpec<unknown> = SETTINGS[key];
    const found = pick([
      ['flag', flags[camel(key)], `--${key}`],
      ['env', spec.env === undefined ? undefined : env[spec.env], spec.env ?? ''],
      ['profile', stored[spec.file], inFile],
    ]);
    resolved[camel(key)] = found === undefined ? undefined : spec.parse(found.raw, found.from);
    resolved[`${camel(key)}Source`] = found?.source ?? 'none';
  }

  const envKey = present(env[API_KEY_ENV]);
  const keyFile = envKey ? undefined : present(env[API_KEY_FILE_ENV]);
  const fileKey = present(stored.api_key);
  let apiKey: string | undefined;
  let apiKeyError: ConfigError | undefined;
  if (keyFile) {
    try {
      apiKey = readKeyFile(keyFile);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      apiKeyError = error;
    }
  }

  return {
    ...(resolved as unknown as SettingValues & SettingSources),
    profile,
    profileSource,
    apiKey: envKey ?? (keyFile ? apiKey : fileKey),
    apiKeySource: envKey ? 'env' : keyFile ? 'key-file' : fileKey ? 'file' : 'none',
    apiKeyFile: keyFile,
    apiKeyError,
    configPath: store.path,
    warnings: store.warnings ?? [],
    insecureHttp: flags.insecureHttp === true || envSwitch(env, 'insecure-http'),
  };
}

/** Larger than any key: a variable pointing at the wrong file is refused before it is read. */
const KEY_FILE_MAX_BYTES = 64 * 1024;

/**
 * The key in the file CONTACTS_API_KEY_FILE names (a mounted Docker or Kubernetes secret): its
 * first line. As ssh does for private keys, a file others can read is refused on POSIX.
 */
export function readKeyFile(file: string): string {
  const where = `${API_KEY_FILE_ENV} (${file})`;
  let stat: fs.Stats;
  let text: string;
  // One descriptor for the checks and the read: the file checked is the file read, even if the
  // path is swapped in between (a secret volume's symlink updated, say).
  let fd: number | undefined;
  try {
    // Non-blocking: a FIFO named by mistake is refused below instead of waiting for a writer.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new ConfigError('credentials', `${where} is not a file`);
    if (stat.size > KEY_FILE_MAX_BYTES) {
      throw new ConfigError('credentials', `${where} is larger than a key file (${stat.size} bytes)`);
    }
    // At most one byte past the limit: a file that grew since fstat is still refused, not read whole.
    const buffer = Buffer.alloc(KEY_FILE_MAX_BYTES + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) {
      n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > KEY_FILE_MAX_BYTES) {
      throw new ConfigError(
        'credentials',
        `${where} is larger than a key file (over ${KEY_FILE_MAX_BYTES} bytes)`,
      );
    }
    text = buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError('credentials', `Cannot read the key from ${where}: ${reason}`, {
      hint: `Check the path in ${API_KEY_FILE_ENV}, or unset it.`,
      cause: error,
    });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    const mode = `0${(stat.mode & 0o777).toString(8).padStart(3, '0')}`;
    throw new ConfigError(
      'credentials',
      `${where} is accessible by others (mode ${mode}); refusing to use it`,
      {
        hint: `Run \`chmod 600 ${file}\` (in Kubernetes, defaultMode: 0400; in Docker Compose, mode: 0400).`,
      },
    );
  }
  const key = (text.split(/\r?\n/, 1)[0] ?? '').replace(/^\uFEFF/, '').trim();
  if (key === '') throw new ConfigError('credentials', `${where} is empty: its first line should be the key`);
  const problem = apiKeyProblem(key);
  if (problem !== null) {
    throw new ConfigError(
      'credentials',
      `The first line of ${where} is not a valid ${API_KEY_PREFIX} key: ${problem}`,
    );
  }
  return key;
}

/** The agent id, or a usage error that says the three ways to give one. */
export function requireAgent(settings: Pick<ResolvedSettings, 'agent' | 'profile'>): string {
  if (settings.agent) return settings.agent;
  throw new ConfigError('missing', 'No agent selected', {
    hint: `Pass --agent <id>, set ${SETTINGS.agent.env}, or run \`contacts${profileFlag(settings.profile)} config set agent <id>\`.`,
  });
}

/** The base URL, or an error that says plainly none is set and the three ways to set one. */
export function requireBaseUrl(
  settings: Pick<ResolvedSettings, 'baseUrl' | 'profile'> & Partial<Pick<ResolvedSettings, 'insecureHttp'>>,
): string {
  if (settings.baseUrl) {
    const url = new URL(settings.baseUrl);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !settings.insecureHttp) {
      throw new ConfigError(
        'invalid',
        `Refusing to send the API key unencrypted to ${url.host}: the base URL is http://, and ${url.hostname} is not this machine`,
        {
          hint: `Use https://, or pass --insecure-http (or set ${INSECURE_HTTP_ENV}=1) if you mean it, e.g. on a network you trust.`,
        },
      );
    }
    return settings.baseUrl;
  }
  throw new ConfigError(
    'missing',
    `No base URL set${settings.profile === DEFAULT_PROFILE ? '' : ` for profile "${settings.profile}"`}: which Contacts API should this talk to?`,
    {
      hint: `Run \`contacts${profileFlag(settings.profile)} config set base-url https://...\`, set ${SETTINGS['base-url'].env}, or pass --base-url.`,
    },
  );
}

/** The API key, or a credentials error that says how to log in. */
export function requireApiKey(
  settings: Pick<
    ResolvedSettings,
    'apiKey' | 'apiKeySource' | 'apiKeyFile' | 'apiKeyError' | 'profile' | 'configPath'
  >,
): string {
  const { apiKey, apiKeySource } = settings;
  if (settings.apiKeyError) throw settings.apiKeyError;
  if (!apiKey) {
    throw new ConfigError('credentials', `No API key for profile "${settings.profile}"`, {
      hint: `Run \`contacts${profileFlag(settings.profile)} auth login\`, or set ${API_KEY_ENV} or ${API_KEY_FILE_ENV}.`,
    });
  }
  const problem = apiKeyProblem(apiKey);
  if (problem !== null) {
    const where =
      apiKeySource === 'env'
        ? API_KEY_ENV
        : apiKeySource === 'key-file'
          ? `${API_KEY_FILE_ENV} (${settings.apiKeyFile})`
          : `profile "${settings.profile}" in ${settings.configPath}`;
    throw new ConfigError(
      'credentials',
      `The API key from ${where} is not a valid ${API_KEY_PREFIX} key: ${problem}`,
      {
        hint: `Check ${where}, or run \`contacts${profileFlag(settings.profile)} auth login\`.`,
      },
    );
  }
  return apiKey;
}

type Candidate = [source: SettingSource, raw: string | undefined, from: string];

/** The first source with a value; an invalid value is an error there, never skipped. */
function pick(candidates: Candidate[]): { raw: string; source: SettingSource; from: string } | undefined {
  for (const [source, raw, from] of candidates) {
    const value = present(raw);
    if (value !== undefined) return { raw: value, source, from };
  }
  return undefined;
}

/** Trimmed; empty and blank values count as unset, so `CONTACTS_AGENT= contacts ...` clears it. */
function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function profileFlag(profile: string): string {
  return profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`;
}
