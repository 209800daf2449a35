// "Did you mean ...?" for a mistyped word: close enough to be a typo, or nothing.
import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from '../../src/util/suggest.js';

const COMMANDS = ['list', 'get', 'upsert', 'update', 'delete', 'import', 'export'];

describe('closest', () => {
  it('finds a word one edit or one swap away, in any case', () => {
    expect(closest('lsit', COMMANDS)).toBe('list');
    expect(closest('Updat', COMMANDS)).toBe('update');
    expect(closest('imprt', COMMANDS)).toBe('import');
    expect(closest('EXPROT', COMMANDS)).toBe('export');
  });

  it('suggests nothing for an exact match (case aside), or a word too far from every one', () => {
    expect(closest('list', COMMANDS)).toBeUndefined();
    expect(closest('LIST', COMMANDS)).toBeUndefined();
    expect(closest('frobnicate', COMMANDS)).toBeUndefined();
    expect(closest('xy', COMMANDS)).toBeUndefined();
    expect(closest('anything', [])).toBeUndefined();
  });

  it('allows a third of the word off: two edits in a word of six', () => {
    expect(closest('upsrtt', ['upsert'])).toBe('upsert');
    expect(closest('usrtt', ['upsert'])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('is the suggestion in words, or empty', () => {
    expect(didYouMean('delte', COMMANDS)).toBe(' (did you mean delete?)');
    expect(didYouMean('zzz', COMMANDS)).toBe('');
  });
});
