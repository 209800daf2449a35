import { describe, expect, it } from 'vitest';
import { plural, withCommas } from '../../../src/cli/output/plural.js';

describe('plural', () => {
  it('says one without an s, and any other count with it', () => {
    expect(plural(1, 'contact')).toBe('1 contact');
    expect(plural(0, 'contact')).toBe('0 contacts');
    expect(plural(2, 'row')).toBe('2 rows');
  });

  it('takes an irregular plural', () => {
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
  });
});

describe('withCommas', () => {
  it('groups the digits of a count by three', () => {
    expect(withCommas(0)).toBe('0');
    expect(withCommas(999)).toBe('999');
    expect(withCommas(1000)).toBe('1,000');
    expect(withCommas(1234567)).toBe('1,234,567');
  });
});
