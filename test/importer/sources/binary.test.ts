// Files that are not text, given as CSV or with no extension, are refused naming what they look
// like, while UTF-16 text (with a BOM or without) is still read as text.
import { describe, expect, it } from 'vitest';
import { NotTextError } from '../../../src/importer/sources/binary.js';
import { openSource } from '../../../src/importer/sources/index.js';
import { fixture, readAll } from '../helpers.js';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
/** Some bytes that are not text: a program's code, NULs among them. */
const noise = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37 + 11) % 256));

const FILES: [string, Buffer, string][] = [
  ['a PNG image', bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'), 'photo'],
  ['a JPEG image', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF', [0]), 'photo'],
  ['a GIF image', bytes('GIF89a', [1, 0, 1, 0]), 'photo'],
  ['a PDF document', bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n'), 'report'],
  ['a gzip archive', bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), 'contacts'],
  ['an executable program (ELF)', bytes([0x7f], 'ELF', [2, 1, 1, 0, 0, 0, 0, 0]), 'tool'],
  ['an executable program (Windows)', bytes('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0]), 'setup'],
  ['binary data', noise, 'dump'],
];

describe('a file that is not text', () => {
  it.each(FILES)('refuses %s given as .csv or with no extension', async (kind, content, base) => {
    for (const name of [`${base}.csv`, base]) {
      const file = await fixture(name, content);
      const error = await openSource(file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotTextError);
      expect((error as NotTextError).looksLike).toBe(kind);
      expect((error as Error).message).toBe(
        `${file} is not a text file (it looks like ${kind}): ` +
          'export the contacts as CSV, a workbook (.xlsx), vCard or JSON',
      );
    }
  });

  it('refuses one given as JSON or vCard too, and with --format csv', async () => {
    const png = bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0, 0, 0, 13], 'IHDR');
    for (const name of ['photo.json', 'photo.vcf']) {
      await expect(openSource(await fixture(name, png))).rejects.toThrow(
        'is not a text file (it looks like a PNG image)',
      );
    }
    await expect(openSource(await fixture('photo', png), { format: 'csv' })).rejects.toThrow(NotTextError);
  });

  it('still reads a long CSV with a stray NUL in a cell', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `${i},Person ${i}`);
    rows[5] = '5,Per\u0000son 5';
    const file = await fixture('nul.csv', `external_id,name\n${rows.join('\n')}\n`);
    expect(await readAll(file)).toHaveLength(2000);
  });

  it('still reads a CSV whose header starts with MZ', async () => {
    const file = await fixture('mz.csv', 'MZ_id,name\n1,Ann\n');
    expect((await readAll(file)).map((r) => r.record)).toEqual([{ MZ_id: '1', name: 'Ann' }]);
  });
});

describe('UTF-16 text', () => {
  const text = 'external_id,name\r\nu1,Zoë Ñandú\r\nu2,Ada\r\n';

  it('reads UTF-16 with a BOM, without a word about its encoding', async () => {
    for (const [bom, encoded] of [
      [[0xff, 0xfe], Buffer.from(text, 'utf16le')],
      [[0xfe, 0xff], Buffer.from(text, 'utf16le').swap16()],
    ] as const) {
      const notes: unknown[] = [];
      const source = await openSource(
        await fixture('excel.csv', Buffer.concat([Buffer.from(bom), encoded])),
        {
          onNote: (note) => notes.push(note),
        },
      );
      const rows = [];
      for await (const r of source.records) rows.push(r.record);
      expect(rows).toEqual([
        { external_id: 'u1', name: 'Zoë Ñandú' },
        { external_id: 'u2', name: 'Ada' },
      ]);
      expect(notes).toEqual([]);
    }
  });

  it('reads UTF-16LE without a BOM, plain ASCII or not, and says how it read it', async () => {
    for (const content of [text, 'external_id,name\nu1,Ann\n']) {
      const file = await fixture('nobom.csv', Buffer.from(content, 'utf16le'));
      const notes: unknown[] = [];
      const source = await openSource(file, { onNote: (note) => notes.push(note) });
      const rows = [];
      for await (const r of source.records) rows.push(r.record);
      expect(rows[0]).toEqual(
        content === text ? { external_id: 'u1', name: 'Zoë Ñandú' } : { external_id: 'u1', name: 'Ann' },
      );
      // The flag that overrides it is the CLI's to name (test/cli/output/import-words.test.ts).
      expect(notes).toEqual([
        {
          code: 'encoding_guessed',
          message: `${file} is not UTF-8: reading it as UTF-16 (little-endian) without a BOM`,
          file,
          encoding: 'utf-16le',
        },
      ]);
    }
  });
});
