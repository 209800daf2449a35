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

  it("learns the file's decimal mark from its number columns, in the look-ahead and after", () => {
    const numbers = resolveMapping({ header: ['User ID', 'Seats', 'Plan'], definitions: DEFINITIONS });
    const e = new FileEvidence(numbers, DEFINITIONS);
    // A text column's "3,5" says nothing of the numbers; 1.200 shows no mark.
    e.observe(['u1', '1.200', '3,5']);
    expect(e.decimalMark(1, '1.200')).toBeUndefined();
    e.observe(['u2', '1.234,5', undefined]);
    expect(e.decimalMark(1, '1.200')).toEqual({ mark: ',', column: 'Seats', example: '1.234,5' });
    // Numbers that show both marks say nothing of 1.200.
    e.observe(['u3', '2.5', undefined]);
    expect(e.decimalMark(1, '1.200')).toBeUndefined();
    expect(e.decimalMarksDisagree()).toEqual([
      { mark: ',', column: 'Seats', example: '1.234,5' },
      { mark: '.', column: 'Seats', example: '2.5' },
    ]);
    // Rows after the look-ahead teach it too, as they are read.
    const later = new FileEvidence(numbers, DEFINITIONS);
    expect(later.decimalMark(1, '1,250')).toBeUndefined();
    expect(later.decimalMark(1, '1,234.50')).toEqual({ mark: '.', column: 'Seats', example: '1,234.50' });
    // A workbook's number cells read 3.5 in any locale: only its text cells show a mark.
    const book = new FileEvidence(numbers, DEFINITIONS, { workbook: true });
    expect(book.decimalMark(1, '3.5')).toBeUndefined();
    expect(book.decimalMark(1, '1.234,56')?.mark).toBe(',');
  });

  it("gathers the countries of the file's international numbers and country columns, sorted", () => {
    const e = evidence();
    e.observe(['u1', undefined, '+44 20 7946 0958', undefined]);
    e.observe(['u2', undefined, '030 901820', 'Germany']);
    expect(e.phoneCountries()).toEqual(['DE', 'GB']);
  });

  it('tells a file that writes its numbers with their country code and no + (an SMS tool’s)', () => {
    const sms = evidence();
    for (const phone of ['447911123456', '33612345678', '4915112345678'])
      sms.observe(['u', undefined, phone, undefined]);
    expect(sms.writesCountryCodes()).toBe(true);
    // A Chinese list's eleven-digit mobiles, two written with +86's digits: not the file's way.
    const national = evidence();
    for (const phone of ['8613812345678', '8613912345678', '13812345670', '13812345671', '13812345672'])
      national.observe(['u', undefined, phone, undefined]);
    expect(national.writesCountryCodes()).toBe(false);
    const one = evidence();
    one.observe(['u', undefined, '4915112345678', undefined]);
    expect(one.writesCountryCodes()).toBe(false);
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

  it("reads a country one or two numbers name as its national numbers' only where the file shows it its own", () => {
    const row = (phone: string, country?: string) => ['u', undefined, phone, country];
    const observed = (phones: string[]) => {
      const e = evidence();
      for (const phone of phones) e.observe(row(phone));
      return e;
    };
    const mobiles = (n: number, grouped = true) =>
      Array.from({ length: n }, (_, i) => `07400${grouped ? ' ' : ''}${123450 + i}`);
    // A UK list with one Indian contact: none of its numbers written as India writes its own
    // (074001 23456).
    const uk = observed([...mobiles(10), '+91 98765 43210']);
    expect(uk.phoneCountries()).toEqual(['IN']);
    expect(uk.mostlyNational()).toBe(true);
    expect(uk.nationalCountries()).toEqual([]);
    // Digits alone say nothing of the writing: refused alike.
    expect(observed([...mobiles(10, false), '+91 98765 43210']).nationalCountries()).toEqual([]);
    // Three numbers of a country read them: a list's home country written both ways.
    const three = ['+44 20 7946 0001', '+44 20 7946 0002', '+44 20 7946 0003'];
    expect(observed([...mobiles(40, false), ...three, '+91 98765 43210']).nationalCountries()).toEqual([
      'GB',
    ]);
    // However small the file.
    expect(observed([...mobiles(2, false), '+91 98765 43210']).nationalCountries()).toEqual([]);
    // A US survey's: one +1, the rest written as the US writes them.
    const us = observed([
      ...Array(12).fill('(303) 555-0101'),
      '303-555-0102',
      '+1 303 555 0104',
      '514 555 0106',
    ]);
    expect(us.mostlyNational()).toBe(true);
    expect(us.nationalCountries()).toEqual(['US']);
    // As many told as not: the file's own evidence reads them, as before.
    const half = observed(['07400 123 456', '+91 98765 43210']);
    expect(half.mostlyNational()).toBe(false);
    expect(half.nationalCountries()).toEqual(['IN']);
    // A row that names its country tells it; words in the phone column are no number.
    const named = evidence();
    named.observe(row('030 901820', 'Germany'));
    named.observe(row('Cells'));
    named.observe(row('07400 123 456'));
    expect(named.mostlyNational()).toBe(false);
    // Digits that read with their country code tell it, in a file that writes its numbers so.
    expect(observed(['447911123456', '33612345678', '4915112345678', '33612345679']).mostlyNational()).toBe(
      false,
    );
  });

  it('counts the rows placed after those observed ahead, up to the look-ahead’s thousand, each number once', () => {
    const e = evidence();
    e.observe(['u1', undefined, '+91 98765 43210', undefined], 1);
    e.countPlaced(1, '+91 98765 43210', { country: 'IN' }); // observed ahead: not counted again
    expect(e.mostlyNational()).toBe(false);
    for (let i = 2; i < 13; i++) e.countPlaced(i, `07400 123 ${400 + i}`, undefined);
    expect(e.mostlyNational()).toBe(true);
    expect(e.nationalCountries()).toEqual([]);
    // India writes London's 020 numbers as Pune's: a coincidence the writing cannot tell, where
    // they are two in three of the national numbers.
    for (let i = 13; i < 45; i++) e.countPlaced(i, `020 7946 ${1000 + i}`, undefined);
    expect(e.nationalCountries()).toEqual(['IN']);
    for (let i = 45; i < 1000; i++) e.countPlaced(i, '07400 123 456', undefined);
    expect(e.nationalCountries()).toEqual([]);
    // Rows after the thousandth are not counted: three +91 numbers there change nothing.
    for (let i = 1000; i < 1003; i++) e.countPlaced(i, '+91 98765 43210', { country: 'IN' });
    expect(e.nationalCountries()).toEqual([]);
    // Rows with no number do not use up the count.
    const late = evidence();
    for (let i = 1; i <= 1000; i++) late.observe(['u', undefined, undefined, undefined], i);
    for (const [i, phone] of ['+91 98765 43210', '07400 123 456', '07400 123 457'].entries())
      late.countPlaced(1001 + i, phone, i === 0 ? { country: 'IN' } : undefined);
    expect(late.mostlyNational()).toBe(true);
    expect(late.nationalCountries()).toEqual([]);
    // A country named by one or two numbers reads only what it writes as its own; three, anything.
    expect(late.readsOnlyAsOwn('IN')).toBe(true);
    for (let i = 0; i < 2; i++) late.countPlaced(1004 + i, '+91 98765 43211', { country: 'IN' });
    expect(late.readsOnlyAsOwn('IN')).toBe(false);
    // Two numbers of one calling code (the US's and Canada's) beside twenty national ones read none.
    const both = evidence();
    const phones = [
      '+1 415 555 0100',
      '+1 416 555 0101',
      '(415) 555-0132',
      ...Array(20).fill('07400 123 456'),
    ];
    for (const [i, phone] of phones.entries()) both.observe(['u', undefined, phone, undefined], i + 1);
    expect(both.phoneCountries()).toEqual(['CA', 'US']);
    expect(both.nationalCountries()).toEqual([]);
  });
});
