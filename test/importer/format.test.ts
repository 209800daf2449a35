import { describe, expect, it } from 'vitest';
import { ImportError } from '../../src/importer/errors.js';
import {
  defaultRejectsPath,
  delimiterFromName,
  formatFromName,
  parseFormatOption,
  sniffDelimiter,
  sniffFormat,
} from '../../src/importer/format.js';

describe('format', () => {
  it('takes the format from an explicit option first, then the extension', () => {
    expect(formatFromName('a.csv', 'ndjson')).toBe('ndjson');
    expect(formatFromName('a.txt', 'TSV')).toBe('csv');
    expect(formatFromName('a.jsonl', 'json')).toBe('json');
    expect(['a.csv', 'a.TSV', 'a.json', 'a.ndjson', 'a.jsonl'].map((f) => formatFromName(f))).toEqual([
      'csv',
      'csv',
      'json',
      'ndjson',
      'ndjson',
    ]);
    expect(formatFromName('export.txt')).toBeUndefined();
    expect(formatFromName('-')).toBeUndefined();
  });

  it('rejects an unknown explicit format', () => {
    expect(() => parseFormatOption('xml')).toThrow(ImportError);
    expect(() => parseFormatOption('xml')).toThrow(
      'expected csv, tsv, json, ndjson, jsonl, xlsx or vcard (vcf)',
    );
  });

  it('sniffs the format of unnamed input from its first character', () => {
    expect(sniffFormat('\uFEFF  [\n{')).toBe('json');
    expect(sniffFormat('\n{"a":1}\n')).toBe('ndjson');
    expect(sniffFormat('external_id,name\n')).toBe('csv');
    expect(sniffFormat('')).toBe('csv');
  });

  it('knows workbooks and vCards by extension, name and content, and refuses the ones it cannot read', () => {
    expect(['a.xlsx', 'a.XLSM', 'a.vcf', 'a.vcard'].map((f) => formatFromName(f))).toEqual([
      'xlsx',
      'xlsx',
      'vcard',
      'vcard',
    ]);
    expect(['xlsx', 'vcf', 'VCARD'].map(parseFormatOption)).toEqual(['xlsx', 'vcard', 'vcard']);
    expect(() => formatFromName('old.xls')).toThrow('old.xls is an Excel 97-2003 workbook (.xls): open it');
    expect(() => formatFromName('sheet.ods')).toThrow(ImportError);
    expect(formatFromName('old.xls', 'csv')).toBe('csv');
    expect(sniffFormat('PK\u0003\u0004\u0014\u0000')).toBe('xlsx');
    expect(sniffFormat('\uFEFFBEGIN:VCARD\r\nVERSION:3.0\r\n')).toBe('vcard');
    expect(sniffFormat('begin:vcard\n')).toBe('vcard');
    expect(sniffFormat('BEGIN:VCARDS,x\n')).toBe('csv');
    // Their rejects are CSV rows under the same columns.
    expect(defaultRejectsPath('/d/book.xlsx', 'xlsx')).toBe('/d/book.rejects.csv');
    expect(defaultRejectsPath('/d/cards.vcf', 'vcard')).toBe('/d/cards.rejects.csv');
  });

  it('sniffs the delimiter from the header line, ignoring delimiters inside quotes', () => {
    expect(sniffDelimiter('external_id,name,email\n1;2;3;4;5\n')).toBe(',');
    expect(sniffDelimiter('external_id;name;"a, b, c"\n')).toBe(';');
    expect(sniffDelimiter('\uFEFFexternal_id\tname\t"x;y"\r\n')).toBe('\t');
    expect(sniffDelimiter('"multi\nline; header";b;c\n')).toBe(';');
    expect(sniffDelimiter('external_id\n')).toBe(',');
    // A report's title line says nothing: the lines after it decide (a Teams attendance report).
    const teams = [
      '1. Summary',
      'Meeting title\tQuarterly Partner Sync',
      'Start time\t3/4/25, 9:58:12 AM',
      '',
      '2. Participants',
      'Name\tFirst Join\tLast Leave\tEmail',
      'Ann Lee\t3/4/25, 9:58:12 AM\t3/4/25, 11:02:40 AM\tann@example.com',
    ].join('\r\n');
    expect(sniffDelimiter(teams)).toBe('\t');
    expect(sniffDelimiter('Attendee Report\nTopic,Webinar ID\nA,1\n')).toBe(',');
    // A title line with a delimiter of its own is the header, as ever.
    expect(sniffDelimiter('Report, 2024\na\tb\tc\n')).toBe(',');
    // The delimiter in most lines, not the most often: tags split by `;` in a comma file.
    expect(
      sniffDelimiter(
        'Members 2026\nName,Email,Interests\nAnn,a@x.co,golf;chess;wine\nBo,b@x.co,golf;jazz;art\n',
      ),
    ).toBe(',');
    // Lines ending in CR alone (Excel's CSV for Macintosh): the header line decides.
    expect(sniffDelimiter('Name;Email;Notes\rAnn;a@x.co;a, b, c, d\rBo;b@x.co;x, y, z\r')).toBe(';');
    // A preamble of lines without any before the table.
    expect(
      sniffDelimiter(
        'Kontaktliste\nExportiert von: Max Muster\nDatum: 29.11.2026\nFilter: alle\n\nName;E-Mail;Firma\nAlice;a@x.co;Acme\nBob;b@x.co;Beta\n',
      ),
    ).toBe(';');
    // One column: a cell's `a; b` is no delimiter.
    expect(sniffDelimiter('Email\na@x.co\nb@x.co; b@work.co\nc@x.co\nd@x.co\n')).toBe(',');
  });

  it('knows that .tsv means tab', () => {
    expect(delimiterFromName('x/contacts.tsv')).toBe('\t');
    expect(delimiterFromName('contacts.csv')).toBeUndefined();
  });
});
