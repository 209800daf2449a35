// The contract's response headers: dropped fields named in a form every HTTP stack carries, and
// read back exactly.
import { describe, expect, it } from 'vitest';
import {
  encodeHeaderPath,
  IGNORED_COUNT_HEADER,
  IGNORED_FIELDS_HEADER,
  ignoredFieldsHeader,
  ignoredFieldsHeaders,
  MAX_IGNORED_HEADER_LENGTH,
  parseIgnoredFieldsHeader,
} from '../../src/api/index.js';

// What Node's http and the fetch Headers class accept in a header value.
const SENDABLE = /^[\x21-\x7e]*$/;

describe('x-contacts-ignored', () => {
  it('carries any key as visible ASCII and reads it back exactly', () => {
    const paths = [
      'company',
      'custom_attributes.plna',
      '名前',
      'a,b',
      '100%',
      'new\nline',
      'esc\u001b]0;PWNED\u0007',
      'tab\tand space',
      'naïve',
      'users.3.emoji 😀',
    ];
    const { value, listed } = ignoredFieldsHeader(paths);
    expect(listed).toBe(paths.length);
    expect(value).toMatch(SENDABLE);
    expect(parseIgnoredFieldsHeader(value)).toEqual(paths);
    // Nothing to encode: the header stays readable.
    expect(encodeHeaderPath('custom_attributes.plna')).toBe('custom_attributes.plna');
  });

  it('names as many paths as fit, and says how many there were in all', () => {
    const paths = Array.from({ length: 5000 }, (_, i) => `field_number_${i}`);
    const headers = ignoredFieldsHeaders(paths);
    const value = headers[IGNORED_FIELDS_HEADER]!;
    expect(value.length).toBeLessThanOrEqual(MAX_IGNORED_HEADER_LENGTH);
    const listed = parseIgnoredFieldsHeader(value);
    expect(listed.length).toBeGreaterThan(10);
    expect(listed).toEqual(paths.slice(0, listed.length));
    expect(headers[IGNORED_COUNT_HEADER]).toBe('5000');
    expect(ignoredFieldsHeaders([])).toEqual({});
  });

  it('cuts a single path longer than the limit, never inside an escape, and marks the cut', () => {
    const long = 'é'.repeat(MAX_IGNORED_HEADER_LENGTH);
    const { value, listed } = ignoredFieldsHeader([long, 'next_field'.repeat(3)]);
    expect(listed).toBe(1);
    expect(value.length).toBeLessThanOrEqual(MAX_IGNORED_HEADER_LENGTH);
    expect(value).toMatch(SENDABLE);
    const [read] = parseIgnoredFieldsHeader(value);
    expect(read).toMatch(/^é+…$/);
  });
});
