// Cell values as other systems write them: apostrophes, padding, several values, emails with
// names, yes/no, and dates in vendor and spreadsheet forms.
import { describe, expect, it } from 'vitest';
import {
  attributeTypeOf,
  cellValues,
  cleanCell,
  decimalMarkOf,
  emailIn,
  firstValue,
  GOOGLE_MULTI_VALUE,
  isLocalDateTime,
  joinName,
  LOST_CHARACTERS_RE,
  phonesIn,
  readBoolean,
  readDate,
  slashDateOrder,
  spokenName,
  withoutCurrency,
  withoutGuestTag,
} from '../../src/importer/values.js';

describe('cells', () => {
  it('cleanCell drops a spreadsheet apostrophe and padding, no-break spaces included', () => {
    expect(cleanCell("'7210448301122")).toBe('7210448301122');
    expect(cleanCell("'+44 20 7946 0958")).toBe('+44 20 7946 0958');
    // Before a word it is the word's own: a name that begins with one keeps it.
    expect(cleanCell("'Tis Nick")).toBe("'Tis Nick");
    expect(cleanCell('  x \u00a0')).toBe('x');
    expect(cleanCell('same')).toBe('same');
  });

  it('cellValues and firstValue split a cell of several values on the first separator it holds', () => {
    const cell = `a@x.co${GOOGLE_MULTI_VALUE}b@x.co ::: `;
    expect(cellValues(cell, [GOOGLE_MULTI_VALUE, ';'])).toEqual(['a@x.co', 'b@x.co']);
    expect(firstValue(cell, [GOOGLE_MULTI_VALUE])).toEqual({ value: 'a@x.co', count: 2 });
    expect(firstValue('one', [GOOGLE_MULTI_VALUE])).toEqual({ value: 'one', count: 1 });
    expect(cellValues('one', [';'])).toEqual(['one']);
  });

  it('emailIn finds the address as mail programs write one', () => {
    expect(emailIn('Ada Lovelace <ada@example.com>')).toBe('ada@example.com');
    expect(emailIn('mailto:ada@example.com')).toBe('ada@example.com');
    expect(emailIn('ada@example.com; alt@example.com')).toBe('ada@example.com');
    expect(emailIn('ada@example.com (Ada)')).toBe('ada@example.com');
    expect(emailIn('not an email')).toBe('not an email');
  });

  it('readBoolean takes the yes/no words of localized exports too', () => {
    for (const word of ['Ja', 'Ein', 'oui', 'Sí', 'sim', 'WAHR']) expect(readBoolean(word), word).toBe(true);
    for (const word of ['Nein', 'Aus', 'non', 'não', 'nee', 'Falso'])
      expect(readBoolean(word), word).toBe(false);
    for (const word of ['vielleicht', 'peut-être', 'jein']) expect(readBoolean(word), word).toBeUndefined();
  });

  it('readBoolean takes yes/no words in any case, and nothing else', () => {
    expect(['TRUE', 'yes', 'Y', 'on', 'Checked', '1'].map(readBoolean)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['false', 'NO', 'n', 'off', 'unchecked', '0'].map(readBoolean)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(readBoolean('maybe')).toBeUndefined();
  });

  it('LOST_CHARACTERS_RE finds names an exporter turned into question marks', () => {
    expect(LOST_CHARACTERS_RE.test('J??rg')).toBe(true);
    expect(LOST_CHARACTERS_RE.test('Who?')).toBe(false);
  });
});

describe('dates', () => {
  it('reads ISO dates and date-times, a date-time without a zone as UTC or in the zone given', () => {
    expect(readDate('2024-05-31', undefined)).toBe('2024-05-31');
    expect(readDate('2024-03-22 17:59', undefined)).toBe('2024-03-22T17:59:00.000Z');
    expect(readDate('2024-03-22T17:59:00+01:00', undefined)).toBe('2024-03-22T16:59:00.000Z');
    expect(readDate('2024-03-22 17:59:00 UTC', undefined, 'America/New_York')).toBe(
      '2024-03-22T17:59:00.000Z',
    );
    expect(readDate('2024-07-01 12:00', undefined, 'America/New_York')).toBe('2024-07-01T16:00:00.000Z');
    expect(readDate('2024-01-01 12:00', undefined, 'America/New_York')).toBe('2024-01-01T17:00:00.000Z');
  });

  it('keeps digits past the millisecond for the contract to say what it stores', () => {
    expect(readDate('2024-03-22T17:59:00.123456Z', undefined)).toBe('2024-03-22T17:59:00.123456Z');
  });

  it('reads slash dates in the column’s order, with a 12-hour time', () => {
    expect(readDate('9/20/2022', 'mdy')).toBe('2022-09-20');
    expect(readDate('20.09.2022', 'dmy')).toBe('2022-09-20');
    expect(readDate('3/4/24', 'dmy')).toBe('2024-04-03');
    expect(readDate('9/20/2022 5:03 PM', 'mdy')).toBe('2022-09-20T17:03:00.000Z');
    expect(readDate('9/20/2022 12:03 AM', 'mdy')).toBe('2022-09-20T00:03:00.000Z');
    expect(readDate('3/4/2024', undefined)).toBeUndefined();
  });

  it('reads spreadsheet text dates, and refuses days no calendar has', () => {
    expect(readDate('22-Mar-2024', undefined)).toBe('2024-03-22');
    expect(readDate('22 March 2024', undefined)).toBe('2024-03-22');
    expect(readDate('Sept 3, 2024', undefined)).toBe('2024-09-03');
    expect(readDate('2024/3/22', undefined)).toBe('2024-03-22');
    expect(readDate('2023-02-29', undefined)).toBeUndefined();
    expect(readDate('2024-02-29', undefined)).toBe('2024-02-29');
    expect(readDate('22 Marchx 2024', undefined)).toBeUndefined();
    expect(readDate('soon', undefined)).toBeUndefined();
    // With a time, as Notion writes its created times: a wall clock, in the given zone.
    expect(readDate('April 10, 2026 9:00 AM', undefined)).toBe('2026-04-10T09:00:00.000Z');
    expect(readDate('April 10, 2026 9:00 AM', undefined, 'Europe/Berlin')).toBe('2026-04-10T07:00:00.000Z');
    expect(readDate('22-Mar-2024 17:59', undefined)).toBe('2024-03-22T17:59:00.000Z');
    expect(readDate('April 10, 2026 13:00 PM', undefined)).toBeUndefined();
    expect(isLocalDateTime('April 10, 2026 9:00 AM')).toBe(true);
    expect(isLocalDateTime('March 22, 2024')).toBe(false);
  });

  it('slashDateOrder decides from a part above 12; isLocalDateTime finds times without a zone', () => {
    expect(slashDateOrder('20/09/2022')).toBe('dmy');
    expect(slashDateOrder('09/20/2022')).toBe('mdy');
    expect(slashDateOrder('3/4/2024')).toBe('either');
    expect(slashDateOrder('2024-03-04')).toBeUndefined();
    expect(isLocalDateTime('2024-03-22 17:59')).toBe(true);
    expect(isLocalDateTime('2024-03-22T17:59:00Z')).toBe(false);
    expect(isLocalDateTime('9/20/2022 3:04 PM')).toBe(true);
    expect(isLocalDateTime('9/20/2022')).toBe(false);
  });
});

describe('decimalMarkOf', () => {
  it('finds the decimal mark a number shows its writer uses, and none in 1,200 or 1.200', () => {
    for (const text of ['3,5', '-0,500', '12,75', '1234,5', '1.234,56', '1 234,5', '1.234.567'])
      expect(decimalMarkOf(text), text).toBe(',');
    for (const text of ['3.5', '0.500', '12.75', '1234.567', '1,234.56', '1,234,567', '-2.0'])
      expect(decimalMarkOf(text), text).toBe('.');
    for (const text of ['1,200', '1.200', '1200', '1 200', 'n/a', '+34 912 345 678'])
      expect(decimalMarkOf(text), text).toBeUndefined();
  });
});

describe('withoutCurrency', () => {
  it('reads an amount of money as its number, the currency before or after it, and leaves other text', () => {
    const cases: [string, string][] = [
      ['$412.50', '412.50'],
      ['$12,480.00', '12,480.00'],
      ['-$5.00', '-5.00'],
      ['$-5', '-5'],
      ['12,50 €', '12,50'],
      ['12,50€', '12,50'],
      ['R$ 1.234,56', '1.234,56'],
      ['US$10', '10'],
      ['£1 200,50', '1 200,50'],
      ['USD 9.99', '9.99'],
      ['9.99 EUR', '9.99'],
      ['-USD 5', '-5'],
    ];
    for (const [text, amount] of cases) expect(withoutCurrency(text), text).toBe(amount);
    // Three capitals are a currency only where ISO 4217 has them: a course, a box, a weight are not.
    for (const text of [
      '1,024',
      '$',
      'EUR',
      '5 apples',
      'USD9',
      'ABC 12 DEF',
      '+1 415 555 0132',
      'CSE 101',
      'BOX 12',
      '150 LBS',
      '-$-5',
    ])
      expect(withoutCurrency(text), text).toBe(text);
    // The amount shows the file's decimal mark as the number would, and makes a number column.
    expect(decimalMarkOf('$12,480.00')).toBe('.');
    expect(decimalMarkOf('12,50 €')).toBe(',');
    expect(attributeTypeOf(['$412.50', '$12,480.00', '$0.00'])).toBe('number');
    expect(attributeTypeOf(['CSE 101', 'BIO 202'])).toBe('text');
    // A localized yes/no word alone is a country code or a name; beside its opposite, yes/no.
    expect(attributeTypeOf(['AUS', 'AUS'])).toBe('text');
    expect(attributeTypeOf(['Si'])).toBe('text');
    expect(attributeTypeOf(['Ein', 'Aus'])).toBe('boolean');
    expect(attributeTypeOf(['yes', 'yes'])).toBe('boolean');
    expect(readBoolean('sì')).toBe(true);
    expect(readBoolean('si\u0301')).toBe(true);
  });
});

describe('attributeTypeOf', () => {
  it('names the type a column of values asks for, as the import reads cells', () => {
    expect(attributeTypeOf(['3', '12.5', '-4'])).toBe('number');
    // As spreadsheets write amounts: the import reads them.
    expect(attributeTypeOf(['1,250.00', '96.00', '3,5'])).toBe('number');
    // A zip code's leading zero would be lost as a number.
    expect(attributeTypeOf(['02134', '10001'])).toBe('text');
    expect(attributeTypeOf(['yes', 'No', 'TRUE'])).toBe('boolean');
    expect(attributeTypeOf(['1', '0'])).toBe('number');
    expect(attributeTypeOf(['2024-05-31', '9/20/2022', '3/4/2024', '22-Mar-2024', '2024-03-22 17:59'])).toBe(
      'date',
    );
    expect(attributeTypeOf(['20/09/2022', '3/4/2024'])).toBe('date');
    // Slash dates in both orders: the import reads a column in one, so no type reads them all.
    expect(attributeTypeOf(['9/20/2022', '20/09/2022'])).toBe('text');
    expect(attributeTypeOf(['2024-05-31', 'soon'])).toBe('text');
    expect(attributeTypeOf(['Engineer'])).toBe('text');
    expect(attributeTypeOf([])).toBe('text');
  });
});

describe('withoutGuestTag', () => {
  it("drops the tag a meeting puts after a guest's or an outside user's name, and nothing else", () => {
    expect(
      ['Ann Lee (Guest)', 'Jörg Müller (Extern)', 'Ángel García (invitado)', 'Bo Ng (External)'].map(
        withoutGuestTag,
      ),
    ).toEqual(['Ann Lee', 'Jörg Müller', 'Ángel García', 'Bo Ng']);
    expect(
      ['Robert (Bob) Smith', 'Priya S (Priya Sharma)', 'Guest', 'Acme (Guest House)'].map(withoutGuestTag),
    ).toEqual(['Robert (Bob) Smith', 'Priya S (Priya Sharma)', 'Guest', 'Acme (Guest House)']);
  });
});

describe('spokenName', () => {
  it('reads "Last, First" in the order said', () => {
    expect(
      [
        'Hopper, Grace',
        'Hopper,Grace',
        'van der Berg, Anna',
        "O'Brien, Seán",
        'Doe, J.',
        'Nguyen, Thi Minh Khai',
        'Иванов, Иван',
      ].map(spokenName),
    ).toEqual([
      'Grace Hopper',
      'Grace Hopper',
      'Anna van der Berg',
      "Seán O'Brien",
      'J. Doe',
      'Thi Minh Khai Nguyen',
      'Иван Иванов',
    ]);
  });

  it('puts a title first and a suffix last, wherever the name wrote them, and keeps asides', () => {
    expect(
      [
        'Dr. Smith, Ann',
        'Rev. Dr. Jones, Tom',
        'Smith, Dr. Ann',
        'Smith, John Jr.',
        'Smith, John III',
        'Brown, Robert (Bob)',
        'Doe, John "Jack"',
        'Smith (Jones), Mary',
      ].map(spokenName),
    ).toEqual([
      'Dr. Ann Smith',
      'Rev. Dr. Tom Jones',
      'Dr. Ann Smith',
      'John Smith Jr.',
      'John Smith III',
      'Robert (Bob) Brown',
      'John "Jack" Doe',
      'Mary Smith (Jones)',
    ]);
  });

  it('keeps a suffix or company form alone, a second comma, what is no name, and CJK names as written', () => {
    const kept = [
      'King, Jr.',
      'Martin Luther King, Jr.',
      'Ada Lovelace, PhD',
      'Acme, Inc.',
      'Widgets, Ltd',
      'Lovelace, Ada, Countess',
      'Smith & Co, Sales',
      'Room 12, Annex',
      'Hopper,',
      'Dr., Ann',
      '山田, 太郎',
      'Grace Hopper',
    ];
    expect(kept.map(spokenName)).toEqual(kept);
  });
});

describe('joinName', () => {
  it('joins given, middle and family names in the order said; a CJK name family first', () => {
    expect(joinName('John', 'Ronald Reuel', 'Tolkien')).toBe('John Ronald Reuel Tolkien');
    expect(joinName('Grace', '', '')).toBe('Grace');
    expect(joinName('太郎', '', '山田')).toBe('山田 太郎');
    expect(joinName('민준', '', '김')).toBe('김 민준');
  });
});

describe('phonesIn', () => {
  it('reads the numbers of a cell that holds several, as CRMs and reports write them, labels off', () => {
    expect(phonesIn('+44 20 7946 0018, +44 7911 123456')).toEqual(['+44 20 7946 0018', '+44 7911 123456']);
    expect(phonesIn('Phone:(415) 555-0161 Mobile:(415) 555-0199')).toEqual([
      '(415) 555-0161',
      '(415) 555-0199',
    ]);
    expect(phonesIn('Phone:(415) 555-0161 Mobile:(415) 555-0161')).toEqual(['(415) 555-0161']);
    expect(phonesIn('Home: 020 7946 0018\nWork: 020 7946 0019')).toEqual(['020 7946 0018', '020 7946 0019']);
    expect(phonesIn('Tel.: 030 1234567')).toEqual(['030 1234567']);
  });

  it('keeps one number as written where a part is too short to be one', () => {
    expect(phonesIn('555-0101, ext 12')).toEqual(['555-0101, ext 12']);
    expect(phonesIn('030/1234567')).toEqual(['030/1234567']);
    expect(phonesIn('(415) 555-0101')).toEqual(['(415) 555-0101']);
  });
});
