// What a file says of itself: the order of its slash dates, the countries of its numbers.
import { describe, expect, it } from 'vitest';
import { FileEvidence } from '../../src/importer/file-evidence.js';
import { resolveMapping } from '../../src/importer/mapping.js';
import { DEFINITIONS } from './helpers.js';

const mapping = resolveMapping({
  header: ['User ID', 'Signup Date', 'Phone', 'Country'],
  definitions: DEFINITIONS,
});
const evidence = (options?: ConstructorParameters<typeof FileEvidence>[2]) =>
  new FileEvidence(mapping, DEFINITIONS, options);

describe('FileEvidence', () => {
  it('decides a date column by the first value that reads one way only, and says so once', () => {
    const e = evidence();
    e.observe(['u1', '3/4/2024', undefined, undefined]);
    expect(e.pending).toBe(true);
    expect(e.undecided()).toEqual({ header: 'Signup Date', example: '3/4/2024' });
    e.observe(['u2', '13/4/2024', undefined, undefined]);
    expect([e.pending, e.undecided(), e.dateOrder(1)]).toEqual([false, undefined, 'dmy']);
    expect(e.decisions()).toEqual([
      {
        code: 'date_order_decided',
        message:
          'Column "Signup Date" has dates like 3/4/2024 that read both ways; 13/4/2024 reads only as D/M/YYYY (day first), so the whole column is read so',
        column: 'Signup Date',
        order: 'dmy',
      },
    ]);
  });

  it('takes a given date order for every date column, undecided by none', () => {
    const e = evidence({ dateOrder: 'mdy' });
    e.observe(['u1', '3/4/2024', undefined, undefined]);
    expect([e.pending, e.undecided(), e.dateOrder(1), e.decisions()]).toEqual([false, undefined, 'mdy', []]);
  });

  it('learns from a number column that the file writes decimal commas, then holds 1.200 open', () => {
    const numbers = resolveMapping({ header: ['User ID', 'Seats', 'Plan'], definitions: DEFINITIONS });
    const e = new FileEvidence(numbers, DEFINITIONS);
    // A text column's "3,5" says nothing of the numbers.
    e.observe(['u1', '1.200', '3,5']);
    expect(e.decimalCommaFor(1, '1.200')).toBeUndefined();
    e.observe(['u2', '1.234,5', undefined]);
    expect(e.decimalCommaFor(1, '1.200')).toEqual({ column: 'Seats', example: '1.234,5' });
    expect(e.decimalCommaFor(1, '1.2')).toBeUndefined();
    // Rows after the look-ahead teach it too, as they are read.
    const later = new FileEvidence(numbers, DEFINITIONS);
    expect(later.decimalCommaFor(1, '0,5')).toBeUndefined();
    expect(later.decimalCommaFor(1, '-12.500')).toEqual({ column: 'Seats', example: '0,5' });
  });

  it("gathers the countries of the file's international numbers and country columns, sorted", () => {
    const e = evidence();
    e.observe(['u1', undefined, '+44 20 7946 0958', undefined]);
    e.observe(['u2', undefined, '030 901820', 'Germany']);
    expect(e.phoneCountries()).toEqual(['DE', 'GB']);
  });

  it('returns the first date-time without a zone, once, only when watching for it', () => {
    const watching = evidence({ watchLocalTimes: true });
    expect(watching.observe(['u1', '2024-03-22', undefined, undefined])).toBeUndefined();
    expect(watching.observe(['u2', '2024-03-22 17:59', undefined, undefined])).toEqual({
      column: 'Signup Date',
      example: '2024-03-22 17:59',
    });
    expect(watching.dateValue(1, '2024-03-23 09:00')).toBeUndefined();
    expect(evidence().dateValue(1, '2024-03-22 17:59')).toBeUndefined();
  });
});
