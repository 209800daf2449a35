// CSV cells as this tool writes them and reads them back: formulas neutralised, and restored.
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import {
  CSV_WRITE_OPTIONS,
  csvCell,
  neutraliseFormula,
  restoreFormula,
} from '../../src/importer/csv-text.js';

describe('neutraliseFormula and restoreFormula', () => {
  it('prefixes what a spreadsheet would run, and the inverse takes one prefix off again', () => {
    for (const formula of ['=SUM(A1)', '+442079460958', '@cmd', '-x', '\tx', '\rx', "'=already"]) {
      const written = neutraliseFormula(formula);
      expect(written, formula).toBe(`'${formula}`);
      expect(restoreFormula(written), formula).toBe(formula);
    }
  });

  it('leaves negative numbers and plain text alone, both ways', () => {
    for (const value of ['-5', '-1.5e3', '-.5', 'plain', "it's", "'quoted"]) {
      expect(neutraliseFormula(value), value).toBe(value);
      expect(restoreFormula(value), value).toBe(value);
    }
  });
});

describe('csvCell and CSV_WRITE_OPTIONS', () => {
  it('write null as an unquoted empty cell and the empty string as "", spaces kept in quotes', () => {
    const line = stringify(
      [[csvCell(null), csvCell(''), csvCell(' pad '), csvCell('=1+1'), csvCell(undefined)]],
      CSV_WRITE_OPTIONS,
    );
    expect(line).toBe(`,""," pad ",'=1+1,\n`);
  });
});
