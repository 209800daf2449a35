import { describe, expect, it } from 'vitest';
import { plural } from '../../../src/cli/output/plural.js';

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
