// The one table of file extensions: what the importer reads, what export and results write, and
// what both refuse, whatever the case of the name.
import { describe, expect, it } from 'vitest';
import { exportFormat } from '../../src/cli/commands/export.js';
import { formatFromName } from '../../src/importer/format.js';
import { FORMAT_ALIASES, fileType } from '../../src/importer/format-names.js';
import { resultsFormat } from '../../src/importer/results.js';

describe('fileType', () => {
  it('knows an extension in any case, and nothing of names that are not extensions it knows', () => {
    expect(fileType('.CSV')).toEqual({ reads: 'csv', written: 'csv' });
    expect(fileType('.txt')).toBeUndefined();
    expect(fileType('__proto__')).toBeUndefined();
    expect(fileType('.constructor')).toBeUndefined();
  });

  it('reads as --format reads: every extension read names a format --format takes', () => {
    for (const ext of [
      '.csv',
      '.tsv',
      '.json',
      '.ndjson',
      '.jsonl',
      '.xlsx',
      '.xlsm',
      '.xltx',
      '.vcf',
      '.vcard',
    ])
      expect(Object.values(FORMAT_ALIASES)).toContain(fileType(ext)?.reads);
  });

  it('one table for the importer, export and the results file', () => {
    expect(formatFromName('a.JSONL')).toBe('ndjson');
    expect(() => formatFromName('a.numbers')).toThrow(
      'a.numbers is a Numbers document (.numbers): export it',
    );
    expect(exportFormat('export', undefined, 'a.jsonl')).toBe('ndjson');
    expect(() => exportFormat('export', undefined, 'a.xlsm')).toThrow(
      'cannot write a macro-enabled workbook',
    );
    expect(() => exportFormat('export', undefined, 'a.xltx')).toThrow('cannot tell which format');
    expect(resultsFormat('r.JSONL')).toBe('ndjson');
    expect(() => resultsFormat('r.json')).toThrow('name a .csv or .ndjson file');
  });
});
