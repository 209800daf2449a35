// Telling UTF-8 from the legacy encodings a file may be in.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, legacyEncoding } from '../../../src/importer/sources/utf8.js';

describe('firstInvalidUtf8', () => {
  it('is the length for valid UTF-8, one to four bytes a character', () => {
    const text = Buffer.from('ascii, café, € and 𝄞');
    expect(firstInvalidUtf8(text)).toBe(text.length);
  });

  it('finds the first byte that breaks it: Latin-1, overlong forms, surrogates', () => {
    expect(firstInvalidUtf8(Buffer.from([0x4a, 0x6f, 0x73, 0xe9, 0x0a]))).toBe(3); // "José" in Latin-1
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe9, 0x62]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0xaf]))).toBe(0); // overlong "/"
    expect(firstInvalidUtf8(Buffer.from([0xe0, 0x80, 0xaf]))).toBe(0); // overlong, three bytes
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // past U+10FFFF
  });

  it('takes a character cut by the end of the buffer as valid so far, unless its bytes already break', () => {
    const euro = Buffer.from('€');
    expect(firstInvalidUtf8(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)]))).toBe(3);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x41]))).toBe(1);
  });
});

describe('legacyEncoding', () => {
  it('takes NUL bytes for UTF-16 of either order, and anything else for Windows-1252', () => {
    expect(legacyEncoding(Buffer.from('name,email\n', 'utf16le')).label).toBe('utf-16le');
    expect(legacyEncoding(Buffer.from('name,email\n', 'utf16le').swap16()).label).toBe('utf-16be');
    expect(legacyEncoding(Buffer.from([0x4a, 0x6f, 0x73, 0xe9])).label).toBe('windows-1252');
    expect(legacyEncoding(Buffer.from([0x4a, 0x6f, 0x73, 0xe9])).name).toMatch(/Windows-1252/);
  });
});

describe('an East Asian code page', () => {
  // Written by iconv (test/fixtures/encodings/EVIDENCE.md), each beside its UTF-8 text.
  const fixture = (name: string) =>
    readFileSync(new URL(`../../fixtures/encodings/${name}`, import.meta.url));
  const cases = [
    ['customers.shift_jis.csv', 'customers.utf8.csv', 'shift_jis', /Japanese/],
    ['zh.gbk.csv', 'zh.utf8.csv', 'gbk', /Chinese/],
    ['ko.euc-kr.csv', 'ko.utf8.csv', 'euc-kr', /Korean/],
    ['tw.big5.csv', 'tw.utf8.csv', 'big5', /Taiwanese/],
  ] as const;

  it.each(cases)('tells %s by its bytes, and it reads back as its text', (file, text, label, name) => {
    const bytes = fixture(file);
    const found = legacyEncoding(bytes);
    expect(found.label).toBe(label);
    expect(found.name).toMatch(name);
    expect(new TextDecoder(found.label).decode(bytes).replace(/\r/g, '')).toBe(
      fixture(text).toString('utf8'),
    );
  });

  it('tells it from a sample cut inside a character, and not from Latin-1 text', () => {
    const bytes = fixture('customers.shift_jis.csv');
    expect(legacyEncoding(bytes.subarray(0, 40)).label).toBe('shift_jis');
    const latin = Buffer.from('Nom,Prénom,Société\nMüller,René,Crème brûlée\nJosé,Zoë,Café\n', 'latin1');
    expect(legacyEncoding(latin).label).toBe('windows-1252');
    // Accents that happen to pair as a code page's characters are none of its everyday ones.
    expect(legacyEncoding(Buffer.from('Jürgen Müller,Straße\n', 'latin1')).label).toBe('windows-1252');
    // Curly quotes are Shift_JIS kanji by their bytes (0x92 0x42), each followed by a letter.
    const quotes = Buffer.from(
      'Patrick,O\x92Brien,Kellogg\x92s,doesn\x92t like \x93calls\x94\nSiobhan,O\x92Neill\n',
      'latin1',
    );
    expect(legacyEncoding(quotes).label).toBe('windows-1252');
    expect(legacyEncoding(Buffer.from('ÁNGEL IBÁÑEZ,MÁLAGA\n', 'latin1')).label).toBe('windows-1252');
  });

  it("reads Chinese names of GB2312's second level as GBK", () => {
    // 婷, 梓, 鑫, 昊, 璐, 琪: common in names, past the first level; bytes as iconv -t GBK writes them.
    const names = Buffer.from(
      'd0d5c3fb2cc0eee6c3e6c30ad5c5e8f7baad0acdf5f6ce2cc1f5eabb0ab3c2e8b42cd5d4e7f70a',
      'hex',
    );
    expect(new TextDecoder('gbk').decode(names)).toBe('姓名,李婷婷\n张梓涵\n王鑫,刘昊\n陈璐,赵琪\n');
    expect(legacyEncoding(names).label).toBe('gbk');
  });
});
