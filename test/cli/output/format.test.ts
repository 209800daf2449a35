// Which format output takes: asked for, else a table for a person and JSON for a pipe.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/errors.js';
import { chooseFormat } from '../../../src/cli/output/format.js';
import { ConfigError } from '../../../src/config/errors.js';

describe('chooseFormat', () => {
  it('takes the flag over the profile, and the profile over the terminal', () => {
    expect(chooseFormat({ flag: 'csv', profile: 'json', isTTY: true })).toBe('csv');
    expect(chooseFormat({ profile: 'ndjson', isTTY: true })).toBe('ndjson');
    expect(chooseFormat({ isTTY: true })).toBe('table');
    expect(chooseFormat({ isTTY: false })).toBe('json');
  });

  it('refuses xlsx where nothing writes a file, and an unknown format naming where it came from', () => {
    expect(() => chooseFormat({ flag: 'xlsx', isTTY: false })).toThrow(UsageError);
    expect(() => chooseFormat({ flag: 'xml', isTTY: false })).toThrow(/from --output: xml/);
    expect(() => chooseFormat({ profile: 'xml', isTTY: false })).toThrow(ConfigError);
  });
});
