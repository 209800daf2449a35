// Opening an input as records: the format from --format, the name, or the content; what is not
// text refused; and a cheap count of the records for progress.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/importer/errors.js';
import { NotTextError } from '../../../src/importer/sources/binary.js';
import { countRows, openSource } from '../../../src/importer/sources/index.js';
import type { ImportSource } from '../../../src/importer/sources/types.js';
import { useTempHome } from '../../helpers/cli.js';

const home = useTempHome();

async function file(name: string, content: string | Buffer) {
  const path = join(home.dir, name);
  await writeFile(path, content);
  return path;
}

async function records(source: ImportSource) {
  const out: Record<string, unknown>[] = [];
  for await (const r of source.records) out.push(r.record);
  return out;
}

describe('openSource', () => {
  it('decides the format by the name, else by the content', async () => {
    expect((await openSource(await file('a.csv', 'id\n1\n'))).format).toBe('csv');
    expect((await openSource(await file('a.ndjson', '{"a":1}\n'))).format).toBe('ndjson');
    expect((await openSource(await file('data', '[{"a":1}]'))).format).toBe('json');
    expect(
      (await openSource(await file('cards', 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n'))).format,
    ).toBe('vcard');
  });

  it('reads a .json file of one object a line as NDJSON', async () => {
    const source = await openSource(await file('users.json', '{"a":1}\n{"a":2}\n'));
    expect(source.format).toBe('ndjson');
    expect(await records(source)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('reads stdin with --format, and takes tab for .tsv', async () => {
    const source = await openSource('-', {
      format: 'csv',
      stdin: Readable.from([Buffer.from('id;name\nu1;Ann\n')]),
    });
    expect(source.name).toBe('stdin');
    expect(await records(source)).toEqual([{ id: 'u1', name: 'Ann' }]);
    expect((await openSource(await file('a.tsv', 'id\tname\nu1\tAnn\n'))).delimiter).toBe('\t');
  });

  it('reads an .xls that is text (Meetup writes tab-separated text so named), and refuses one that is not', async () => {
    const notes: string[] = [];
    const meetup = await file('members.xls', 'Name\tUser ID\nAda\tuser 1\n');
    const source = await openSource(meetup, { onNote: (note) => notes.push(note.code) });
    expect([source.format, source.delimiter, notes]).toEqual(['csv', '\t', ['text_misnamed']]);
    expect(await records(source)).toEqual([{ Name: 'Ada', 'User ID': 'user 1' }]);
    const refused =
      'is an Excel 97-2003 workbook (.xls): open it in a spreadsheet and save it as .xlsx or CSV';
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    await expect(openSource(await file('real.xls', ole))).rejects.toThrow(refused);
    // A web page's table, as web apps save one: a spreadsheet opens it; this reads no HTML.
    const pages = [
      ['web.xls', '<html><table><tr><td>Ada</td></tr></table>'],
      ['head.xls', '<head><meta charset="utf-8"></head>\n<table><tr><td>Ada</td></tr></table>'],
      ['comment.xls', '<!-- export -->\n<table><tr><td>Ada</td></tr></table>'],
    ] as const;
    for (const [name, page] of pages)
      await expect(openSource(await file(name, page))).rejects.toThrow(refused);
  });

  it('refuses a file that is not text, and --sheet for anything but a workbook', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    await expect(openSource(await file('photo.csv', png))).rejects.toThrow(NotTextError);
    const csv = await file('a.csv', 'id\n1\n');
    const error = await openSource(csv, { sheet: 'Leads' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toBe(`A sheet applies to .xlsx workbooks; ${csv} is read as csv`);
    expect((error as ImportError).detail).toEqual({ code: 'sheet_not_workbook', file: csv, format: 'csv' });
  });

  it('counts what it read, for a resume', async () => {
    const source = await openSource(await file('a.csv', 'id\n1\n2\n'));
    await records(source);
    expect(source.consumed?.snapshot().bytes).toBe(Buffer.byteLength('id\n1\n2\n'));
  });
});

describe('countRows', () => {
  it('counts what openSource would yield, in each format', async () => {
    expect(await countRows(await file('a.csv', 'id,n\n1,"a\nb"\n\n2,x\n'), 'csv')).toBe(2);
    expect(await countRows(await file('a.ndjson', '{"a":1}\n\n{"a":2}\n'), 'ndjson')).toBe(2);
    expect(await countRows(await file('a.json', '[{"a":1},{"a":2},{"a":3}]'), 'json')).toBe(3);
    const cards =
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:B\r\nEND:VCARD\r\n';
    expect(await countRows(await file('a.vcf', cards), 'vcard')).toBe(2);
  });
});
