// A workbook's zip read as its directory promises, and no further: parts held whole are refused
// from the directory when too large, and a part expanding past what the directory gives (a zip
// bomb's trick) is refused as it passes that size, whichever part it is.
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/importer/errors.js';
import { openSource } from '../../../src/importer/sources/index.js';
import { inline, shared, sheetXml, stringsXml, workbookZip } from '../../helpers/xlsx.js';
import { fixture, readAll } from '../helpers.js';

const sheet = sheetXml([
  [shared(0), shared(1)],
  [inline('u1'), inline('Ada')],
]);
const strings = stringsXml(['external_id', 'name']);
const MiB = 1024 * 1024;

describe('the parts a workbook holds whole', () => {
  it('refuses shared strings expanding past 256 MiB from the directory, before reading them', async () => {
    // A few kilobytes whose directory says 1.2 GB: what a table of a hundred million empty
    // strings deflates to.
    const path = await fixture(
      'bomb.xlsx',
      workbookZip({ sheet, strings, declared: { 'xl/sharedStrings.xml': 1240 * MiB } }),
    );
    const error = await openSource(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe(
      `${path}: the workbook's shared strings (xl/sharedStrings.xml) would expand to 1240 MiB, more than the ` +
        '256 MiB this tool reads: save the sheet as CSV and import that',
    );
  });

  it('refuses styles or a workbook part expanding past 16 MiB', async () => {
    const styles = await fixture(
      'styles.xlsx',
      workbookZip({ sheet, strings, styles: '<styleSheet/>', declared: { 'xl/styles.xml': 17 * MiB } }),
    );
    await expect(openSource(styles)).rejects.toThrow(
      "the workbook's styles (xl/styles.xml) would expand to 17 MiB, more than the 16 MiB this tool reads",
    );
    const workbook = await fixture(
      'workbook.xlsx',
      workbookZip({ sheet, strings, declared: { 'xl/workbook.xml': 20 * MiB } }),
    );
    await expect(openSource(workbook)).rejects.toThrow(
      'the workbook part (xl/workbook.xml) would expand to 20 MiB, more than the 16 MiB this tool reads',
    );
  });
});

describe('a part that expands past what the directory gives', () => {
  it('is refused as damaged, shared strings or sheet alike', async () => {
    const lyingStrings = await fixture(
      'strings.xlsx',
      workbookZip({ sheet, strings, declared: { 'xl/sharedStrings.xml': 100 } }),
    );
    await expect(openSource(lyingStrings)).rejects.toThrow(
      'strings.xlsx: not a readable .xlsx workbook: xl/sharedStrings.xml: it expands past the 100 bytes its zip directory gives',
    );
    const lyingSheet = await fixture(
      'sheet.xlsx',
      workbookZip({ sheet, strings, declared: { 'xl/worksheets/sheet1.xml': 150 } }),
    );
    await expect(readAll(lyingSheet)).rejects.toThrow(
      'sheet.xlsx: not a readable .xlsx workbook: xl/worksheets/sheet1.xml: it expands past the 150 bytes its zip directory gives',
    );
  });

  it('and one that holds less than it gives is damaged too', async () => {
    const short = await fixture(
      'short.xlsx',
      workbookZip({ sheet, strings, declared: { 'xl/worksheets/sheet1.xml': sheet.length + 10 } }),
    );
    await expect(readAll(short)).rejects.toThrow(
      `xl/worksheets/sheet1.xml: it holds ${sheet.length} bytes where its zip directory gives ${sheet.length + 10}`,
    );
  });

  it('reads a sound workbook as before', async () => {
    const path = await fixture('sound.xlsx', workbookZip({ sheet, strings }));
    expect((await readAll(path)).map((r) => r.record)).toEqual([{ external_id: 'u1', name: 'Ada' }]);
  });
});
