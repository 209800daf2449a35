// Settings in force for one run: each one from a flag, else the environment, else the profile,
// else its default, with where it came from so `auth status` and errors can say so.
import { apiKeyProblem } from '../api/key.js';
import { CredentialsError, UsageError } from '../cli/errors.js';
import {
  API_KEY_PREFIX,
  DEFAULT_PROFILE,
  type OutputFormat,
  validateAgent,
  validateBaseUrl,
  validateCountry,
  validateOutput,
  validateProfileName,
} from './settings.js';
import type { ProfileSource } from './store.js';

/**
 * Base URL when none is configured. A placeholder under the reserved `.example` TLD: the real
 * service's address is not known to this project, so a deployment sets `base-url` (or
 * CONTACTS_BASE_URL) and a forgotten setting fails loudly instead of reaching a stranger's host.
 */
export const DEFAULT_BASE_URL = 'https://api.contacts.example';

export const ENV = {
  apiKey: 'CONTACTS_API_KEY',
  baseUrl: 'CONTACTS_BASE_URL',
  agent: 'CONTACTS_AGENT',
  profile: 'CONTACTS_PROFILE',
  defaultCountry: 'CONTACTS_DEFAULT_COUNTRY',
} as const;

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

export interface SettingsFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  agent?: string | undefined;
  output?: string | undefined;
  defaultCountry?: string | undefined;
}

export interface ResolveSettingsOptions {
  flags: SettingsFlags;
  env: NodeJS.ProcessEnv;
  store: ProfileSource;
}

export interface ResolvedSettings {
  profile: string;
  profileSource: 'flag' | 'env' | 'default';
  baseUrl: string;
  baseUrlSource: SettingSource;
  apiKey: string | undefined;
  /** `env`: CONTACTS_API_KEY; `file`: the profile in `configPath`. Keys never come from flags. */
  apiKeySource: 'env' | 'file' | 'none';
  configPath: string;
  agent: string | undefined;
  agentSource: Exclude<SettingSource, 'default'> | 'none';
  /** The format asked for, if any; `chooseFormat` falls back on the terminal. */
  output: OutputFormat | undefined;
  outputSource: 'flag' | 'profile' | 'none';
  /** Country for national phone numbers (`--default-country`, env, profile), if any. */
  defaultCountry: string | undefined;
  /** What the store found wrong without failing (e.g. a key in a file others can read). */
  warnings: readonly string[];
}

export function resolveSettings({ flags, env, store }: ResolveSettingsOptions): ResolvedSettings {
  const flagProfile = present(flags.profile);
  const envProfile = present(env[ENV.profile]);
  const profile = flagProfile
    ? validateProfileName(flagProfile, '--profile')
    : envProfile
      ? validateProfileName(envProfile, ENV.profile)
      : DEFAULT_PROFILE;
  const profileSource = flagProfile ? 'flag' : envProfile ? 'env' : 'default';
  const stored = store.getProfile(profile);
  const inFile = `profile "${profile}" in ${store.path}`;

  const baseUrl = pick<string>([
    ['flag', flags.baseUrl, (v) => validateBaseUrl(v, '--base-url')],
    ['env', env[ENV.baseUrl], (v) => validateBaseUrl(v, ENV.baseUrl)],
    ['profile', stored.base_url, (v) => validateBaseUrl(v, inFile)],
  ]) ?? { value: DEFAULT_BASE_URL, source: 'default' as const };

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

  const envKey = present(env[ENV.apiKey]);
  const fileKey = present(stored.api_key);

  return {
    profile,
    profileSource,
    baseUrl: baseUrl.value,
    baseUrlSource: baseUrl.source,
    apiKey: envKey ?? fileKey,
    apiKeySource: envKey ? 'env' : fileKey ? 'file' : 'none',
    configPath: store.path,
    agent: agent?.value,
    agentSource: agent ? (agent.source as 'flag' | 'env' | 'profile') : 'none',
    output: output?.value,
    outputSource: output ? (output.source as 'flag' | 'profile') : 'none',
    defaultCountry: defaultCountry?.value,
    warnings: store.warnings ?? [],
  };
}

/** The agent id, or a usage error that says the three ways to give one. */
export function requireAgent(settings: Pick<ResolvedSettings, 'agent' | 'profile'>): string {
  if (settings.agent) return settings.agent;
  throw new UsageError('No agent selected', {
    hint: `Pass --agent <id>, set ${ENV.agent}, or run \`contacts config set agent <id>\`${profileFlag(settings.profile)}.`,
  });
}

/** The API key, or a credentials error that says how to log in. */
export function requireApiKey(
  settings: Pick<ResolvedSettings, 'apiKey' | 'apiKeySource' | 'profile' | 'configPath'>,
): string {
  const { apiKey, apiKeySource } = settings;
  if (!apiKey) {
    throw new CredentialsError(`No API key for profile "${settings.profile}"`, {
      hint: `Run \`contacts auth login${profileFlag(settings.profile)}\`, or set ${ENV.apiKey}.`,
    });
  }
  const problem = apiKeyProblem(apiKey);
  if (problem !== null) {
    const where =
      apiKeySource === 'env' ? ENV.apiKey : `profile "${settings.profile}" in ${settings.configPath}`;
    throw new CredentialsError(`The API key from ${where} is not a valid ${API_KEY_PREFIX} key: ${problem}`, {
      hint: `Check ${where}, or run \`contacts auth login${profileFlag(settings.profile)}\`.`,
    });
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
