// The import's look-alike external_id check: caught in either order, and ids with no other
// Unicode form (CJK ideographs, Cyrillic, Thai, ASCII) are not kept in memory.
import { describe, expect, it } from 'vitest';
import { LookAlikeIds } from '../../../src/importer/stages/look-alike.js';

describe('LookAlikeIds', () => {
  it('names the earlier id for NFC and NFD spellings, in either order', () => {
    const nfc = 'Jos\u00e9';
    const nfd = 'Jose\u0301';
    const one = new LookAlikeIds();
    expect(one.check(nfc, 2)).toBeNull();
    expect(one.check(nfc, 3)).toBeNull();
    expect(one.check(nfd, 4)).toContain(`looks like "${nfc}" (line 2)`);
    const other = new LookAlikeIds();
    expect(other.check(nfd, 2)).toBeNull();
    expect(other.check(nfc, 5)).toContain(`looks like "${nfd}" (line 2)`);
  });

  it('catches a singleton spelling met first, and marks in another order either way', () => {
    const ids = new LookAlikeIds();
    expect(ids.check('\u2126-1', 1)).toBeNull(); // ohm sign
    expect(ids.check('\u03a9-1', 2)).toContain('(line 1)'); // Greek omega
    expect(ids.check('\uf92c', 3)).toBeNull(); // a compatibility ideograph
    expect(ids.check('\u90ce', 4)).toContain('(line 3)'); // its unified ideograph
    expect(ids.check('x\u0323\u0301', 5)).toBeNull();
    expect(ids.check('x\u0301\u0323', 6)).toContain('(line 5)');
  });

  it('keeps no id that has no other form', () => {
    const ids = new LookAlikeIds();
    for (let i = 0; i < 1000; i++) {
      expect(ids.check(`山田-${i}`, i)).toBeNull();
      expect(ids.check(`Иванов-${i}`, i)).toBeNull();
      expect(ids.check(`plain-${i}`, i)).toBeNull();
      expect(ids.check(`สมชาย-${i}`, i)).toBeNull();
    }
    expect(ids.size).toBe(0);
    ids.check('Jos\u00e9', 1);
    expect(ids.size).toBe(1);
  });
});
