import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMapOption } from '../../src/cli/map-options.js';
import { summarizeMapping } from '../../src/cli/output/mapping-summary.js';
import { FileEvidence } from '../../src/importer/file-evidence.js';
import { resolveMapping } from '../../src/importer/mapping.js';
import { createRowValidator, type RowResult } from '../../src/importer/row-validator.js';
import type { SourceRecord } from '../../src/importer/sources/types.js';
import { DEFINITIONS } from './helpers.js';

const HEADER = ['User ID', 'Full Name', 'E-mail', 'Phone', 'Plan', 'Seats', 'VIP', 'Signup Date', 'Legacy'];
const csvMapping = resolveMapping({
  header: HEADER,
  definitions: DEFINITIONS,
  overrides: [parseMapOption('Legacy=attr.legacy_code')],
});
const csvRow = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
const strictRow = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping, strict: true });
const jsonRow = createRowValidator({ definitions: DEFINITIONS });

// Cells as the CSV source hands them on: undefined for an empty unquoted cell (not given).
const cells = (values: Partial<Record<(typeof HEADER)[number], string>>, line = 2): SourceRecord => {
  const raw = HEADER.map((h) => values[h]);
  return { row: line - 1, line, raw, record: Object.fromEntries(HEADER.map((h, i) => [h, raw[i]])) };
};
const json = (record: Record<string, unknown>, line = 1): SourceRecord => ({
  row: line,
  line,
  record,
});
const reason = (result: RowResult) => (result.ok ? null : result.reason);

describe('CSV rows', () => {
  it('leaves empty cells out, trims what the contract trims, and coerces attributes by type', () => {
    const result = csvRow(
      cells({
        'User ID': '  u1 ',
        'Full Name': 'Ann Smith',
        'E-mail': ' ann@example.com ',
        Plan: 'pro',
        Seats: ' 12 ',
        VIP: 'TRUE',
        'Signup Date': '2024-05-31',
      }),
    );
    expect(result).toMatchObject({
      ok: true,
      line: 2,
      input: {
        external_id: 'u1',
        name: 'Ann Smith',
        email: 'ann@example.com',
        custom_attributes: { plan: 'pro', seats: 12, vip: true, signup_date: '2024-05-31' },
      },
    });
    expect(result.ok && 'phonenumber' in result.input).toBe(false);
  });

  it('omits custom_attributes entirely when every attribute cell is empty', () => {
    const result = csvRow(cells({ 'User ID': 'u2' }));
    expect(result.ok && result.input).toEqual({ external_id: 'u2' });
  });

  it('marks a row that gives nothing but its key, where the file fills more, as empty, and notes its line', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
    const result = validate(cells({ 'User ID': 'u5', 'Full Name': '', Plan: '' }, 7));
    expect(result).toMatchObject({ ok: true, empty: true, input: { external_id: 'u5' } });
    expect(validate(cells({ 'User ID': 'u6', Plan: 'pro' }, 8))).not.toHaveProperty('empty');
    expect(validate.notes).toMatchObject({ emptyRows: [7], emptyRowsCount: 1 });
  });

  it('counts a row with no value in any column read, not even its key, with those rows, not as a reject', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
    expect(validate(cells({}, 9))).toMatchObject({ ok: false, blank: true, line: 9 });
    // A value beside no key is a row to mend.
    expect(validate(cells({ 'Full Name': 'Ann' }, 10))).toMatchObject({
      ok: false,
      reason: 'external_id: no value in the key column "User ID"',
    });
    expect(validate(cells({ 'Full Name': 'Ann' }, 10))).not.toHaveProperty('blank');
    expect(validate.notes).toMatchObject({ emptyRows: [9], emptyRowsCount: 1 });
  });

  it('rejects a row whose only values beside its key cannot be read, saying why, to be mended', () => {
    const result = csvRow(cells({ 'User ID': 'u7', Phone: '020 7946 0958', Seats: 'many' }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(
      /^nothing to import but its external_id once the values that cannot be read are left out: phonenumber: .*; custom_attributes\.seats: /,
    );
    expect(!result.ok && result.codes).toEqual(['phone_no_country']);
  });

  it('sends a row of its key alone where that is all the file gives, a file of keys, or JSON', () => {
    const keys = resolveMapping({ header: ['external_id'], definitions: DEFINITIONS });
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping: keys });
    const row: SourceRecord = { row: 1, line: 2, raw: ['u8'], record: { external_id: 'u8' } };
    expect(validate(row)).toMatchObject({ ok: true, input: { external_id: 'u8' } });
    expect(validate(row)).not.toHaveProperty('empty');
    expect(jsonRow(json({ external_id: 'u9' }))).not.toHaveProperty('empty');
  });

  it('trims every cell, drops a spreadsheet apostrophe, and reads an empty cell, quoted or not, as "not given"', () => {
    const result = csvRow(
      cells({ 'User ID': "'0031 ", 'Full Name': '  Ann  ', 'E-mail': '', Phone: '', Plan: '', Seats: '' }),
    );
    expect(result.ok && result.input).toEqual({ external_id: '0031', name: 'Ann' });
    const empty = csvRow(cells({ 'User ID': 'u4', 'Full Name': '' }));
    expect(empty.ok && empty.input).toEqual({ external_id: 'u4' });
  });

  it('with emptyStrings, keeps "" as the empty string where a field can hold one', () => {
    const validate = createRowValidator({
      definitions: DEFINITIONS,
      mapping: csvMapping,
      emptyStrings: true,
    });
    const result = validate(cells({ 'User ID': 'u3', 'Full Name': '', 'E-mail': '', Plan: '', Seats: '' }));
    expect(result.ok && result.input).toEqual({
      external_id: 'u3',
      name: '',
      custom_attributes: { plan: '' },
    });
  });

  it('reads vendor dates and yes/no booleans', () => {
    const cases: [string, string, unknown][] = [
      ['VIP', 'yes', true],
      ['VIP', 'No', false],
      ['VIP', 'Y', true],
      ['VIP', 'off', false],
      ['VIP', 'Checked', true],
      ['VIP', 'FALSE', false],
      ['VIP', '1', true],
      ['Signup Date', '2024-03-22 17:59', '2024-03-22T17:59:00.000Z'],
      ['Signup Date', '2023-11-12 00:28:15', '2023-11-12T00:28:15.000Z'],
      ['Signup Date', '2022-09-20T16:04:55.000Z', '2022-09-20T16:04:55.000Z'],
      ['Signup Date', '9/20/2022', '2022-09-20'],
      ['Signup Date', '20/09/2022', '2022-09-20'],
      ['Signup Date', '22-Mar-2024', '2024-03-22'],
      ['Signup Date', 'March 22, 2024', '2024-03-22'],
      ['Signup Date', '9/20/2022 5:03 PM', '2022-09-20T17:03:00.000Z'],
    ];
    for (const [column, value, stored] of cases) {
      const result = csvRow(cells({ 'User ID': '1', [column]: value }));
      const name = column === 'VIP' ? 'vip' : 'signup_date';
      expect(result.ok && result.input.custom_attributes?.[name], `${column} ${value}`).toBe(stored);
    }
  });

  it('with a time zone, reads date-times without a zone on its wall clock; zoned times and plain dates as before', () => {
    const validate = createRowValidator({
      definitions: DEFINITIONS,
      mapping: csvMapping,
      timeZone: 'America/New_York',
    });
    const cases: [string, string][] = [
      ['2024-03-22 17:59', '2024-03-22T21:59:00.000Z'], // EDT
      ['2024-01-22 17:59', '2024-01-22T22:59:00.000Z'], // EST
      ['2023-11-12 00:28:15', '2023-11-12T05:28:15.000Z'],
      ['2023-06-28T04:13:00', '2023-06-28T08:13:00.000Z'],
      ['9/20/2022 3:04 PM', '2022-09-20T19:04:00.000Z'],
      ['2024-03-10 02:30', '2024-03-10T07:30:00.000Z'], // skipped by the clocks: 03:30 EDT
      ['2024-11-03 01:30', '2024-11-03T05:30:00.000Z'], // shown twice: the earlier, EDT
      ['2024-03-22 17:59 UTC', '2024-03-22T17:59:00.000Z'],
      ['2024-03-22 17:59 +01:00', '2024-03-22T16:59:00.000Z'],
      ['2022-09-20T16:04:55.000Z', '2022-09-20T16:04:55.000Z'],
      ['2024-03-22', '2024-03-22'],
      ['9/20/2022', '2022-09-20'],
    ];
    for (const [value, stored] of cases) {
      const result = validate(cells({ 'User ID': '1', 'Signup Date': value }));
      expect(result.ok && result.input.custom_attributes?.signup_date, value).toBe(stored);
    }
  });

  it('reads numbers as spreadsheets write them, 1,200 and 1.200 by the decimal mark the file shows', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
    const seats = (line: number, value: string) => {
      const result = validate(cells({ 'User ID': String(line), 'Full Name': 'Ann Lee', Seats: value }, line));
      if (!result.ok) return result.reason;
      return result.fixes
        ? result.fixes.map((f) => f.reason)
        : [result.input.custom_attributes?.seats, result.note?.code];
    };
    // Whatever the file's mark, these read one way only.
    expect(seats(2, '1.234.567')).toEqual([1234567, undefined]);
    expect(seats(3, '1 250,50')).toEqual([1250.5, undefined]);
    // Decimal commas shown: 1.200 is 1200 and 1,200 is 1.2, said once.
    expect(seats(4, '1.200')).toEqual([1200, 'decimal_mark_decided']);
    expect(seats(5, '1,200')).toEqual([1.2, undefined]);
    // A decimal point too: the file no longer says how 1.200 reads, which goes to the fixes file.
    expect(seats(6, '1,250.00')).toEqual([1250, undefined]);
    expect(seats(7, '1.200')).toEqual([
      'Expected a number: 1.200 is 1200 where the dot groups thousands and 1.2 where it is the decimal mark; write 1200 or 1.2 ' +
        '(this file\'s numbers show both: 1.234.567 in column "Seats", 1,250.00 in column "Seats")',
    ]);
    // Before any number shows the mark, neither is read: 1.200 is not taken for 1.2 where a later
    // row could show that dots group thousands.
    const fresh = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
    const open = (value: string) => {
      const result = fresh(cells({ 'User ID': '1', 'Full Name': 'Ann Lee', Seats: value }));
      return result.ok && result.fixes?.map((f) => f.reason);
    };
    expect(open('1.200')).toEqual([
      'Expected a number: 1.200 is 1200 where the dot groups thousands and 1.2 where it is the decimal mark; write 1200 or 1.2 (no number read so far shows which mark this file uses)',
    ]);
    expect(open('1,200')).toEqual([
      'Expected a number: 1,200 is 1200 where the comma groups thousands and 1.2 where it is the decimal mark; write 1200 or 1.2 (no number read so far shows which mark this file uses)',
    ]);
  });

  it('says which number decided how 1.200 reads, in its own words', () => {
    const grouped = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
    grouped(cells({ 'User ID': '1', Seats: '1.234.567' }));
    const read = grouped(cells({ 'User ID': '2', Seats: '1.200' }));
    expect(read.ok && read.note?.message).toBe(
      'Column "Seats" has numbers like 1.200 that read both as 1200 and 1.2; 1.234.567 in column "Seats" groups thousands with dots, so they are read as 1200',
    );
  });

  it('says which number decided how 1.200 reads', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
    validate(cells({ 'User ID': '1', Seats: '12,5' }));
    const decided = validate(cells({ 'User ID': '2', Seats: '1.200' }));
    expect(decided.ok && decided.note).toEqual({
      code: 'decimal_mark_decided',
      message:
        'Column "Seats" has numbers like 1.200 that read both as 1200 and 1.2; 12,5 in column "Seats" has a decimal comma, so they are read as 1200',
      column: 'Seats',
      mark: ',',
    });
  });

  it('reads a name written last name first in the order said, and tells it once', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping });
    const read = ['Hopper, Grace', 'Lovelace, Ada', 'King, Jr.'].map((name, i) =>
      validate(cells({ 'User ID': `u${i}`, 'Full Name': name })),
    );
    expect(read.map((r) => r.ok && r.input.name)).toEqual(['Grace Hopper', 'Ada Lovelace', 'King, Jr.']);
    expect(read.map((r) => r.note?.code)).toEqual(['names_reordered', undefined, undefined]);
    expect(read[0]?.note?.message).toBe(
      'Column "Full Name" writes names last name first ("Hopper, Grace"): they are read in the order said ("Grace Hopper").',
    );
  });

  it('tells once of the first date-time without a zone when no time zone is given', () => {
    const evidence = new FileEvidence(csvMapping, DEFINITIONS, { watchLocalTimes: true });
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping: csvMapping, evidence });
    const seen = ['2024-03-22', '2024-03-22T17:59:00Z', '2024-03-22 17:59', '2024-03-23 09:00'].flatMap(
      (value) => validate(cells({ 'User ID': '1', 'Signup Date': value })).note ?? [],
    );
    expect(seen).toEqual([
      {
        code: 'local_times',
        message:
          'Column "Signup Date" has date-times without a zone (2024-03-22 17:59): they are read as UTC.',
        column: 'Signup Date',
        example: '2024-03-22 17:59',
      },
    ]);
    const observed = new FileEvidence(csvMapping, DEFINITIONS, { watchLocalTimes: true });
    expect([
      observed.observe(cells({ 'Signup Date': '9/20/2022 3:04 PM' }).raw!),
      observed.observe(cells({ 'Signup Date': '9/21/2022 3:04 PM' }).raw!),
    ]).toEqual([{ column: 'Signup Date', example: '9/20/2022 3:04 PM' }, undefined]);
  });

  it('lands the contact without a field it cannot read, listing each such field for the fixes file', () => {
    const result = csvRow(cells({ 'User ID': '1', Seats: 'many', VIP: 'maybe', Plan: 'pro', Phone: '12' }));
    expect(result).toMatchObject({
      ok: true,
      input: { external_id: '1', custom_attributes: { plan: 'pro' } },
    });
    expect(result.ok && result.fixes?.map((f) => [f.field, f.value])).toEqual([
      ['custom_attributes.vip', 'maybe'],
      ['phonenumber', '12'],
      ['custom_attributes.seats', 'many'],
    ]);
  });

  it('joins first and last name when there is no full-name column', () => {
    const mapping = resolveMapping({ header: ['id', 'First Name', 'Last Name'], definitions: DEFINITIONS });
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    const row = (raw: (string | undefined)[]) => validate({ row: 1, line: 2, raw, record: {} });
    expect(row(['1', 'Ann', 'Smith'])).toMatchObject({ ok: true, input: { name: 'Ann Smith' } });
    expect(row(['2', undefined, 'Smith'])).toMatchObject({ ok: true, input: { name: 'Smith' } });
    expect(row(['3', undefined, undefined])).toMatchObject({ ok: true, input: { external_id: '3' } });
  });

  it('rejects each kind of bad value with the contract field and message (strict)', () => {
    const cases: [Parameters<typeof cells>[0], string][] = [
      [{ 'Full Name': 'No Id' }, 'external_id: no value in the key column "User ID"'],
      [{ 'User ID': 'x'.repeat(256) }, 'external_id: Too big: expected string to have <=255 characters'],
      [{ 'User ID': '1', 'E-mail': 'not-an-email' }, 'email: Invalid email'],
      [
        { 'User ID': '1', Phone: '020 7946 0958' },
        'phonenumber: a national number and no country to read it in (no country in the row, no default country, no international number or country in the file): write it with + and the country code, or give a default country',
      ],
      [{ 'User ID': '1', Phone: '+44 12' }, 'phonenumber: too short for +44'],
      [{ 'User ID': '1', Phone: '+44 20 7946 095' }, 'phonenumber: not a valid number of +44'],
      [
        { 'User ID': '1', 'Full Name': 'n'.repeat(256) },
        'name: Too big: expected string to have <=255 characters',
      ],
      [{ 'User ID': '1', Seats: 'twelve' }, 'custom_attributes.seats: Expected a number or a numeric string'],
      [
        { 'User ID': '1', VIP: 'maybe' },
        'custom_attributes.vip: "maybe" is not a yes/no value (yes/no, y/n, on/off, checked, true/false, 1/0, ja/nein, oui/non, sí/no, sim/não)',
      ],
      [
        { 'User ID': '1', 'Signup Date': '2024-13-01' },
        'custom_attributes.signup_date: "2024-13-01" is not a date (2024-05-31, 2024-05-31 17:59, 5/31/2024, 31-May-2024)',
      ],
      [
        { 'User ID': '1', 'Signup Date': '3/4/2024' },
        'custom_attributes.signup_date: "3/4/2024" reads as both M/D/YYYY and D/M/YYYY, and no date of its column decides which',
      ],
      [
        { 'User ID': '1', Legacy: 'L-1' },
        'custom_attributes.legacy_code: Custom attribute is archived: only null is accepted',
      ],
    ];
    for (const [values, expected] of cases) expect(reason(strictRow(cells(values))), expected).toBe(expected);
    // The two an option of the import reads say so by code (the CLI names the flag).
    expect(strictRow(cells({ 'User ID': '1', Phone: '020 7946 0958' }))).toMatchObject({
      ok: false,
      codes: ['phone_no_country'],
    });
    expect(strictRow(cells({ 'User ID': '1', 'Signup Date': '3/4/2024' }))).toMatchObject({
      ok: false,
      codes: ['date_order_open'],
    });
    expect(strictRow(cells({ 'User ID': '1', VIP: 'maybe' }))).not.toHaveProperty('codes');
  });

  it('lists every problem of a row, separated by semicolons', () => {
    expect(reason(strictRow(cells({ 'User ID': '1', 'E-mail': 'bad', Seats: 'many' }, 9)))).toBe(
      'email: Invalid email; custom_attributes.seats: Expected a number or a numeric string',
    );
  });

  it('names the key column a row has no value in', () => {
    expect(reason(csvRow(cells({ 'Full Name': 'Ann Lee', 'E-mail': 'ann@example.com' }, 4)))).toBe(
      'external_id: no value in the key column "User ID"',
    );
  });

  it('keys a vCard keyed by its number by the number in E.164, in its rejects row too', () => {
    const header = ['external_id', 'name', 'email', 'phonenumber', 'country'];
    const mapping = resolveMapping({ header, definitions: DEFINITIONS });
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping, defaultCountry: 'US' });
    const raw = ['2065550116', 'Dana', undefined, '206-555-0116', undefined];
    const source: SourceRecord = { row: 1, line: 1, raw, record: {}, keyedByPhone: true };
    const result = validate(source);
    expect(result.ok && result.input.external_id).toBe('+12065550116');
    expect(source.raw?.[0]).toBe('+12065550116');
  });

  it("rejects a row the source flagged, with the source's reason and line", () => {
    const source: SourceRecord = {
      row: 6,
      line: 7,
      raw: ['1'],
      record: {},
      error: 'Row has 1 field but…',
    };
    expect(csvRow(source)).toEqual({ ok: false, line: 7, reason: 'Row has 1 field but…', source });
  });
});

/** A CSV row of `header` as the source gives it. */
function phoneRow(header: string[], values: string[], line: number): SourceRecord {
  return {
    row: line - 1,
    line,
    raw: values,
    record: Object.fromEntries(header.map((h, i) => [h, values[i]])),
  };
}

describe("national numbers placed from the file's other numbers", () => {
  const header = ['id', 'name', 'email', 'phone'];
  const mapping = resolveMapping({ header, definitions: DEFINITIONS });
  const row = (values: string[], line: number) => phoneRow(header, values, line);

  it("places a national number in the one country of the file's evidence it is valid in, and counts it", () => {
    // Countries named nowhere in the file (GB reads 020 7946 0958 too) are no candidates.
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    const ann = validate(row(['g1', 'Ann', 'a@example.com', '+49 30 901820'], 2));
    expect(ann.ok && ann.input.phonenumber).toBe('+4930901820');
    const jane = validate(row(['g2', 'Jane', 'j@example.com', '020 7946 0958'], 3));
    expect(jane.ok && jane.input.phonenumber).toBe('+492079460958');
    expect(jane.ok && jane.fixes).toBeUndefined();
    expect([...validate.notes.placedByFile]).toEqual([['DE', 1]]);
  });

  it("reads numbers written with their country code but no + (an SMS tool's) as the file's evidence too", () => {
    // Brevo's SMS column: 491701234567 (twelve digits) says the file writes country codes, so
    // the eleven digits of a French 33612345678 are read with theirs as well.
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    const de = validate(row(['b1', 'Jürgen', 'j@example.de', '491701234567'], 2));
    expect(de.ok && de.input.phonenumber).toBe('+491701234567');
    const fr = validate(row(['b2', 'Amélie', 'a@example.fr', '33612345678'], 3));
    expect(fr.ok && fr.input.phonenumber).toBe('+33612345678');
    expect(fr.ok && fr.fixes).toBeUndefined();
  });

  it('refuses a national number valid in two of the countries the file gives, unless grouped as one writes its own', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    validate(row(['g1', 'Ann', 'a@example.com', '+49 30 901820'], 2));
    validate(row(['g2', 'Bob', 'b@example.com', '+44 20 7946 0001'], 3));
    // Germany writes 02079 460958, Britain 020 7946 0958: its digits alone read in both.
    const jane = validate(row(['g3', 'Jane', 'j@example.com', '02079460958'], 4));
    expect(jane.ok && jane.input.phonenumber).toBeUndefined();
    expect(jane.ok && jane.fixes?.[0]?.reason).toMatch(/^valid in more than one of DE, GB/);
    // In groups that are neither's, neither's.
    const jim = validate(row(['g5', 'Jim', 'jim@example.com', '0207 946 0958'], 6));
    expect(jim.ok && jim.fixes?.[0]?.reason).toMatch(
      /^a national number in a file of numbers from several countries \(DE, GB\), not written as one of them writes its own/,
    );
    expect(validate.notes.placedByFile.size).toBe(0);
    const joe = validate(row(['g4', 'Joe', 'joe@example.com', '020 7946 0958'], 5));
    expect(joe.ok && joe.input.phonenumber).toBe('+442079460958');
    expect(validate.notes.placedByFile.get('GB')).toBe(1);
  });

  it('places it when the default country decides', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping, defaultCountry: 'GB' });
    validate(row(['g1', 'Ann', 'a@example.com', '+49 30 901820'], 2));
    const jane = validate(row(['g2', 'Jane', 'j@example.com', '020 7946 0958'], 3));
    expect(jane.ok && jane.input.phonenumber).toBe('+442079460958');
    expect(jane.ok && jane.fixes).toBeUndefined();
  });
});

describe('national numbers of countries that share a calling code', () => {
  const header = ['id', 'name', 'email', 'phone'];
  const mapping = resolveMapping({ header, definitions: DEFINITIONS });
  const row = (values: string[], line: number) => phoneRow(header, values, line);

  it('places a US number in a file that also holds a Canadian one (both read it as one +1 number)', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    validate(row(['c1', 'Cam', 'c@example.com', '+1 416 555 0199'], 2));
    validate(row(['u1', 'Uma', 'u@example.com', '+1 415 555 0100'], 3));
    const sam = validate(row(['u2', 'Sam', 's@example.com', '(415) 555-0132'], 4));
    expect(sam.ok && sam.input.phonenumber).toBe('+14155550132');
    expect(sam.ok && sam.fixes).toBeUndefined();
  });
});

describe('a main phone passed over for a later one', () => {
  it('is said in a notice, not dropped unseen', () => {
    const header = ['id', 'name', 'email', 'Phone Number', 'Mobile Phone Number'];
    const mapping = resolveMapping({ header, definitions: DEFINITIONS });
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping, defaultCountry: 'US' });
    const result = validate(
      // The mobile is tried first.
      phoneRow(header, ['m1', 'Max', 'm@example.com', '+1 415 555 0132', '555-0106'], 2),
    );
    expect(result.ok && result.input.phonenumber).toBe('+14155550132');
    expect(result.ok && result.notice).toMatch(
      /phonenumber: 555-0106 not used \(.+\); \+1 415 555 0132 used instead/,
    );
  });
});

describe('middle names and suffixes of Google and Outlook exports', () => {
  for (const [file, suffix] of [
    ['google.csv', 'Name Suffix'],
    ['outlook.csv', 'Suffix'],
  ] as const) {
    it(`joins first, middle and last name, then the suffix (${file})`, () => {
      const text = readFileSync(new URL(`../fixtures/exports/${file}`, import.meta.url), 'latin1');
      const header = text
        .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
        .split(/\r?\n/)[0]!
        .split(',');
      const mapping = resolveMapping({ header, definitions: [] });
      expect(summarizeMapping(mapping)).toContain(`First Name + Middle Name + Last Name + ${suffix} -> name`);
      const values: Record<string, string> = {
        'First Name': 'John',
        'Middle Name': 'Ronald Reuel',
        'Last Name': 'Tolkien',
        [suffix]: 'Jr.',
      };
      const raw = header.map((h) =>
        /^E-mail (1 - Value|Address)$/.test(h) ? 'jrrt@example.com' : values[h],
      );
      const result = createRowValidator({ definitions: [], mapping })({ row: 1, line: 2, raw, record: {} });
      expect(result.ok && result.input.name).toBe('John Ronald Reuel Tolkien Jr.');
    });
  }
});

describe('cells with several values (Google ::: )', () => {
  it('uses the first usable phone of a cell, and a later email only when the first is no address', () => {
    const text = readFileSync(new URL('../fixtures/exports/google.csv', import.meta.url), 'utf8');
    const header = text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0]!
      .split(',');
    const mapping = resolveMapping({ header, definitions: [] });
    const validate = createRowValidator({ definitions: [], mapping });
    const row = (email: string, phone: string) =>
      validate({
        row: 1,
        line: 2,
        raw: header.map((h) =>
          h === 'E-mail 1 - Value' ? email : h === 'Phone 1 - Value' ? phone : undefined,
        ),
        record: {},
      });
    const result = row('not an address ::: jrrt@example.com', '555-0106 ::: +44 20 7946 0958');
    expect(result.ok && result.input).toMatchObject({
      external_id: 'jrrt@example.com',
      email: 'jrrt@example.com',
      phonenumber: '+442079460958',
    });
    expect(result.ok && result.fixes).toBeUndefined();
    const first = row('ann@example.com ::: bob@example.com', '+49 30 901820 ::: +44 20 7946 0958');
    expect(first.ok && first.input).toMatchObject({ email: 'ann@example.com', phonenumber: '+4930901820' });
    expect(validate.notes.multiValue).toEqual(
      new Map([
        ['E-mail 1 - Value', 2],
        ['Phone 1 - Value', 2],
      ]),
    );
  });
});

describe('JSON rows', () => {
  it('passes records as written (phone numbers in E.164), null clearing a field, and coerces attributes', () => {
    const result = jsonRow(
      json({
        external_id: 'a1',
        email: null,
        phonenumber: '+44 20 7946 0958',
        custom_attributes: { seats: '3', vip: 0, plan: 7, signup_date: null },
      }),
    );
    expect(result).toEqual({
      ok: true,
      line: 1,
      source: expect.anything(),
      input: {
        external_id: 'a1',
        email: null,
        phonenumber: '+442079460958',
        custom_attributes: { seats: 3, vip: false, plan: '7', signup_date: null },
      },
    });
  });

  it('turns a numeric external_id into its string, unless it is too large to be exact', () => {
    expect(jsonRow(json({ external_id: 42 }))).toMatchObject({ ok: true, input: { external_id: '42' } });
    expect(reason(jsonRow(json({ external_id: 2 ** 60 })))).toBe(
      `external_id: ${2 ** 60} is too large to keep exactly as a JSON number; write it as a string`,
    );
  });

  it('rejects unknown fields, undefined attributes and wrong types', () => {
    expect(reason(jsonRow(json({ external_id: '1', fax: '123' })))).toBe('fax: Unknown field');
    expect(reason(jsonRow(json({ external_id: '1', custom_attributes: { tier: 'gold' } })))).toBe(
      'custom_attributes.tier: Unknown custom attribute: define it first',
    );
    expect(reason(jsonRow(json({ external_id: true })))).toBe(
      'external_id: Invalid input: expected string, received boolean',
    );
    expect(reason(jsonRow(json({ external_id: '1', custom_attributes: 'plan=pro' })))).toMatch(
      /^custom_attributes: /,
    );
  });

  it('rejects what the source could not read', () => {
    const source: SourceRecord = {
      row: 3,
      line: 3,
      record: {},
      text: '{oops',
      error: 'Invalid JSON: x',
    };
    expect(reason(jsonRow(source))).toBe('Invalid JSON: x');
  });
});

describe('values as other programs write them', () => {
  const header = ['id', 'name', 'email', 'phone', 'country'];
  const mapping = resolveMapping({ header, definitions: DEFINITIONS });
  const row = (values: string[], line: number) => phoneRow(header, values, line);

  it('takes the address out of the forms mail programs write', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    const emails = [
      'Ada Lovelace <ada@example.com>',
      '"Smith, Bob" <bob@example.org>',
      'mailto:cy@example.com',
      'dan@example.com; dan.alt@example.com',
      'eve@example.com (Eve)',
    ].map((email, i) => {
      const r = validate(row([`k${i}`, 'X', email, '', ''], i + 2));
      return r.ok ? r.input.email : r.reason;
    });
    expect(emails).toEqual([
      'ada@example.com',
      'bob@example.org',
      'cy@example.com',
      'dan@example.com',
      'eve@example.com',
    ]);
    // An address with a space in it is no address: not cut down to a part that is one.
    const bad = validate(row(['k9', 'X', 'jane doe@example.com', '', ''], 9));
    expect(bad.ok).toBe(false);
  });

  it('reads a number with its country code but no + as international, never adding a second code', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    const phone = (text: string, country: string, line: number) => {
      const r = validate(row([`p${line}`, 'X', '', text, country], line));
      return r.ok ? r.input.phonenumber : r.reason;
    };
    expect(phone('4915112345678', 'Germany', 2)).toBe('+4915112345678');
    expect(phone('33612345678', 'Germany', 3)).toBe('+33612345678');
    expect(phone('+1 415 555 0100', '', 8)).toBe('+14155550100');
    expect(phone('14155550132', '', 4)).toBe('+14155550132'); // the file now names US and DE
    // Ten digits without a trunk 0 are a national number with its 0 dropped, as spreadsheets do.
    expect(phone('2079460018', 'United Kingdom', 5)).toBe('+442079460018');
    expect(phone('4155550133', 'USA', 6)).toBe('+14155550133');
    // A national number as its country writes it stays national: 8 is Russia's trunk prefix.
    expect(phone('8 (495) 123-45-67', 'Russia', 7)).toBe('+74951234567');
  });

  it('counts a number written 0044 as international, not as placed by the file', () => {
    const validate = createRowValidator({ definitions: DEFINITIONS, mapping });
    const r = validate(row(['i1', 'X', '', '0044 20 7946 0959', ''], 2));
    expect(r.ok && r.input.phonenumber).toBe('+442079460959');
    expect(validate.notes.placedByFile.size).toBe(0);
  });
});
