// Every format holds the limit of a record: a record longer than it (a quote or a string left
// open, a card without its end, a hostile file) stops the read there, naming the file, where the
// record starts and the limit, before much more than the limit is read. The limit is lowered
// here (`maxRecordChars`) so that the records are small; one JSON test runs at the real limit.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SourceParseError } from '../../../src/importer/errors.js';
import { countRows, type OpenSourceOptions, openSource } from '../../../src/importer/sources/index.js';
import { MAX_RECORD_CHARS } from '../../../src/importer/sources/record-limit.js';
import type { SourceRecord } from '../../../src/importer/sources/types.js';
import { inline, shared, sheetXml, stringsXml, workbookZip } from '../../helpers/xlsx.js';
import { fixture } from '../helpers.js';

const LIMIT = 10_000;

/** Stdin holding `head`, then `body` repeated `times` times in chunks of its own, then `tail`. */
function stdin(head: string, body: string, times: number, tail = ''): Readable {
  return Readable.from(
    (function* () {
      yield Buffer.from(head);
      const chunk = Buffer.from(body);
      for (let i = 0; i < times; i++) yield chunk;
      if (tail) yield Buffer.from(tail);
    })(),
  );
}

/** Reads the input to its end or its error: the records before, the error, and the bytes read. */
async function readUntilError(input: string, options: OpenSourceOptions) {
  const source = await openSource(input, { maxRecordChars: LIMIT, ...options });
  const records: SourceRecord[] = [];
  let error: unknown;
  try {
    for await (const record of source.records) records.push(record);
  } catch (e) {
    error = e;
  }
  return { records, error, read: source.consumed!.snapshot().bytes };
}

describe('JSON array', () => {
  it('stops at an element longer than the limit as it streams, after the elements before it', async () => {
    const { records, error, read } = await readUntilError('-', {
      stdin: stdin('[\n{"external_id":"1"},\n{"external_id":"2","name":"', 'a'.repeat(1000), 1000, '"}\n]\n'),
    });
    expect(records.map((r) => r.record)).toEqual([{ external_id: '1' }]);
    expect(error).toBeInstanceOf(SourceParseError);
    expect((error as SourceParseError).message).toBe(
      'stdin: line 3: record 2 of the array is longer than 10000 characters, far more than a contact ' +
        '(is a string or a bracket left open?)',
    );
    // A megabyte of it was there to read.
    expect(read).toBeLessThan(LIMIT + 2000);
  });

  it('measures a bare string too, which the tokenizer gives only once it ends', async () => {
    const { error, read } = await readUntilError('-', {
      stdin: stdin('["a", "', 'b'.repeat(1000), 1000, '"]'),
    });
    expect((error as Error).message).toContain(
      'line 1: record 2 of the array is longer than 10000 characters',
    );
    expect(read).toBeLessThan(LIMIT + 2000);
    // The first record is read as the source opens (its keys tell a known tool's export).
    await expect(
      openSource('-', { maxRecordChars: LIMIT, stdin: stdin('["', 'b'.repeat(1000), 1000, '"]') }),
    ).rejects.toThrow('line 1: record 1 of the array is longer than 10000 characters');
  });

  it('reads elements of any number, each under the limit, and white space of any length between them', async () => {
    const element = `{"external_id":"x","name":"${'n'.repeat(LIMIT - 100)}"}`;
    const text = `[${Array.from({ length: 20 }, () => element).join(`,${' '.repeat(LIMIT * 2)}\n`)}]`;
    const path = await fixture('wide.json', text);
    const { records, error } = await readUntilError(path, {});
    expect(error).toBeUndefined();
    expect(records).toHaveLength(20);
    expect(await countRows(path, 'json', undefined, { maxRecordChars: LIMIT })).toBe(20);
  });

  it('holds the real limit: a record of 17 MiB is refused, and the count stops at it', async () => {
    const path = await fixture(
      'big.json',
      `[{"external_id":"ok"},\n{"external_id":"big","name":"${'a'.repeat(MAX_RECORD_CHARS + 1024 * 1024)}"}]\n`,
    );
    const source = await openSource(path);
    const records: SourceRecord[] = [];
    const error = await (async () => {
      for await (const record of source.records) records.push(record);
    })().catch((e: unknown) => e);
    expect(records).toHaveLength(1);
    expect((error as Error).message).toBe(
      `${path}: line 2: record 2 of the array is longer than 16 MiB, far more than a contact ` +
        '(is a string or a bracket left open?)',
    );
    expect(source.consumed!.snapshot().bytes).toBeLessThan(MAX_RECORD_CHARS + 256 * 1024);
    expect(await countRows(path, 'json')).toBe(2);
  });
});

describe('NDJSON', () => {
  it('rejects a line longer than the limit without holding it, and reads on', async () => {
    const { records, error } = await readUntilError('-', {
      stdin: stdin(
        '{"external_id":"1"}\n{"external_id":"2","name":"',
        'c'.repeat(1000),
        100,
        '"}\n{"external_id":"3"}\n',
      ),
      format: 'ndjson',
    });
    expect(error).toBeUndefined();
    expect(records.map((r) => [r.line, r.error ?? r.record, r.text])).toEqual([
      [1, { external_id: '1' }, undefined],
      [
        2,
        'Line is longer than 10000 characters: rejected, and too long to keep in the rejects file',
        undefined,
      ],
      [3, { external_id: '3' }, undefined],
    ]);
  });
});

describe('CSV and other text', () => {
  it('stops at a quote never closed once its record passes the limit, naming the line it starts on', async () => {
    const { records, error, read } = await readUntilError('-', {
      stdin: stdin('external_id,name\nu1,Ada\nu2,"Alan\n', `${'d'.repeat(999)}\n`, 1000),
    });
    expect(records.map((r) => r.record)).toEqual([{ external_id: 'u1', name: 'Ada' }]);
    expect(error).toBeInstanceOf(SourceParseError);
    expect((error as SourceParseError).line).toBe(3);
    expect((error as Error).message).toContain(
      'the record that starts here is longer than 10000 characters, far more than a contact (is a quote left open?)',
    );
    expect(read).toBeLessThan(LIMIT + 70 * 1024);
  });

  it('holds it for a line without quotes, and for text in another encoding (UTF-16 with a BOM)', async () => {
    const plain = await readUntilError('-', {
      stdin: stdin('external_id,name\nu1,', 'e'.repeat(1000), 1000),
    });
    expect((plain.error as SourceParseError).line).toBe(2);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`external_id\tname\nu1\t"${'é'.repeat(LIMIT * 2)}\n`, 'utf16le'),
    ]);
    const path = await fixture('unicode.txt', utf16);
    const { error } = await readUntilError(path, {});
    expect((error as SourceParseError).line).toBe(2);
    expect((error as Error).message).toContain('longer than 10000 characters');
  });
});

describe('vCard', () => {
  it('stops at a card whose properties pass the limit (its END:VCARD missing), at its BEGIN line', async () => {
    const { records, error, read } = await readUntilError('-', {
      stdin: stdin(
        'BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Alan\n',
        `EMAIL:${'f'.repeat(90)}@example.com\n`,
        10_000,
      ),
    });
    expect(records.map((r) => r.record.name)).toEqual(['Ada']);
    expect((error as SourceParseError).line).toBe(5);
    expect((error as Error).message).toBe(
      'stdin: line 5: the card that begins here holds more than 10000 bytes, far more than a contact ' +
        '(is its END:VCARD missing?)',
    );
    expect(read).toBeLessThan(LIMIT + 70 * 1024);
  });

  it('does not count what it skips: a photo larger than the limit is no part of the card', async () => {
    const photo = `PHOTO;ENCODING=b;TYPE=JPEG:${'A'.repeat(LIMIT * 3)}\n`;
    const { records, error } = await readUntilError('-', {
      stdin: stdin(`BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nEMAIL:ada@example.com\n${photo}END:VCARD\n`, '', 0),
    });
    expect(error).toBeUndefined();
    expect(records.map((r) => r.record.email)).toEqual(['ada@example.com']);
  });
});

describe('workbook', () => {
  // A sheet's XML reaches the reader in pieces of some kilobytes: its limit is a mebibyte here.
  const limit = 1024 * 1024;
  const header = [inline('external_id'), inline('name')];
  const read = (path: string) => readUntilError(path, { maxRecordChars: limit });

  it('stops at a row whose XML passes the limit, before the reader holds it, naming the row before', async () => {
    // Over 5 MiB: the reader takes a smaller part whole, and a larger one a piece at a time.
    const wide = Array.from({ length: 6000 }, () => inline('g'.repeat(1000)));
    const path = await fixture(
      'wide.xlsx',
      workbookZip({ sheet: sheetXml([header, [inline('u1'), inline('Ada')], [inline('u2'), ...wide]]) }),
    );
    const { records, error } = await read(path);
    expect(records.map((r) => r.record)).toEqual([{ external_id: 'u1', name: 'Ada' }]);
    expect((error as Error).message).toBe(
      `${path} (sheet "Contacts"): after row 2: a row whose XML passes 1 MiB, far more than a contact`,
    );
  });

  it('stops at a row whose cells name long shared strings over and over', async () => {
    const path = await fixture(
      'repeated.xlsx',
      workbookZip({
        sheet: sheetXml([header, [inline('u1'), ...Array.from({ length: 11 }, () => shared(0))]]),
        strings: stringsXml(['h'.repeat(100_000)]),
      }),
    );
    const { error } = await read(path);
    expect((error as Error).message).toBe(
      `${path} (sheet "Contacts"): row 2 holds more than 1 MiB of text, far more than a contact`,
    );
  });

  it('refuses a shared string longer than the limit before reading a row', async () => {
    const path = await fixture(
      'long-string.xlsx',
      workbookZip({
        sheet: sheetXml([header, [shared(0), inline('Ada')]]),
        strings: stringsXml(['i'.repeat(limit + 1)]),
      }),
    );
    await expect(openSource(path, { maxRecordChars: limit })).rejects.toThrow(
      "long-string.xlsx: the workbook's shared strings (xl/sharedStrings.xml) hold a string longer than " +
        '1 MiB (string 1), far more than a cell of a contact: save the sheet as CSV and import that',
    );
  });

  it('reads rows up to the limit, and text cells through the shared strings', async () => {
    const path = await fixture(
      'fine.xlsx',
      workbookZip({
        sheet: sheetXml([
          [shared(0), shared(1)],
          [shared(2), shared(3)],
          [inline('u2'), inline('j'.repeat(limit - 1000))],
        ]),
        strings: stringsXml(['external_id', 'name', 'u1', 'Ada & Co']),
      }),
    );
    const { records, error } = await read(path);
    expect(error).toBeUndefined();
    expect(records.map((r) => r.record.name)).toEqual(['Ada & Co', 'j'.repeat(limit - 1000)]);
  });
});
