// Settings in force for one run: each one from a flag, else the environment, else the profile,
// else its default, with where it came from so `auth status` and errors can say so.
import { apiKeyProblem } from '../api/key.js';
import { ConfigError } from './errors.js';
import {
  API_KEY_PREFIX,
  DEFAULT_PROFILE,
  type OutputFormat,
  parseDuration,
  validateAgent,
  validateBaseUrl,
  validateCountry,
  validateOutput,
  validateProfileName,
  validateRetries,
} from './settings.js';
import type { ProfileSource } from './store.js';

export const ENV = {
  apiKey: 'CONTACTS_API_KEY',
  baseUrl: 'CONTACTS_BASE_URL',
  agent: 'CONTACTS_AGENT',
  profile: 'CONTACTS_PROFILE',
  defaultCountry: 'CONTACTS_DEFAULT_COUNTRY',
  maxRetries: 'CONTACTS_MAX_RETRIES',
  timeout: 'CONTACTS_TIMEOUT',
  insecureHttp: 'CONTACTS_INSECURE_HTTP',
} as const;

export type SettingSource = 'flag' | 'env' | 'profile';

export interface SettingsFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  agent?: string | undefined;
  output?: string | undefined;
  defaultCountry?: string | undefined;
  maxRetries?: string | undefined;
  timeout?: string | undefined;
  /** `--insecure-http`: an http:// base URL may name another machine. */
  insecureHttp?: boolean | undefined;
}

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

export interface ResolvedSettings {
  profile: string;
  profileSource: 'flag' | 'env' | 'default';
  /** Undefined when no flag, variable or profile sets one: there is no default service. */
  baseUrl: string | undefined;
  baseUrlSource: SettingSource | 'none';
  apiKey: string | undefined;
  /** `env`: CONTACTS_API_KEY; `file`: the profile in `configPath`. Keys never come from flags. */
  apiKeySource: 'env' | 'file' | 'none';
  configPath: string;
  agent: string | undefined;
  agentSource: SettingSource | 'none';
  /** The format asked for, if any; `chooseFormat` falls back on the terminal. */
  output: OutputFormat | undefined;
  outputSource: 'flag' | 'profile' | 'none';
  /** Country for national phone numbers (`--default-country`, env, profile), if any. */
  defaultCountry: string | undefined;
  /** Retries per request, when set (`--max-retries`, env, profile); else the command's default. */
  maxRetries: number | undefined;
  /** Per-attempt timeout in milliseconds, when set (`--timeout`, env, profile). */
  timeoutMs: number | undefined;
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
  const envProfile = present(env[ENV.profile]);
  const profile = flagProfile
    ? validateProfileName(flagProfile, '--profile')
    : envProfile
      ? validateProfileName(envProfile, ENV.profile)
      : DEFAULT_PROFILE;
  const profileSource = flagProfile ? 'flag' : envProfile ? 'env' : 'default';
  if (requireExistingProfile && profile !== DEFAULT_PROFILE) {
    const known = store.profiles();
    if (!known.includes(profile)) {
      const from = profileSource === 'flag' ? '--profile' : ENV.profile;
      throw new ConfigError('invalid', `No profile "${profile}" (from ${from}) in ${store.path}`, {
        hint:
          (known.length > 0 ? `Profiles: ${known.join(', ')}. ` : 'There are no profiles yet. ') +
          `To create it: \`contacts --profile ${profile} auth login\` or \`contacts --profile ${profile} config set base-url <url>\`.`,
      });
    }
  }
  const stored = store.getProfile(profile);
  const inFile = `profile "${profile}" in ${store.path}`;

  const baseUrl = pick<string>([
    ['flag', flags.baseUrl, (v) => validateBaseUrl(v, '--base-url')],
    ['env', env[ENV.baseUrl], (v) => validateBaseUrl(v, ENV.baseUrl)],
    ['profile', stored.base_url, (v) => validateBaseUrl(v, inFile)],
  ]);

  const agent = pick<string>([
    ['flag', flags.agent, (v) => validateAgent(v, '--agent')],
    ['env', env[ENV.agent], (v) => validateAgent(v, ENV.agent)],
    ['profile', stored.agent, (v) => validateAgent(v, inFile)],
  ]);

  const output = pick<OutputFormat>([
    ['flag', flags.output, (v) => validateOutput(v, '--output')],
    ['profile', stored.output, (v) => validateOutput(v, inFile)],
  ]);

  const defaultCountry = pick<string>([
    ['flag', flags.defaultCountry, (v) => validateCountry(v, '--default-country')],
    ['env', env[ENV.defaultCountry], (v) => validateCountry(v, ENV.defaultCountry)],
    ['profile', stored.default_country, (v) => validateCountry(v, inFile)],
  ]);

  const maxRetries = pick<number>([
    ['flag', flags.maxRetries, (v) => Number(validateRetries(v, '--max-retries'))],
    ['env', env[ENV.maxRetries], (v) => Number(validateRetries(v, ENV.maxRetries))],
    ['profile', stored.max_retries, (v) => Number(validateRetries(v, inFile))],
  ]);
  const timeoutMs = pick<number>([
    ['flag', flags.timeout, (v) => parseDuration(v, '--timeout')],
    ['env', env[ENV.timeout], (v) => parseDuration(v, ENV.timeout)],
    ['profile', stored.timeout, (v) => parseDuration(v, inFile)],
  ]);

  const envKey = present(env[ENV.apiKey]);
  const fileKey = present(stored.api_key);

  return {
    profile,
    profileSource,
    baseUrl: baseUrl?.value,
    baseUrlSource: baseUrl?.source ?? 'none',
    apiKey: envKey ?? fileKey,
    apiKeySource: envKey ? 'env' : fileKey ? 'file' : 'none',
    configPath: store.path,
    agent: agent?.value,
    agentSource: agent?.source ?? 'none',
    output: output?.value,
    outputSource: output ? (output.source as 'flag' | 'profile') : 'none',
    defaultCountry: defaultCountry?.value,
    maxRetries: maxRetries?.value,
    timeoutMs: timeoutMs?.value,
    warnings: store.warnings ?? [],
    insecureHttp: flags.insecureHttp === true || /^(1|true|yes)$/i.test(env[ENV.insecureHttp]?.trim() ?? ''),
  };
}

/** The agent id, or a usage error that says the three ways to give one. */
export function requireAgent(settings: Pick<ResolvedSettings, 'agent' | 'profile'>): string {
  if (settings.agent) return settings.agent;
  throw new ConfigError('missing', 'No agent selected', {
    hint: `Pass --agent <id>, set ${ENV.agent}, or run \`contacts${profileFlag(settings.profile)} config set agent <id>\`.`,
  });
}

/** The base URL, or an error that says plainly none is set and the three ways to set one. */
export function requireBaseUrl(
  settings: Pick<ResolvedSettings, 'baseUrl' | 'profile'> & Partial<Pick<ResolvedSettings, 'insecureHttp'>>,
): string {
  if (settings.baseUrl) {
    const url = new URL(settings.baseUrl);
    if (url.protocol === 'http:' && !isLoopback(url.hostname) && !settings.insecureHttp) {
      throw new ConfigError(
        'invalid',
        `Refusing to send the API key unencrypted to ${url.host}: the base URL is http://, and ${url.hostname} is not this machine`,
        {
          hint: `Use https://, or pass --insecure-http (or set ${ENV.insecureHttp}=1) if you mean it, e.g. on a network you trust.`,
        },
      );
    }
    return settings.baseUrl;
  }
  throw new ConfigError(
    'missing',
    `No base URL set${settings.profile === DEFAULT_PROFILE ? '' : ` for profile "${settings.profile}"`}: which Contacts API should this talk to?`,
    {
      hint: `Run \`contacts${profileFlag(settings.profile)} config set base-url https://...\`, set ${ENV.baseUrl}, or pass --base-url.`,
    },
  );
}

/** This machine, whose loopback traffic never crosses a network (RFC 6761 `.localhost` too). */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** The API key, or a credentials error that says how to log in. */
export function requireApiKey(
  settings: Pick<ResolvedSettings, 'apiKey' | 'apiKeySource' | 'profile' | 'configPath'>,
): string {
  const { apiKey, apiKeySource } = settings;
  if (!apiKey) {
    throw new ConfigError('credentials', `No API key for profile "${settings.profile}"`, {
      hint: `Run \`contacts${profileFlag(settings.profile)} auth login\`, or set ${ENV.apiKey}.`,
    });
  }
  const problem = apiKeyProblem(apiKey);
  if (problem !== null) {
    const where =
      apiKeySource === 'env' ? ENV.apiKey : `profile "${settings.profile}" in ${settings.configPath}`;
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

type Candidate<T> = [source: SettingSource, raw: string | undefined, check: (raw: string) => T];

/** The first source with a value, checked; an invalid value is an error, never skipped. */
function pick<T>(candidates: Candidate<T>[]): { value: T; source: SettingSource } | undefined {
  for (const [source, raw, check] of candidates) {
    const value = present(raw);
    if (value !== undefined) return { value: check(value), source };
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
