// The text of an input in its encoding, UTF-8 checked strictly; the JSON readers' record shape.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ImportError, SourceParseError } from '../../../src/importer/errors.js';
import { openInput } from '../../../src/importer/sources/input.js';
import { decodeText, jsonRecord, parseEncodingOption } from '../../../src/importer/sources/text.js';

async function text(...chunks: Buffer[]) {
  const notes: string[] = [];
  const input = await openInput('-', {
    stdin: Readable.from(chunks),
    onNote: (note) => notes.push(note.message),
  });
  let out = '';
  for await (const t of decodeText(input)) out += t;
  return { out, notes };
}

describe('decodeText', () => {
  it('joins a character split between chunks, and drops a BOM', async () => {
    const euro = Buffer.from('\uFEFFa\n€b');
    expect((await text(euro.subarray(0, 6), euro.subarray(6))).out).toBe('a\n€b');
  });

  it('reads on in Windows-1252 when plain ASCII meets a byte that is not UTF-8 after the sample', async () => {
    const head = Buffer.from('name\nAnn\n');
    const { out, notes } = await text(head, Buffer.from([0x4a, 0x6f, 0x73, 0xe9, 0x0a]));
    expect(out).toBe('name\nAnn\nJosé\n');
    expect(notes).toEqual([
      expect.stringMatching(/^stdin is not UTF-8 \(line 3\): reading it as Windows-1252/),
    ]);
  });

  it('refuses a file mixing real UTF-8 with such bytes, naming line, column, byte and encoding', async () => {
    const mixed = [Buffer.from('name\nZoë\n'), Buffer.from([0x4a, 0x6f, 0x73, 0xe9, 0x0a])];
    const error = await text(...mixed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceParseError);
    expect((error as SourceParseError).line).toBe(3);
    expect((error as SourceParseError).reason).toMatch(/not valid UTF-8 \(byte 0xE9\).*Windows-1252/);
    expect((error as SourceParseError).detail).toEqual({
      code: 'not_utf8',
      file: 'stdin',
      encoding: 'windows-1252',
      looks: true,
    });
  });

  it('decodes UTF-16 as its BOM says', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,é\n', 'utf16le')]);
    expect((await text(utf16)).out).toBe('a,é\n');
  });
});

describe('jsonRecord', () => {
  it('passes an object without the keys a rejects file adds', () => {
    expect(jsonRecord({ external_id: 'u1', _line: 3, _error: 'x' })).toEqual({
      record: { external_id: 'u1' },
    });
  });

  it('rejects what is no object, a value nested too deep, and a rejects file’s unparsed text', () => {
    expect(jsonRecord([1, 2])).toEqual({ record: {}, text: '[1,2]', error: 'Expected a JSON object' });
    let deep: unknown = {};
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(jsonRecord(deep, '{...}')).toEqual({
      record: {},
      text: '{...}',
      error: 'Nested deeper than 64 levels: not a contact',
    });
    expect(jsonRecord({ _raw: '{"external_id": u1}', _line: 2 })).toMatchObject({
      record: {},
      text: '{"external_id": u1}',
      error: expect.stringMatching(/^Not JSON in an earlier import/),
    });
  });
});

describe('parseEncodingOption', () => {
  it('takes the names people type, as TextDecoder labels', () => {
    expect(parseEncodingOption('Latin1')).toBe('windows-1252');
    expect(parseEncodingOption(' UTF8 ')).toBe('utf-8');
    expect(parseEncodingOption('utf-16le')).toBe('utf-16le');
    expect(() => parseEncodingOption('klingon')).toThrow(ImportError);
    expect(() => parseEncodingOption('klingon')).toThrow(/^Unknown encoding "klingon"/);
  });
});
