import { describe, expect, it } from 'vitest';
import { ImportError } from '../../src/importer/errors.js';
import {
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
    expect(() => parseFormatOption('xml')).toThrow('expected csv, tsv, json, ndjson or jsonl');
  });

  it('sniffs the format of unnamed input from its first character', () => {
    expect(sniffFormat('\uFEFF  [\n{')).toBe('json');
    expect(sniffFormat('\n{"a":1}\n')).toBe('ndjson');
    expect(sniffFormat('external_id,name\n')).toBe('csv');
    expect(sniffFormat('')).toBe('csv');
  });

  it('sniffs the delimiter from the header line, ignoring delimiters inside quotes', () => {
    expect(sniffDelimiter('external_id,name,email\n1;2;3;4;5\n')).toBe(',');
    expect(sniffDelimiter('external_id;name;"a, b, c"\n')).toBe(';');
    expect(sniffDelimiter('\uFEFFexternal_id\tname\t"x;y"\r\n')).toBe('\t');
    expect(sniffDelimiter('"multi\nline; header";b;c\n')).toBe(';');
    expect(sniffDelimiter('external_id\n')).toBe(',');
  });

  it('knows that .tsv means tab', () => {
    expect(delimiterFromName('x/contacts.tsv')).toBe('\t');
    expect(delimiterFromName('contacts.csv')).toBeUndefined();
  });
});
