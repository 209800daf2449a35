// The settings a profile holds and the checks every value passes, whichever source it came from.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import {
  camel,
  envSwitch,
  GLOBAL_SETTING_NAMES,
  parseBooleanEnv,
  parseDuration,
  parseSettingKey,
  SETTING_NAMES,
  SETTINGS,
  settingHelp,
  validateAgent,
  validateApiKey,
  validateBaseUrl,
  validateCountry,
  validateOutput,
  validateProfileName,
  validateRetries,
  validateSetting,
  validateTimeZone,
} from '../../src/config/settings.js';

/** The ConfigError `fn` throws. */
function refusal(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('the settings table', () => {
  it('declares each setting as --<key>, with a file key and a camel-cased option name', () => {
    for (const key of SETTING_NAMES) {
      expect(SETTINGS[key].flags, key).toContain(`--${key} <`);
      expect(SETTINGS[key].file).toBe(key.replace(/-/g, '_'));
    }
    expect(camel('base-url')).toBe('baseUrl');
    expect(camel('max-retries')).toBe('maxRetries');
    expect(GLOBAL_SETTING_NAMES).toContain('base-url');
    expect(GLOBAL_SETTING_NAMES).not.toContain('agent');
  });

  it('help names the variable, the config key and the default', () => {
    expect(settingHelp('timeout')).toMatch(/\(env: CONTACTS_TIMEOUT; config: timeout; default: 30s\)$/);
    expect(settingHelp('output')).not.toContain('env:');
  });

  it('an unknown setting suggests the one meant and lists them all', () => {
    const error = refusal(() => parseSettingKey('base-ulr'));
    expect(error.message).toBe('Unknown setting: base-ulr (did you mean base-url?)');
    expect(error.hint).toContain('agent');
    expect(parseSettingKey('timeout')).toBe('timeout');
    expect(() => parseSettingKey('__proto__')).toThrow(ConfigError);
  });

  it('validateSetting stores each value checked and normalised', () => {
    expect(validateSetting('base-url', 'https://api.example.com/')).toBe('https://api.example.com');
    expect(validateSetting('default-country', ' gb ')).toBe('GB');
    expect(validateSetting('max-retries', '05')).toBe('5');
    expect(validateSetting('timeout', ' 2m ')).toBe('2m');
    expect(refusal(() => validateSetting('timeout', 'soon', 'CONTACTS_TIMEOUT')).message).toBe(
      'Invalid timeout from CONTACTS_TIMEOUT: soon',
    );
  });
});

describe('on/off variables', () => {
  it('read 1/true/yes/on and 0/false/no/off/empty, in any case; unset is off', () => {
    for (const on of ['1', 'TRUE', ' yes ', 'On']) expect(parseBooleanEnv({ X: on }, 'X'), on).toBe(true);
    for (const off of ['0', 'False', 'no', 'OFF', ''])
      expect(parseBooleanEnv({ X: off }, 'X'), off).toBe(false);
    expect(parseBooleanEnv({}, 'X')).toBe(false);
    expect(envSwitch({ CONTACTS_MOCK: 'yes' }, 'mock')).toBe(true);
  });

  it('refuse anything else, naming the variable', () => {
    const error = refusal(() => envSwitch({ CONTACTS_NO_INPUT: 'y' }, 'no-input'));
    expect(error.message).toBe('Invalid value in CONTACTS_NO_INPUT: "y"');
    expect(error.kind).toBe('invalid');
  });
});

describe('validators', () => {
  it('base URL: http(s) without credentials, query or fragment; a bare host gets a suggestion', () => {
    expect(validateBaseUrl(' http://127.0.0.1:4010// ')).toBe('http://127.0.0.1:4010');
    expect(refusal(() => validateBaseUrl('https://user:pw@api.example.com')).message).toMatch(/credentials/);
    expect(refusal(() => validateBaseUrl('https://api.example.com/?x=1')).message).toMatch(/no query/);
    expect(refusal(() => validateBaseUrl('ftp://api.example.com')).message).toMatch(/only http and https/);
    expect(refusal(() => validateBaseUrl('localhost:4010')).hint).toBe('Did you mean http://localhost:4010?');
    expect(refusal(() => validateBaseUrl('api.example.com')).hint).toBe(
      'Did you mean https://api.example.com?',
    );
    expect(refusal(() => validateBaseUrl('0.0.0.0:4010')).hint).toMatch(
      /^Did you mean http:\/\/127\.0\.0\.1:4010\?/,
    );
    expect(refusal(() => validateBaseUrl('', '--base-url')).message).toBe(
      'Invalid base URL from --base-url: (empty)',
    );
  });

  it('agent, output, country, retries and profile names', () => {
    expect(validateAgent(' a1 ')).toBe('a1');
    expect(() => validateAgent('  ')).toThrow(/must not be empty/);
    expect(validateOutput('JSON')).toBe('json');
    expect(refusal(() => validateOutput('yaml')).hint).toBe('Choose one of: table, json, ndjson, csv.');
    expect(validateCountry('de')).toBe('DE');
    expect(validateCountry('uk')).toBe('GB');
    expect(() => validateCountry('DEU')).toThrow(/Invalid country/);
    expect(validateRetries('20')).toBe('20');
    expect(() => validateRetries('21')).toThrow(ConfigError);
    expect(() => validateRetries('-1')).toThrow(ConfigError);
    expect(validateProfileName('work.eu-1')).toBe('work.eu-1');
    for (const bad of ['__proto__', '-x', '', 'a'.repeat(65), 'a b']) {
      expect(() => validateProfileName(bad), bad).toThrow(ConfigError);
    }
  });

  it('durations: ms, s, m or plain seconds, from 100 ms to 10 min', () => {
    expect(parseDuration('30')).toBe(30_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('2M')).toBe(120_000);
    expect(() => parseDuration('99ms')).toThrow(ConfigError);
    expect(() => parseDuration('11m')).toThrow(ConfigError);
    expect(() => parseDuration('1h')).toThrow(ConfigError);
  });

  it('time zones: IANA names in any case; offsets and EST refused with the zone to name instead', () => {
    expect(validateTimeZone('america/new_york')).toBe('America/New_York');
    expect(validateTimeZone('UTC')).toBe('UTC');
    expect(refusal(() => validateTimeZone('+05:00')).hint).toMatch(/IANA name/);
    const est = refusal(() => validateTimeZone('EST'));
    expect(est.message).toMatch(/fixed offset of -05:00 all year/);
    expect(est.hint).toMatch(/--time-zone America\/New_York/);
    expect(refusal(() => validateTimeZone('Europe/Londn')).message).toMatch(/did you mean Europe\/London\?/);
  });

  it('an API key: bk_ and header-safe, never echoed when refused', () => {
    expect(validateApiKey(' bk_live_123 ')).toBe('bk_live_123');
    const error = refusal(() => validateApiKey('sk_secret_value', 'stdin'));
    expect(error.message).toBe('Invalid API key from stdin: it does not start with "bk_"');
    expect(`${error.message} ${error.hint}`).not.toContain('secret_value');
  });
});
