// The settings a profile can hold, their names on the command line and in the file, and the
// checks every value passes, whichever source (flag, env, file) it comes from.

import { API_KEY_PREFIX, apiKeyProblem } from '../api/key.js';
import { didYouMean } from '../util/suggest.js';
import { ConfigError } from './errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from './output-formats.js';

export { OUTPUT_FORMATS, type OutputFormat };

/** Names of `contacts config get|set|unset`, mapped to their keys in the file. */
export const SETTING_KEYS = {
  'base-url': 'base_url',
  agent: 'agent',
  output: 'output',
  'default-country': 'default_country',
  'max-retries': 'max_retries',
  timeout: 'timeout',
} as const;
export type SettingKey = keyof typeof SETTING_KEYS;
export const SETTING_NAMES = Object.keys(SETTING_KEYS) as SettingKey[];

/** One profile as stored. `api_key` is never listed with the settings. */
export interface ProfileConfig {
  base_url?: string;
  agent?: string;
  output?: OutputFormat;
  /** ISO 3166-1 alpha-2 code: national phone numbers are read as this country's. */
  default_country?: string;
  /** Retries of a failed request (429, 5xx, connection failures); a whole number. */
  max_retries?: string;
  /** How long one attempt waits for the service: `30s`, `500ms`, `2m` or plain seconds. */
  timeout?: string;
  api_key?: string;
}

export { API_KEY_PREFIX };
export const DEFAULT_PROFILE = 'default';

export function isSettingKey(name: string): name is SettingKey {
  return Object.hasOwn(SETTING_KEYS, name);
}

export function parseSettingKey(name: string): SettingKey {
  if (isSettingKey(name)) return name;
  throw new ConfigError('invalid', `Unknown setting: ${name}${didYouMean(name, SETTING_NAMES)}`, {
    hint: `Settings are: ${SETTING_NAMES.join(', ')}.`,
  });
}

// A letter or digit first keeps names like `__proto__` and `-x` out of the file and the argv.
const PROFILE_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validateProfileName(name: string, from = '--profile'): string {
  if (PROFILE_RE.test(name)) return name;
  throw new ConfigError('invalid', `Invalid profile name from ${from}: ${JSON.stringify(name)}`, {
    hint: 'Use letters, digits, ".", "_" and "-" (at most 64 characters), starting with a letter or digit.',
  });
}

/**
 * An http(s) URL without credentials, query or fragment; trailing slashes dropped so paths
 * join cleanly. Credentials are refused because `auth status` prints the base URL.
 */
export function validateBaseUrl(value: string, from = 'base-url'): string {
  const raw = value.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('invalid', `Invalid base URL from ${from}: ${raw || '(empty)'}`, {
      hint: 'Expected an http or https URL, e.g. https://api.contacts.example',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      'invalid',
      `Invalid base URL from ${from}: ${raw} (only http and https are supported)`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigError('invalid', `Invalid base URL from ${from}: it must not contain credentials`, {
      hint: 'Store the API key with `contacts auth login` instead.',
    });
  }
  if (url.search || url.hash) {
    throw new ConfigError('invalid', `Invalid base URL from ${from}: ${raw} (no query or fragment allowed)`);
  }
  return url.href.replace(/\/+$/, '');
}

export function validateAgent(value: string, from = 'agent'): string {
  const agent = value.trim();
  if (agent) return agent;
  throw new ConfigError('invalid', `Invalid agent from ${from}: it must not be empty`);
}

export function validateOutput(value: string, from = 'output'): OutputFormat {
  const format = value.trim().toLowerCase();
  if ((OUTPUT_FORMATS as readonly string[]).includes(format)) return format as OutputFormat;
  throw new ConfigError('invalid', `Invalid output format from ${from}: ${value}`, {
    hint: `Choose one of: ${OUTPUT_FORMATS.join(', ')}.`,
  });
}

/**
 * A country code for national phone numbers: two letters, upper-cased. Whether libphonenumber
 * knows it is checked where numbers are read, so reading settings never loads its metadata.
 */
export function validateCountry(value: string, from = 'default-country'): string {
  const code = value.trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(code)) return code;
  throw new ConfigError('invalid', `Invalid country from ${from}: ${value}`, {
    hint: 'Use a two-letter ISO 3166 code, e.g. GB, US, DE.',
  });
}

/** Retries per request: a whole number from 0 to 20. */
export function validateRetries(value: string, from = 'max-retries'): string {
  const text = value.trim();
  if (/^\d+$/.test(text) && Number(text) <= 20) return String(Number(text));
  throw new ConfigError('invalid', `Invalid retries from ${from}: ${value}`, {
    hint: 'Use a whole number from 0 (no retries) to 20.',
  });
}

const DURATION_RE = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** A timeout in milliseconds from `30s`, `500ms`, `2m` or plain seconds (`30`). */
export function parseDuration(value: string, from = 'timeout'): number {
  const m = DURATION_RE.exec(value.trim());
  const ms = m ? Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 's').toLowerCase()]!) : Number.NaN;
  if (ms >= 100 && ms <= 600_000) return ms;
  throw new ConfigError('invalid', `Invalid timeout from ${from}: ${value}`, {
    hint: 'Use seconds (30), or a number with ms, s or m (500ms, 30s, 2m), from 100ms to 10m.',
  });
}

/** Checks and normalises a value for `key`; `from` names its source in the message. */
export function validateSetting(key: SettingKey, value: string, from: string = key): string {
  switch (key) {
    case 'base-url':
      return validateBaseUrl(value, from);
    case 'agent':
      return validateAgent(value, from);
    case 'output':
      return validateOutput(value, from);
    case 'default-country':
      return validateCountry(value, from);
    case 'max-retries':
      return validateRetries(value, from);
    case 'timeout':
      parseDuration(value, from);
      return value.trim();
  }
}

/** A well-formed `bk_` key (surrounding whitespace dropped), or a usage error saying why not. */
export function validateApiKey(value: string, from = 'the key'): string {
  const key = value.trim();
  const problem = apiKeyProblem(key);
  if (problem === null) return key;
  // The value itself is never echoed: it may be a real secret pasted in the wrong place.
  throw new ConfigError('invalid', `Invalid API key from ${from}: ${problem}`, {
    // The prefix in quotes: bare, it reads as a key to the redaction every message goes through.
    hint: `A workspace key starts with "${API_KEY_PREFIX}"; copy it again from the dashboard.`,
  });
}
