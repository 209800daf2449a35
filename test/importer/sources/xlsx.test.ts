// Workbooks written by other programs, read through openSource as `contacts import` reads them:
// the committed fixtures (test/fixtures/workbooks/make.sh wrote them with openpyxl, pandas and
// LibreOffice Calc), and zips laid out as .NET writers and Excel lay theirs out, built here.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NotTextError } from '../../../src/importer/sources/binary.js';
import { countRows, openSource } from '../../../src/importer/sources/index.js';
import { readAll, tempDir } from '../helpers.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/workbooks/', import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);

const HEADER = ['id', 'name', 'email', 'phone', 'signed_up', 'vip'];
/** The people every fixture holds, each cell as a person sees it in the sheet. */
const PEOPLE = [
  ['101', 'Ada Lovelace', 'ada@example.com', '+1 415 555 0101', '2024-03-22', 'TRUE'],
  ['102', 'Alan Turing', 'alan@example.com', '+44 20 7946 0102', '2023-11-12T17:59:00', 'FALSE'],
  ['103', 'Grace Hopper', 'grace@example.com', '+1 415 555 0103', '2022-01-05', 'TRUE'],
  ['104', 'Zoë Ñandú', 'zoe@example.com', '+44 20 7946 0104', '2021-07-30', 'FALSE'],
];
const RECORDS = PEOPLE.map((cells) => Object.fromEntries(HEADER.map((h, i) => [h, cells[i]])));

/** Open a workbook, read it whole, and return what a caller sees of it. */
async function readWorkbook(file: string, sheet?: string) {
  const notes: string[] = [];
  const source = await openSource(file, { sheet, onNote: (note) => notes.push(note.message) });
  const records = [];
  for await (const r of source.records) records.push(r);
  return { source, records, notes };
}

describe('workbooks written by other programs', () => {
  it.each([
    ['openpyxl-contacts.xlsx', 'Contacts', undefined],
    ['openpyxl-two-sheets.xlsx', 'Leads', 'Leads'],
    ['pandas.xlsx', 'export', undefined],
    ['libreoffice-csv.xlsx', 'libreoffice-csv', undefined],
    ['libreoffice-ods.xlsx', 'libreoffice-ods', undefined],
  ])('%s: every row with every field (sheet %s)', async (name, sheetName, sheet) => {
    const { source, records, notes } = await readWorkbook(fixture(name), sheet);
    expect(source.format).toBe('xlsx');
    expect(source.sheet).toBe(sheetName);
    expect(source.header).toEqual(HEADER);
    expect(records.map((r) => r.record)).toEqual(RECORDS);
    expect(records.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    // A zip's bytes are never taken for text in some encoding.
    expect(notes).toEqual([]);
    expect(await countRows(fixture(name), 'xlsx', undefined, { sheet })).toBe(PEOPLE.length);
  });

  it('reads a formula saved without its result (openpyxl does not calculate) as no value, not NaN', async () => {
    const { records, notes } = await readWorkbook(fixture('openpyxl-formulas.xlsx'));
    expect(records.map((r) => r.raw)).toEqual([
      ['Ada', 'Lovelace', undefined, 'ada@example.com'],
      ['Alan', 'Turing', undefined, 'alan@example.com'],
    ]);
    // Said once, with the way to the values.
    expect(notes).toEqual([
      `${fixture('openpyxl-formulas.xlsx')} (sheet "Formulas"): row 2 holds formulas with no value saved (a program ` +
        'that does not calculate wrote the workbook, or the formula gives an error such as #N/A), read as empty cells: ' +
        'where they were not calculated, open the workbook in a spreadsheet program, save it, and import it again',
    ]);
  });

  it('takes the first sheet by default, even when the table is on another', async () => {
    const { source, records } = await readWorkbook(fixture('openpyxl-two-sheets.xlsx'));
    expect(source.sheet).toBe('Summary');
    expect(source.header).toEqual(['Leads from the spring fair']);
    expect(records.map((r) => r.raw)).toEqual([['Exported for the CRM import; see the Leads sheet.']]);
  });

  it.each(['openpyxl-extra-sheets.xlsx', 'libreoffice-extra-sheets.xlsx'])(
    '%s: names the other sheets that hold values when none was asked for, not one of a styled cell alone',
    async (name) => {
      const { source, records, notes } = await readWorkbook(fixture(name));
      expect(source.sheet).toBe('Contacts');
      expect(records.map((r) => r.record)).toEqual(RECORDS);
      expect(notes).toEqual([
        `${fixture(name)}: the first sheet, "Contacts", is read; the other sheets with values in them are not: "Lookups"`,
      ]);
    },
  );

  it('reads the first visible sheet that holds a value: past a hidden sheet of settings and an empty Sheet1', async () => {
    const file = fixture('openpyxl-hidden-first.xlsx');
    const { source, records, notes } = await readWorkbook(file);
    expect(source.sheet).toBe('Contacts');
    expect(records.map((r) => r.record)).toEqual(RECORDS);
    expect(notes).toEqual([
      `${file}: the first sheet with values, "Contacts", is read; the other sheets with values in them are not: "Notes"`,
    ]);
    // Named, a hidden sheet is read as any other.
    const hidden = await readWorkbook(file, 'config');
    expect(hidden.source.sheet).toBe('Config');
    expect(hidden.records.map((r) => r.record)).toEqual([{ key: 'version', value: '2' }]);
    expect(hidden.notes).toEqual([]);
  });

  it('names no other sheet when one was asked for', async () => {
    expect((await readWorkbook(fixture('openpyxl-extra-sheets.xlsx'), 'Contacts')).notes).toEqual([]);
    expect((await readWorkbook(fixture('openpyxl-two-sheets.xlsx'))).notes).toEqual([
      `${fixture('openpyxl-two-sheets.xlsx')}: the first sheet, "Summary", is read; the other sheets with values in them are not: "Leads"`,
    ]);
  });

  it('names the sheets there are when --sheet names none of them', async () => {
    await expect(openSource(fixture('openpyxl-two-sheets.xlsx'), { sheet: 'People' })).rejects.toThrow(
      'openpyxl-two-sheets.xlsx: the workbook has no sheet "People" (sheets: Summary, Leads)',
    );
  });

  it('reads a workbook named as CSV as the workbook it is, and says so', async () => {
    const file = join(await tempDir(), 'export.csv');
    await copyFile(fixture('pandas.xlsx'), file);
    const { source, records, notes } = await readWorkbook(file);
    expect(source.format).toBe('xlsx');
    expect(records.map((r) => r.record)).toEqual(RECORDS);
    expect(notes).toEqual([`${file} is an Excel workbook (.xlsx), not csv: reading it as one`]);
  });
});

/** A zip of stored entries, in the order given (enough for a workbook written part by part). */
function zip(entries: [string, string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A sheet of these rows; each cell is its `<c>` element's attributes and content. */
function sheetXml(rows: string[][]): string {
  const body = rows
    .map((cells, r) => {
      const row = cells.map((c, i) => `<c r="${String.fromCharCode(65 + i)}${r + 1}"${c}</c>`).join('');
      return `<row r="${r + 1}">${row}</row>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><worksheet xmlns="${MAIN}"><sheetData>${body}</sheetData></worksheet>`;
}
const str = (text: string) => ` t="str"><v>${text}</v>`;
const inline = (text: string) => ` t="inlineStr"><is><t>${text}</t></is>`;
const num = (n: number, style?: number) => `${style === undefined ? '' : ` s="${style}"`}><v>${n}</v>`;
const bool = (b: boolean) => ` t="b"><v>${b ? 1 : 0}</v>`;

/**
 * A workbook laid out as .NET writers lay theirs out: the parts under names of their own
 * (`xl/worksheets/Export.xml`, `xl/workbook2.xml`), absolute targets, the workbook after the
 * sheets, text in `t="str"` and inline cells, a date serial in a cell styled with the built-in
 * date format (14), and a chart sheet first in the tab order.
 */
function dotNetWorkbook(): Buffer {
  const people = sheetXml([
    [str('id'), str('name'), inline('email'), str('signed_up'), str('vip')],
    [num(101), str('Ada &amp; Co'), inline('ada@example.com'), num(45373, 1), bool(true)],
  ]);
  const other = sheetXml([[str('external_id')], [str('not-this-one')]]);
  return zip([
    ['[Content_Types].xml', '<Types/>'],
    [
      '_rels/.rels',
      `<Relationships xmlns="${PKG}"><Relationship Id="R1" Type="${R}/officeDocument" Target="/xl/workbook2.xml"/></Relationships>`,
    ],
    ['xl/worksheets/Export.xml', people],
    ['xl/worksheets/Other.xml', other],
    [
      'xl/styles.xml',
      `<styleSheet xmlns="${MAIN}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    ],
    ['xl/chartsheets/chart.xml', '<chartsheet/>'],
    [
      'xl/_rels/workbook2.xml.rels',
      `<Relationships xmlns="${PKG}">` +
        `<Relationship Target="/xl/chartsheets/chart.xml" Type="${R}/chartsheet" Id="Rc"/>` +
        `<Relationship Target="/xl/worksheets/Other.xml" Type="${R}/worksheet" Id="Ro"/>` +
        `<Relationship Target="/xl/worksheets/Export.xml" Type="${R}/worksheet" Id="Re"/>` +
        `<Relationship Target="/xl/styles.xml" Type="${R}/styles" Id="Rs"/>` +
        '</Relationships>',
    ],
    [
      'xl/workbook2.xml',
      `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets>` +
        '<sheet name="Chart" sheetId="3" r:id="Rc"/><sheet name="Export" sheetId="1" r:id="Re"/>' +
        '<sheet name="Other" sheetId="2" r:id="Ro"/></sheets></workbook>',
    ],
  ]);
}

/**
 * A workbook whose first tab holds no value, whatever its XML holds: a cell of spaces (inline and
 * shared), an empty
 * formula result, a style alone, and after its rows a data validation naming the next sheet
 * (`<xm:f>`, as Excel writes one that refers to another sheet); the table is on the second tab.
 */
function blankFirstWorkbook(): Buffer {
  const blank =
    `<?xml version="1.0" encoding="utf-8"?><worksheet xmlns="${MAIN}" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">` +
    '<sheetData><row r="1"><c r="A1"' +
    inline(' ') +
    '</c><c r="B1"><f>""</f><v></v></c><c r="C1" s="1"/><c r="D1" t="s"><v>0</v></c></row></sheetData>' +
    '<extLst><ext><x14:dataValidations xmlns:x14="x"><x14:dataValidation><x14:formula1><xm:f>People!$A$2:$A$9</xm:f>' +
    '</x14:formula1></x14:dataValidation></x14:dataValidations></ext></extLst></worksheet>';
  const people = sheetXml([
    [str('name'), str('email')],
    [str('Ann Lee'), inline('ann@example.com')],
  ]);
  return zip([
    ['[Content_Types].xml', '<Types/>'],
    [
      '_rels/.rels',
      `<Relationships xmlns="${PKG}"><Relationship Id="R1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets>` +
        '<sheet name="Sheet1" sheetId="1" r:id="Rb"/><sheet name="People" sheetId="2" r:id="Rp"/></sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PKG}">` +
        `<Relationship Target="worksheets/sheet1.xml" Type="${R}/worksheet" Id="Rb"/>` +
        `<Relationship Target="worksheets/sheet2.xml" Type="${R}/worksheet" Id="Rp"/>` +
        `<Relationship Target="sharedStrings.xml" Type="${R}/sharedStrings" Id="Rs"/>` +
        '</Relationships>',
    ],
    // A shared string of spaces, as Excel and LibreOffice store a cell typed so.
    [
      'xl/sharedStrings.xml',
      `<sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t xml:space="preserve">  </t></si></sst>`,
    ],
    ['xl/worksheets/sheet1.xml', blank],
    ['xl/worksheets/sheet2.xml', people],
  ]);
}

describe('workbooks laid out by other writers', () => {
  it('finds the parts through absolute targets, whatever their names and order', async () => {
    const file = join(await tempDir(), 'dotnet.xlsx');
    await writeFile(file, dotNetWorkbook());
    const { source, records } = await readWorkbook(file);
    expect(source.sheet).toBe('Export');
    expect(source.header).toEqual(['id', 'name', 'email', 'signed_up', 'vip']);
    expect(records.map((r) => r.record)).toEqual([
      { id: '101', name: 'Ada & Co', email: 'ada@example.com', signed_up: '2024-03-22', vip: 'TRUE' },
    ]);
    expect((await readWorkbook(file, 'Other')).records.map((r) => r.record)).toEqual([
      { external_id: 'not-this-one' },
    ]);
    await expect(openSource(file, { sheet: 'Chart' })).rejects.toThrow('(sheets: Export, Other)');
  });

  it('passes over a first tab that holds no value, however its XML is filled, to the table on the next', async () => {
    const file = join(await tempDir(), 'blank-first.xlsx');
    await writeFile(file, blankFirstWorkbook());
    const { source, records, notes } = await readWorkbook(file);
    expect(source.sheet).toBe('People');
    expect(records.map((r) => r.record)).toEqual([{ name: 'Ann Lee', email: 'ann@example.com' }]);
    expect(notes).toEqual([`${file}: the first sheet with values, "People", is read`]);
  });

  it('refuses a zip that holds no workbook: as not a workbook when named .xlsx, as not text otherwise', async () => {
    const dir = await tempDir();
    const docx = zip([
      ['[Content_Types].xml', '<Types/>'],
      ['word/document.xml', '<document/>'],
    ]);
    await writeFile(join(dir, 'letter.xlsx'), docx);
    await expect(openSource(join(dir, 'letter.xlsx'))).rejects.toThrow(
      'letter.xlsx: not a readable .xlsx workbook: the zip archive holds no workbook (xl/workbook.xml); ' +
        'it looks like a Word document (.docx)',
    );
    for (const name of ['letter.csv', 'letter']) {
      const file = join(dir, name);
      await writeFile(file, docx);
      const error = await openSource(file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotTextError);
      expect((error as Error).message).toBe(
        `${file} is not a text file (it looks like a Word document (.docx)): ` +
          'export the contacts as CSV, a workbook (.xlsx), vCard or JSON',
      );
    }
  });

  it('reads the same rows from a fixture fed through stdin', async () => {
    const bytes = await readFile(fixture('openpyxl-two-sheets.xlsx'));
    const records = await readAll('-', { stdin: Readable.from([bytes]), sheet: 'Leads' });
    expect(records.map((r) => r.record)).toEqual(RECORDS);
  });
});
