// The cells of a table's row as a contact candidate, following the column mapping: names joined
// from their parts, attributes read in their type's form, the row's email and its phones in the
// order their columns are tried, each phone with the country of its own address.
import { separatedNumber, separatedNumberProblem } from '../api/attribute.js';
import { EmailSchema } from '../api/contact.js';
import { jsonDepthExceeds } from '../api/json-depth.js';
import { MAX_JSON_DEPTH } from '../api/limits.js';
import type { ColumnTarget } from './column-targets.js';
import { rowCountry } from './countries.js';
import type { FileEvidence, LocalTime } from './file-evidence.js';
import type { ColumnMapping } from './mapping.js';
import { decimalMarkNote, type EvidenceNote, namesReorderedNote } from './notes.js';
import { rowRegion } from './regions.js';
import type { FieldProblem, RowNotes } from './row-validator.js';
import type { Cell } from './sources/types.js';
import {
  cellValues,
  cleanCell,
  type DateOrder,
  emailIn,
  isLocalDateTime,
  joinName,
  phonesIn,
  readBoolean,
  readDate,
  slashDateOrder,
  spokenName,
  withoutCurrency,
  withoutGuestTag,
} from './values.js';

/** A slash date whose day is above 12 reads one way only, whatever its column says. */
function ownOrder(value: string): DateOrder | undefined {
  const order = slashDateOrder(value);
  return order === 'either' ? undefined : order;
}

const ISO_T_RE = /^\d{4}-\d{2}-\d{2}T/;
const ZERO_DATE_RE = /^(?:0{1,2}(?<sep>[/.])0{1,2}\k<sep>0{2,4}|0{4}-00-00)(?:[ T]00:00(?::00)?)?$/;

/** A cell as read, and its value ready to place. */
export interface PhoneCell {
  text: string;
  raw: string;
  /**
   * The row's country for this number (its own address's first), if the row names one.
   * `byAddress`: named by its address or time zone, which a default country overrides; `weak`:
   * by its time zone or its state alone, which the file's own evidence comes before.
   */
  country: { code: string; column: string; byAddress?: true; weak?: true } | undefined;
}

/** A cell holding JSON (the stripe_accounts column), parsed; its text as is when it is not JSON. */
function jsonCell(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return jsonDepthExceeds(value, MAX_JSON_DEPTH) ? text : value;
  } catch {
    // The schema then says what is wrong: "Expected array, received string".
    return text;
  }
}

/** A login: Latin letters, digits, `.`, `_` and `-`, no space (`marie_l`, `hans.weber`, `gbianchi`). */
const LOGIN_RE = /^[\p{Script=Latin}\d._-]+$/u;

/** An email address where a name was to be: no spaces, one `@`, a dot after it. */
const ADDRESS_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What `read` returns for a row with nothing to import, not even its key. */
export const BLANK_ROW = Symbol('blank row');

type ReadRow = {
  candidate: Record<string, unknown>;
  phones: PhoneCell[];
};

/** The cells of a CSV row as a contact candidate, following the mapping. */
export class ColumnReader {
  readonly #mapping: ColumnMapping;
  readonly #types: ReadonlyMap<string, string>;
  /** With `emptyStrings`: the text attributes a `""` cell clears. */
  readonly #emptyAttributes: ReadonlySet<string> | undefined;
  readonly #notes: RowNotes;
  readonly #clean: (cell: string) => string;
  /** Columns filling single targets: [index, targets] without the ordered email/phone ones. */
  readonly #plain: [number, ColumnTarget[]][];
  /** The zone of date-times without one; undefined for UTC. */
  readonly #timeZone: string | undefined;
  /** The file's first date-time without a zone, met in the rows read since `takeLocalTime()`. */
  #localTime: LocalTime | undefined;
  #decimalNote: EvidenceNote | undefined;
  #decimalSaid = false;
  /** Whether names written "Last, First" are read in the order said (see ColumnMapping.namesAsWritten). */
  readonly #reorderNames: boolean;
  #nameNote: EvidenceNote | undefined;
  #nameSaid = false;
  /** This tool's own export, read back as written. */
  readonly #exact: boolean;
  /** Whether a login in the name column gives way to the first and last names (see namesAsWritten). */
  readonly #loginsGiveWay: boolean;
  /** The header of the column the key is read from, where one is (not an email's). */
  readonly #keyColumn: string | undefined;

  constructor(
    mapping: ColumnMapping,
    types: ReadonlyMap<string, string>,
    emptyAttributes: ReadonlySet<string> | undefined,
    notes: RowNotes,
    exact: boolean,
    timeZone: string | undefined,
  ) {
    this.#clean = exact ? (cell) => cell : cleanCell;
    this.#exact = exact;
    this.#loginsGiveWay = !exact && !mapping.namesAsWritten;
    this.#reorderNames = !exact && !mapping.namesAsWritten;
    this.#timeZone = timeZone;
    this.#mapping = mapping;
    this.#types = types;
    this.#emptyAttributes = emptyAttributes;
    this.#notes = notes;
    this.#plain = [];
    mapping.columns.forEach((targets, i) => {
      const rest = targets.filter(
        (t) =>
          !(t.kind === 'field' && (t.field === 'phonenumber' || t.field === 'email')) &&
          !(t.kind === 'field' && t.field === 'external_id' && mapping.keyFromEmail !== undefined) &&
          t.kind !== 'country',
      );
      if (rest.length > 0) this.#plain.push([i, rest]);
    });
    const key = mapping.columns.findIndex((targets) =>
      targets.some((t) => t.kind === 'field' && t.field === 'external_id'),
    );
    this.#keyColumn =
      key >= 0 && mapping.keyFromEmail === undefined ? mapping.header[key]?.trim() : undefined;
  }

  /** No value in any column read (a country aside): a form's response left before its first answer. */
  #blank(cells: Cell[]): boolean {
    return this.#mapping.columns.every(
      (targets, i) =>
        targets.every((t) => t.kind === 'country') || cells[i] === undefined || this.#clean(cells[i]!) === '',
    );
  }

  read(cells: Cell[], evidence: FileEvidence, problems: FieldProblem[]): ReadRow | string | typeof BLANK_ROW {
    const mapping = this.#mapping;
    const candidate: Record<string, unknown> = {};
    let attributes: Record<string, unknown> | undefined;
    let first = '';
    let middle = '';
    let last = '';
    let suffix = '';
    let emailAsName: string | undefined;
    for (const [i, targets] of this.#plain) {
      const cell = cells[i];
      if (cell === undefined) continue;
      const value = this.#clean(cell);
      const keepEmpty = cell === '' && this.#emptyAttributes !== undefined;
      if (value === '' && !keepEmpty) continue;
      for (const target of targets) {
        switch (target.kind) {
          case 'field':
            if (target.field === 'stripe_accounts') {
              if (value !== '') candidate.stripe_accounts = jsonCell(value);
            } else if (target.field === 'name') {
              // An address book writes the email where it has no name (Thunderbird's Display
              // Name): the first and last names, where the row has them, are the name.
              if (!this.#exact && ADDRESS_RE.test(value)) emailAsName = value;
              else candidate.name = this.#reorderNames ? this.#spoken(withoutGuestTag(value), i) : value;
            } else if (value !== '') candidate[target.field] = value;
            break;
          case 'attribute': {
            if (value === '' && !this.#emptyAttributes?.has(target.name)) break;
            attributes ??= {};
            const read = this.#attribute(target.name, value, i, evidence);
            if (read === undefined) {
              problems.push({
                field: `custom_attributes.${target.name}`,
                value: cell,
                ...this.#unreadable(target.name, value, i, evidence),
              });
            } else if (read !== null) attributes[target.name] = read;
            break;
          }
          case 'first_name':
            first = value;
            break;
          case 'middle_name':
            middle = value;
            break;
          case 'last_name':
            last = value;
            break;
          case 'name_suffix':
            suffix = value;
            break;
        }
      }
    }
    // Google and Outlook keep the middle name apart: "John Ronald Reuel Tolkien" stays whole.
    // A login where the row has both a first and a last name (WordPress's display_name is the
    // login, `marie_l`): the name is the parts. Not in a column the user mapped to the name.
    const login =
      this.#loginsGiveWay &&
      typeof candidate.name === 'string' &&
      first !== '' &&
      last !== '' &&
      LOGIN_RE.test(candidate.name) &&
      (/[._\d-]/.test(candidate.name) || candidate.name === candidate.name.toLowerCase());
    if ((candidate.name === undefined || login) && (first || middle || last))
      candidate.name = [joinName(first, middle, last), suffix].filter(Boolean).join(' ');
    if (candidate.name === undefined && emailAsName !== undefined) candidate.name = emailAsName;
    if (attributes && Object.keys(attributes).length > 0) candidate.custom_attributes = attributes;

    const email = rowEmail(this.#first(mapping.emailColumns, cells));
    if (email) candidate.email = email.text;
    if (mapping.keyFromEmail !== undefined) {
      if (!email)
        return this.#blank(cells)
          ? BLANK_ROW
          : `external_id: no email to key the contact by (no id column: external_id = ${mapping.keyFromEmail}): add the email, or map a column of ids to external_id`;
      candidate.external_id = keyOfEmail(email.text);
    } else if (this.#keyColumn !== undefined && candidate.external_id === undefined) {
      return this.#blank(cells)
        ? BLANK_ROW
        : `external_id: no value in the key column ${JSON.stringify(this.#keyColumn)}`;
    }
    // Every value of every phone cell, in order: the first usable one is placed, in the country
    // of its own address where the file pairs them, else the row's first country.
    const phones = this.#first(mapping.phoneColumns, cells, phonesIn);
    if (mapping.countryColumns.length > 0) {
      const codes = new Map<number, { code: string; column: string } | undefined>();
      const countryOf = (i: number) => {
        if (!codes.has(i)) {
          const cell = cells[i];
          const code = cell ? rowCountry(cleanCell(cell)) : undefined;
          codes.set(i, code ? { code, column: mapping.header[i]!.trim() } : undefined);
          if (code) evidence.addCountry(code);
        }
        return codes.get(i);
      };
      // The row's first country is the file's evidence, whether or not the row has a phone.
      for (const i of mapping.countryColumns) if (countryOf(i)) break;
      for (const phone of phones) {
        for (const i of mapping.phoneCountryColumns.get(phone.column) ?? mapping.countryColumns) {
          phone.country = countryOf(i);
          if (phone.country) break;
        }
      }
    }
    // No country column names one: the address may (`TX` and `78701`).
    const regions = mapping.regionColumns ?? [];
    if (regions.length > 0 && phones.some((phone) => phone.country === undefined)) {
      const found = rowRegion(regions, cells);
      if (found) {
        // A time zone or a state alone is a row's word only: other rows' numbers are not read by it.
        if (!found.weak) evidence.addCountry(found.code);
        for (const phone of phones) phone.country ??= { ...found, byAddress: true };
      }
    }
    return { candidate, phones };
  }

  /** A name written "Last, First" in the order said; the first such is told, once. */
  #spoken(value: string, column: number): string {
    if (!value.includes(',')) return value;
    const spoken = spokenName(value);
    if (spoken !== value && !this.#nameSaid) {
      this.#nameSaid = true;
      this.#nameNote = namesReorderedNote(this.#mapping.header[column]?.trim() ?? '', value, spoken);
    }
    return spoken;
  }

  /** The note of the first name read in the order said, once, then told. */
  takeNameNote(): EvidenceNote | undefined {
    const note = this.#nameNote;
    this.#nameNote = undefined;
    return note;
  }

  /** The first number read by the decimal mark the file showed elsewhere, once, then told. */
  takeDecimalNote(): EvidenceNote | undefined {
    const note = this.#decimalNote;
    this.#decimalNote = undefined;
    return note;
  }

  /** The file's first date-time without a zone, when the row read last held it (then told once). */
  takeLocalTime(): LocalTime | undefined {
    const local = this.#localTime;
    this.#localTime = undefined;
    return local;
  }

  /** The values of the non-empty cells of ordered columns (email, phone), in order. */
  #first(columns: readonly number[], cells: Cell[], split?: (value: string) => string[]): OrderedValue[] {
    return orderedValues(
      this.#mapping,
      columns,
      cells,
      (i) => {
        const header = this.#mapping.header[i]!.trim();
        this.#notes.multiValue.set(header, (this.#notes.multiValue.get(header) ?? 0) + 1);
      },
      split,
    );
  }

  /** An attribute's value in the form its type takes, or undefined when it cannot be read. */
  #attribute(name: string, value: string, column: number, evidence: FileEvidence): unknown {
    switch (this.#types.get(name)) {
      case 'boolean':
        return readBoolean(value);
      case 'date':
        // Outlook writes an empty date as 0/0/00 (a German one as 0.0.00), MySQL's tools as 0000-00-00.
        if (ZERO_DATE_RE.test(value)) return null;
        this.#localTime ??= evidence.dateValue(column, value);
        // ISO 8601 with a T is the contract's own form: it reads it (and says what it rounds),
        // but as UTC when it has no zone.
        if (ISO_T_RE.test(value) && (this.#timeZone === undefined || !isLocalDateTime(value))) return value;
        return readDate(value, evidence.dateOrder(column) ?? ownOrder(value), this.#timeZone);
      case 'number': {
        // As spreadsheets write numbers (`1,200.00`, `1.234,56`, `3,5`), as plain text for the
        // contract's own schema to read; `1,200` and `1.200` by the decimal mark the file's numbers
        // show, and while they show none (or both), not at all (see #unreadable): `1.200` would
        // be the contract's 1.2 where a later row may show that dots group thousands.
        const amount = withoutCurrency(value);
        const known = evidence.decimalMark(column, amount);
        const form = separatedNumber(amount);
        if (!form) return amount;
        if (form.asDecimal === undefined) return form.plain;
        if (!known) return undefined;
        const read = amount.includes(known.mark) ? form.asDecimal : form.plain;
        if (!this.#decimalSaid) {
          this.#decimalSaid = true;
          this.#decimalNote = decimalMarkNote(this.#mapping.header[column]!.trim(), value, read, known);
        }
        return read;
      }
      default:
        // Text: the contract's own text schema says what is wrong.
        return value;
    }
  }

  #unreadable(
    name: string,
    value: string,
    column: number,
    evidence: FileEvidence,
  ): Pick<FieldProblem, 'reason' | 'code'> {
    const type = this.#types.get(name);
    if (type === 'number') {
      const both = evidence.decimalMarksDisagree();
      const why = both
        ? ` (this file's numbers show both: ${both[0].example} in column "${both[0].column}", ${both[1].example} in column "${both[1].column}")`
        : ' (no number read so far shows which mark this file uses)';
      return { reason: `${separatedNumberProblem(value)}${why}` };
    }
    if (type === 'boolean') {
      return {
        reason: `"${value}" is not a yes/no value (yes/no, y/n, on/off, checked, true/false, 1/0, ja/nein, oui/non, sí/no, sim/não)`,
      };
    }
    if (slashDateOrder(value) === 'either' && !evidence.dateOrder(column)) {
      return {
        reason: `"${value}" reads as both M/D/YYYY and D/M/YYYY, and no date of its column decides which`,
        code: 'date_order_open',
      };
    }
    return { reason: `"${value}" is not a date (2024-05-31, 2024-05-31 17:59, 5/31/2024, 31-May-2024)` };
  }
}

type OrderedValue = PhoneCell & { column: number };

/**
 * The values of a row's non-empty cells in ordered columns (email, phone), in order;
 * `onSeveral` is told of each cell that holds several; `split` reads several in one value.
 */
function orderedValues(
  mapping: ColumnMapping,
  columns: readonly number[],
  cells: readonly Cell[],
  onSeveral?: (column: number) => void,
  split?: (value: string) => string[],
): OrderedValue[] {
  const found: OrderedValue[] = [];
  for (const i of columns) {
    const cell = cells[i];
    if (cell === undefined) continue;
    const cleaned = cleanCell(cell);
    if (cleaned === '') continue;
    const values = cellValues(cleaned, mapping.multiValue).flatMap((v) => (split ? split(v) : [v]));
    if (values.length > 1) onSeveral?.(i);
    for (const value of values) found.push({ text: value, raw: cell, column: i, country: undefined });
  }
  return found;
}

/**
 * The row's email, of its email columns' values: the first value of the first email cell,
 * unless it is no address and a later one of the same cell is (`bad ::: ann@x`).
 */
function rowEmail(emails: OrderedValue[]): OrderedValue | undefined {
  for (const e of emails) e.text = emailIn(e.text);
  return emails.find((e) => e.raw === emails[0]?.raw && EmailSchema.safeParse(e.text).success) ?? emails[0];
}

/**
 * The key of a contact whose file has no id column: its email in lower case, as the service
 * compares emails (`Ann@x` and `ann@x` in one file, or in this export and the next, are one
 * contact, not a second one refused for its email).
 */
function keyOfEmail(email: string): string {
  return email.toLowerCase();
}

/**
 * The external_id an import gives a row of a file keyed by email (`mapping.keyFromEmail`), or
 * undefined when the row has no email: what `delete --from` that file must delete.
 */
export function emailKey(mapping: ColumnMapping, cells: readonly Cell[]): string | undefined {
  const email = rowEmail(orderedValues(mapping, mapping.emailColumns, cells));
  return email && keyOfEmail(email.text);
}
