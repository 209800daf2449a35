// Telling UTF-8 from the legacy encodings a file may be in.
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
