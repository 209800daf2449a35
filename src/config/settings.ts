// The settings a profile can hold, their names on the command line and in the file, and the
// checks every value passes, whichever source (flag, env, file) it comes from.

import { API_KEY_PREFIX, apiKeyProblem } from '../api/key.js';
import { DEFAULT_RETRIES } from '../bulk/defaults.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from '../client/defaults.js';
import { didYouMean } from '../util/suggest.js';
import { canonicalTimeZone, timeZoneName, zoneOffset } from '../util/time-zone.js';
import { ConfigError } from './errors.js';
import { OUTPUT_FLAG_CHOICES, OUTPUT_FORMATS, type OutputFormat } from './output-formats.js';

export { OUTPUT_FORMATS, type OutputFormat };

/**
 * A setting a profile can hold. Its long flag is `--<key>`; its value comes from the flag, else
 * the environment variable, else the profile's `file` key (flag > env > profile), and passes
 * `parse` whichever source it came from.
 */
export interface SettingSpec<T> {
  /** The option as commander declares it; the long flag is `--<key>`. */
  readonly flags: string;
  /** On every command (`global`), or only on the commands that use it. */
  readonly scope: 'global' | 'command';
  readonly env: string | undefined;
  /** The key in the profile, in the config file. */
  readonly file: string;
  /** One line for --help and `contacts config --help`. */
  readonly description: string;
  /** What applies when nothing sets it, for --help. */
  readonly fallback?: string;
  readonly choices?: readonly string[];
  /** The value in force; `from` names the source in an error (`--timeout`, `CONTACTS_TIMEOUT`, the file). */
  parse(raw: string, from: string): T;
  /** The text `config set` stores: checked and normalised. */
  normalise(raw: string, from: string): string;
}

function setting<T, const F extends string, const S extends SettingSpec<T>['scope']>(
  spec: Omit<SettingSpec<T>, 'normalise' | 'flags' | 'scope'> & {
    flags: F;
    scope: S;
    normalise?: (raw: string, from: string) => string;
  },
): SettingSpec<T> & { readonly flags: F; readonly scope: S } {
  return { ...spec, normalise: spec.normalise ?? ((raw, from) => String(spec.parse(raw, from))) };
}

/**
 * Every setting, once: resolution (`config/resolve.ts`), the options the program declares and
 * `contacts config --help` are all read from here.
 */
export const SETTINGS = {
  'base-url': setting({
    flags: '--base-url <url>',
    scope: 'global',
    env: 'CONTACTS_BASE_URL',
    file: 'base_url',
    description: 'API base URL, e.g. https://api.contacts.example',
    parse: validateBaseUrl,
  }),
  agent: setting({
    flags: '-a, --agent <id>',
    scope: 'command',
    env: 'CONTACTS_AGENT',
    file: 'agent',
    description: 'agent whose directory to use',
    parse: validateAgent,
  }),
  output: setting({
    flags: '-o, --output <format>',
    scope: 'global',
    env: undefined,
    file: 'output',
    description:
      'output format; csv gives values as they are (only export guards against spreadsheet formulas); xlsx: export and template only',
    fallback: 'table on a terminal, json otherwise',
    // The flag also takes xlsx, for the commands that write a file; a profile cannot ask for it.
    choices: OUTPUT_FLAG_CHOICES,
    parse: validateOutput,
  }),
  'default-country': setting({
    flags: '--default-country <code>',
    scope: 'command',
    env: 'CONTACTS_DEFAULT_COUNTRY',
    file: 'default_country',
    description: 'country of national phone numbers, e.g. GB',
    parse: validateCountry,
  }),
  'time-zone': setting({
    flags: '--time-zone <zone>',
    scope: 'command',
    env: 'CONTACTS_TIME_ZONE',
    file: 'time_zone',
    description:
      'IANA time zone that imported date-times without a zone were written in, e.g. America/New_York',
    fallback: 'UTC',
    parse: validateTimeZone,
  }),
  'max-retries': setting({
    flags: '--max-retries <n>',
    scope: 'global',
    env: 'CONTACTS_MAX_RETRIES',
    file: 'max_retries',
    description: 'retries of a failed request: 429, 5xx, connection failures',
    fallback: `${DEFAULT_MAX_RETRIES}; import, undo and delete --from: ${DEFAULT_RETRIES}`,
    parse: (raw, from) => Number(validateRetries(raw, from)),
  }),
  timeout: setting({
    flags: '--timeout <duration>',
    scope: 'global',
    env: 'CONTACTS_TIMEOUT',
    file: 'timeout',
    description: 'how long each attempt may take, to the last byte of the answer: 30s, 500ms, 2m',
    fallback: `${DEFAULT_TIMEOUT_MS / 1000}s`,
    parse: parseDuration,
    normalise: (raw, from) => {
      parseDuration(raw, from);
      return raw.trim();
    },
  }),
} as const satisfies { [K in string]: { flags: `${string}--${K} <${string}>` } };

export type Settings = typeof SETTINGS;
export type SettingKey = keyof Settings;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingKey[];
/** The settings every command takes (`scope: 'global'`); the others, the commands that use them. */
export type GlobalSettingKey = {
  [K in SettingKey]: Settings[K]['scope'] extends 'global' ? K : never;
}[SettingKey];
export const GLOBAL_SETTING_NAMES = SETTING_NAMES.filter(
  (key): key is GlobalSettingKey => SETTINGS[key].scope === 'global',
);
/** A setting's value in force, as its `parse` gives it. */
export type SettingValue<K extends SettingKey> = ReturnType<Settings[K]['parse']>;
/** `base-url` -> `baseUrl`: the name commander gives the flag's value. */
export type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

export function camel<S extends string>(key: S): Camel<S> {
  return key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as Camel<S>;
}

/** One profile as stored: each setting under its `file` key, and the key. */
export type ProfileConfig = { [K in SettingKey as Settings[K]['file']]?: string } & { api_key?: string };

/** The help line of a setting's flag: what it is, its variable, and what applies without it. */
export function settingHelp(key: SettingKey): string {
  const spec: SettingSpec<unknown> = SETTINGS[key];
  const notes = [
    spec.env ? `env: ${spec.env}` : undefined,
    `config: ${key}`,
    spec.fallback ? `default: ${spec.fallback}` : undefined,
  ].filter(Boolean);
  return `${spec.description} (${notes.join('; ')})`;
}

/** The variables besides the settings': the profile and the key. */
export const PROFILE_ENV = 'CONTACTS_PROFILE';
export const API_KEY_ENV = 'CONTACTS_API_KEY';
export const API_KEY_FILE_ENV = 'CONTACTS_API_KEY_FILE';
/** Set to 1 to allow an http:// base URL that names another machine (as `--insecure-http`). */
export const INSECURE_HTTP_ENV = 'CONTACTS_INSECURE_HTTP';

/**
 * The on/off options that have a variable, declared once: the program's flags and their help,
 * and the variable each reads through `envSwitch`.
 */
export const SWITCHES = {
  'insecure-http': {
    flags: '--insecure-http',
    env: INSECURE_HTTP_ENV,
    description: 'allow an http:// base URL to another machine: the key travels unencrypted',
  },
  mock: {
    flags: '--mock',
    env: 'CONTACTS_MOCK',
    description: 'run against an embedded mock kept in ./.contacts-mock',
  },
  'no-input': {
    flags: '--no-input',
    env: 'CONTACTS_NO_INPUT',
    description: 'never prompt: a question becomes an error naming its flag',
  },
} as const;
export type SwitchKey = keyof typeof SWITCHES;

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['', '0', 'false', 'no', 'off']);

/**
 * An on/off variable, read one way for all: 1/true/yes/on, or 0/false/no/off/empty (unset is
 * off), case ignored. Anything else is a configuration error naming the variable: a typo must
 * not quietly leave a safety check on, or a prompt a script relies on being refused, off.
 */
export function parseBooleanEnv(env: Record<string, string | undefined>, name: string): boolean {
  const raw = env[name];
  const word = (raw ?? '').trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new ConfigError('invalid', `Invalid value in ${name}: ${JSON.stringify(raw)}`, {
    hint: `Set ${name} to 1, true, yes or on; or 0, false, no, off or nothing to turn it off.`,
  });
}

/** A switch's variable, read with `parseBooleanEnv`. */
export function envSwitch(env: Record<string, string | undefined>, key: SwitchKey): boolean {
  return parseBooleanEnv(env, SWITCHES[key].env);
}

export { API_KEY_PREFIX };
export const DEFAULT_PROFILE = 'default';

export function isSettingKey(name: string): name is SettingKey {
  return Object.hasOwn(SETTINGS, name);
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
      hint: schemeHint(raw) ?? 'Expected an http or https URL, e.g. https://api.contacts.example',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:4010` parses as the scheme `localhost:`: what was meant is a host and a port.
    const hint = schemeHint(raw);
    throw new ConfigError(
      'invalid',
      `Invalid base URL from ${from}: ${raw} (only http and https are supported)`,
      hint ? { hint } : {},
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

/** For a host without a scheme: the URL meant, http:// for this machine, else https://. */
function schemeHint(raw: string): string | undefined {
  if (!raw || raw.includes('://') || !/^[\w.[\]:-]+(\/.*)?$/.test(raw)) return undefined;
  // 0.0.0.0 (and [::]) is what a server listens on, not an address to connect to, and the
  // base URL check refuses it as another machine: this machine's loopback is what was meant.
  const unspecified = /^(0\.0\.0\.0|\[::\])(?=[:/]|$)/.exec(raw);
  if (unspecified) {
    const loopback = unspecified[1] === '[::]' ? '[::1]' : '127.0.0.1';
    return `Did you mean http://${loopback}${raw.slice(unspecified[0].length)}? (${unspecified[1]} is where a server listens, not an address to reach it at)`;
  }
  const local = /^(localhost|127\.|\[::1\])/i.test(raw);
  return `Did you mean ${local ? 'http' : 'https'}://${raw}?`;
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
  // `UK` is what people call GB, its ISO code.
  if (code === 'UK') return 'GB';
  if (/^[A-Z]{2}$/.test(code)) return code;
  throw new ConfigError('invalid', `Invalid country from ${from}: ${value}`, {
    hint: 'Use a two-letter ISO 3166 code, e.g. GB, US, DE.',
  });
}

/**
 * An IANA time zone name (`America/New_York`, any case) or `UTC`, as Intl knows it; offsets such
 * as `+05:00` are refused (Node 20's Intl does not take them).
 */
export function validateTimeZone(value: string, from = 'time-zone'): string {
  const zone = timeZoneName(value);
  if (zone !== undefined) {
    const fixed = fixedAbbreviation(value.trim());
    if (!fixed) return zone;
    throw new ConfigError(
      'invalid',
      `Invalid time zone from ${from}: ${value.trim()} is a fixed offset of ${fixed.offset} all year, with no daylight saving time`,
      {
        hint:
          `Name the place, whose zone knows its daylight saving time: --time-zone ${fixed.place}` +
          `${fixed.place === fixed.canonical ? '' : `, or --time-zone ${fixed.canonical} for ${fixed.offset} all year`}.`,
      },
    );
  }
  const offset = /^[+-]\d/.test(value.trim());
  throw new ConfigError(
    'invalid',
    `Invalid time zone from ${from}: ${value}${offset ? '' : didYouMean(value.trim(), Intl.supportedValuesOf('timeZone'))}`,
    {
      hint: offset
        ? 'Use the IANA name of the zone, which knows its daylight saving time, e.g. --time-zone America/New_York.'
        : 'Use an IANA time zone name, e.g. --time-zone America/New_York, Europe/London or UTC.',
    },
  );
}

/** The places people mean by the abbreviations that name fixed offsets. */
const ABBREVIATED_PLACES: Record<string, string> = { EST: 'America/New_York', MST: 'America/Denver' };

/**
 * `EST`, `MST`: abbreviations Intl takes as zones of one offset all year (`EST` is Panama's),
 * which a user who types `EST` for US Eastern time does not mean.
 */
function fixedAbbreviation(name: string): { offset: string; place: string; canonical: string } | undefined {
  // Only those people type for a place that keeps daylight saving time (HST, PRC, ROK are the
  // zones their users mean).
  if (ABBREVIATED_PLACES[name.toUpperCase()] === undefined) return undefined;
  const year = new Date().getUTCFullYear();
  const offsets = [0, 6].map((month) => zoneOffset(Date.UTC(year, month, 15), name));
  if (offsets[0] !== offsets[1]) return undefined;
  const minutes = Math.abs(offsets[0]!) / 60_000;
  const offset = `${offsets[0]! < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const canonical = canonicalTimeZone(name) ?? name;
  return { offset, place: ABBREVIATED_PLACES[name.toUpperCase()]!, canonical };
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
  return SETTINGS[key].normalise(value, from);
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
