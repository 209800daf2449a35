// A table's row as a contact candidate, and the key an import gives a row of a file keyed by email.
import { describe, expect, it } from 'vitest';
import { parseMapOption } from '../../src/cli/map-options.js';
import { ColumnReader, emailKey } from '../../src/importer/column-reader.js';
import { FileEvidence } from '../../src/importer/file-evidence.js';
import { resolveMapping } from '../../src/importer/mapping.js';
import type { FieldProblem, RowNotes } from '../../src/importer/row-validator.js';
import { DEFINITIONS } from './helpers.js';

const notes = (): RowNotes => ({
  multiValue: new Map(),
  lostCharacters: [],
  lostCharactersCount: 0,
  emptyRows: [],
  emptyRowsCount: 0,
  placedByFile: new Map(),
});

describe('ColumnReader', () => {
  it('joins the parts of a name, reads attributes by type, and lists the phones with their country', () => {
    const mapping = resolveMapping({
      header: ['User ID', 'First Name', 'Last Name', 'Seats', 'Signup Date', 'Phone', 'Country'],
      definitions: DEFINITIONS,
    });
    const types = new Map(DEFINITIONS.map((d) => [d.name, d.type]));
    const reader = new ColumnReader(mapping, types, undefined, notes(), false, undefined);
    const evidence = new FileEvidence(mapping, DEFINITIONS, { watchLocalTimes: true });
    const problems: FieldProblem[] = [];
    const read = reader.read(
      ['u1', ' Ann ', 'Lee', '3', '2024-03-22 17:59', '020 7946 0958', 'United Kingdom'],
      evidence,
      problems,
    );
    expect(read).toEqual({
      candidate: {
        external_id: 'u1',
        name: 'Ann Lee',
        custom_attributes: { seats: '3', signup_date: '2024-03-22T17:59:00.000Z' },
      },
      phones: [
        {
          text: '020 7946 0958',
          raw: '020 7946 0958',
          column: 5,
          country: { code: 'GB', column: 'Country' },
        },
      ],
    });
    expect(problems).toEqual([]);
    // The file's first date-time without a zone, for the validator to tell of, once.
    expect(reader.takeLocalTime()).toEqual({ column: 'Signup Date', example: '2024-03-22 17:59' });
    expect(reader.takeLocalTime()).toBeUndefined();
  });

  it("reads the first and last names where an address book's display name is the email", () => {
    const mapping = resolveMapping({
      header: ['First Name', 'Last Name', 'Display Name', 'Primary Email'],
      definitions: DEFINITIONS,
    });
    const reader = new ColumnReader(mapping, new Map(), undefined, notes(), false, undefined);
    const evidence = new FileEvidence(mapping, DEFINITIONS);
    const name = (cells: string[]) => {
      const read = reader.read(cells, evidence, []);
      return typeof read === 'object' ? read.candidate.name : read;
    };
    expect(name(['Ada', 'Lovelace', 'ada@example.com', 'ada@example.com'])).toBe('Ada Lovelace');
    expect(name(['Ada', 'Lovelace', 'Countess Ada', 'ada@example.com'])).toBe('Countess Ada');
    expect(name(['Tom', 'Walker', '', 'tom@example.com'])).toBe('Tom Walker');
    // With no other name the address stays what the row calls its name.
    expect(name(['', '', 'grace@example.com', 'grace@example.com'])).toBe('grace@example.com');
    // A login beside a first and a last name gives way to them (WordPress's display_name).
    expect(name(['Marie', 'Laurent', 'marie_l', 'marie@example.com'])).toBe('Marie Laurent');
    expect(name(['Hans', 'Weber', 'hans.weber', 'hans@example.com'])).toBe('Hans Weber');
    expect(name(['Giulia', 'Bianchi', 'gbianchi', 'giulia@example.com'])).toBe('Giulia Bianchi');
    // A nickname, a mononym or a company is a name the row gives: kept.
    expect(name(['Robert', 'Smith', 'Bob', 'bob@example.com'])).toBe('Bob');
    expect(name(['Cher', 'Sarkisian', 'Cher', 'cher@example.com'])).toBe('Cher');
    expect(name(['John', 'Smith', 'Acme', 'john@acme.example'])).toBe('Acme');
  });

  it('keeps a name in another script than its parts, and a name column the user mapped', () => {
    const read = (header: string[], cells: string[], overrides: string[] = []) => {
      const mapping = resolveMapping({
        header,
        definitions: DEFINITIONS,
        overrides: overrides.map(parseMapOption),
      });
      const reader = new ColumnReader(mapping, new Map(), undefined, notes(), false, undefined);
      const row = reader.read(cells, new FileEvidence(mapping), []);
      return typeof row === 'object' && row.candidate.name;
    };
    expect(read(['姓', '名', '氏名', 'メール'], ['山田', '太郎', '山田太郎', 'taro@example.jp'])).toBe(
      '山田太郎',
    );
    expect(
      read(['姓名', 'First Name', 'Last Name', 'Email'], ['王小明', 'Xiaoming', 'Wang', 'w@example.cn']),
    ).toBe('王小明');
    expect(
      read(
        ['Company', 'First Name', 'Last Name', 'Email'],
        ['acme', 'John', 'Smith', 'j@acme.example'],
        ['Company=name'],
      ),
    ).toBe('acme');
  });

  it('reads amounts of money, localized yes/no words and the zero dates exports write for none', () => {
    const mapping = resolveMapping({
      header: ['User ID', 'Seats', 'VIP', 'Signup Date'],
      definitions: DEFINITIONS,
    });
    const types = new Map(DEFINITIONS.map((d) => [d.name, d.type]));
    const reader = new ColumnReader(mapping, types, undefined, notes(), false, undefined);
    const evidence = new FileEvidence(mapping, DEFINITIONS);
    const rows = [
      ['u1', '$12,480.00', 'Ein', '0.0.00'],
      ['u2', '12,50 €', 'Nein', '0000-00-00'],
      ['u3', '-$5', 'oui', '0/0/00'],
      ['u4', 'USD 7', 'sì', '0000-00-00 00:00:00'],
    ];
    const read = rows.map((row) => {
      const problems: FieldProblem[] = [];
      const result = reader.read(row, evidence, problems);
      expect(problems, row[0]).toEqual([]);
      if (typeof result !== 'object') throw new Error(`${row[0]}: ${String(result)}`);
      return result.candidate.custom_attributes;
    });
    // A zero date is no date: the field is left as it is, with nothing to fix.
    expect(read).toEqual([
      { seats: '12480.00', vip: true },
      { seats: '12.50', vip: false },
      { seats: '-5', vip: true },
      { seats: '7', vip: true },
    ]);
  });

  it('lists a value it cannot read as a problem, with a code when a date order would read it', () => {
    const mapping = resolveMapping({ header: ['User ID', 'VIP', 'Signup Date'], definitions: DEFINITIONS });
    const types = new Map(DEFINITIONS.map((d) => [d.name, d.type]));
    const reader = new ColumnReader(mapping, types, undefined, notes(), false, undefined);
    const problems: FieldProblem[] = [];
    reader.read(['u1', 'maybe', '3/4/2024'], new FileEvidence(mapping, DEFINITIONS), problems);
    expect(problems).toEqual([
      {
        field: 'custom_attributes.vip',
        value: 'maybe',
        reason:
          '"maybe" is not a yes/no value (yes/no, y/n, on/off, checked, true/false, 1/0, ja/nein, oui/non, sí/no, sim/não)',
      },
      {
        field: 'custom_attributes.signup_date',
        value: '3/4/2024',
        reason: '"3/4/2024" reads as both M/D/YYYY and D/M/YYYY, and no date of its column decides which',
        code: 'date_order_open',
      },
    ]);
  });
});

describe('emailKey', () => {
  it('keys a row of a file without an id column by its email in lower case', () => {
    const mapping = resolveMapping({ header: ['Name', 'Email'], definitions: [] });
    expect(emailKey(mapping, ['Ann', 'Ann@Example.com'])).toBe('ann@example.com');
    expect(emailKey(mapping, ['Ann', undefined])).toBeUndefined();
  });
});
