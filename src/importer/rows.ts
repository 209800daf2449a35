// One source record -> a contact input checked and coerced by the contract's own schemas, or a
// reject with its line and a reason.
import { type AttributeDefinition, subMillisecondDigits } from '../api/attribute.js';
import { type ContactInputParsed, createContactValidators, EmailSchema } from '../api/contact.js';
import { toIssues } from '../api/envelope.js';
import { jsonDepthExceeds } from '../api/json-depth.js';
import { MAX_JSON_DEPTH, READ_ONLY_CONTACT_FIELDS } from '../api/limits.js';
import { canonicalTimeZone } from '../util/time-zone.js';
import { countryCode } from './countries.js';
import type { ColumnMapping, ColumnTarget } from './mapping.js';
import {
  internationalCountry,
  isInternational,
  type PhoneCandidates,
  type PhonePlace,
  placePhone,
} from './phones.js';
import type { Cell, SourceRecord } from './sources/types.js';
import {
  cellValues,
  cleanCell,
  type DateOrder,
  emailIn,
  firstValue,
  isLocalDateTime,
  LOST_CHARACTERS_RE,
  readBoolean,
  readDate,
  slashDateOrder,
} from './values.js';

/**
 * A field the row gave but that could not be read: the contact lands without it, and the field
 * goes to the fixes file with its original text and the reason (or, with `strict`, the row is
 * rejected).
 */
export interface FieldProblem {
  /** `phonenumber`, `name` or `custom_attributes.<name>`. */
  field: string;
  /** The text as the file wrote it. */
  value: string;
  reason: string;
}

export type RowResult =
  | {
      ok: true;
      line: number;
      input: ContactInputParsed;
      source: SourceRecord;
      /** Fields left out, for the fixes file (absent when none). */
      fixes?: FieldProblem[];
      /** Something the user should hear of, though the row is sent (a date-time cut to milliseconds). */
      notice?: string;
    }
  | { ok: false; line: number; reason: string; source: SourceRecord };

export interface RowValidatorOptions {
  /** National phone numbers are read as this country's (ISO code); all are stored as E.164. */
  defaultCountry?: string | undefined;
  /** The agent's attribute definitions: custom attributes are checked and coerced against them. */
  definitions: Iterable<AttributeDefinition>;
  /** CSV only: the column mapping. JSON records already use the contract's field names. */
  mapping?: ColumnMapping | undefined;
  /**
   * What the file itself says: the order of its slash dates, the countries of its international
   * phone numbers (grown as rows are read). A fresh one when not given.
   */
  evidence?: FileEvidence | undefined;
  /** A field that cannot be read rejects the whole row (no fixes). */
  strict?: boolean | undefined;
  /** A quoted empty cell (`""`) is the empty string, as before: it clears a name or a text attribute. */
  emptyStrings?: boolean | undefined;
  /** The IANA zone of date-times written without one (default UTC). */
  timeZone?: string | undefined;
}

/** What the validator noticed beside the rows' own results, for the closing report. */
export interface RowNotes {
  /** Cells that held several values (the first was used), by column header. */
  multiValue: Map<string, number>;
  /** Lines whose name holds a `??` run: characters lost before the file reached us. */
  lostCharacters: number[];
  lostCharactersCount: number;
  /** National numbers placed by the file's own evidence (no row or default country), by country. */
  placedByFile: Map<string, number>;
}

/** Fields of a contact that can land without the rest: one unreadable value costs only itself. */
const OPTIONAL_FIELD_RE = /^(name|phonenumber|stripe_accounts|custom_attributes\..+)$/;

const MAX_NOTED_LINES = 5;

export interface RowValidator {
  (source: SourceRecord): RowResult;
  readonly notes: RowNotes;
}

/**
 * A validator for the rows of one import. A CSV cell loses a leading spreadsheet apostrophe and
 * its padding; an empty cell, quoted or not, means "not given" (the field is left out, never
 * cleared) unless `emptyStrings` keeps `""` as the empty string. Email and phone cells holding
 * several values give their first. Phones are placed in a country and validated; dates and
 * booleans are read in the forms vendors write. JSON records pass as written (`null` clears), but
 * a numeric `external_id` becomes its string.
 */
export function createRowValidator({
  definitions,
  mapping,
  defaultCountry,
  evidence = new FileEvidence(mapping, definitions),
  strict = false,
  emptyStrings = false,
  timeZone,
}: RowValidatorOptions): RowValidator {
  const defs = [...definitions];
  const { input: schema } = createContactValidators(defs, { textValues: true });
  const types = new Map(defs.map((d) => [d.name, d.type]));
  // Only text attributes can hold "": for the other types an empty string is no value at all.
  const emptyAllowed = new Set(defs.filter((d) => d.type === 'text').map((d) => d.name));
  const notes: RowNotes = {
    multiValue: new Map(),
    lostCharacters: [],
    lostCharactersCount: 0,
    placedByFile: new Map(),
  };
  const country = defaultCountry?.toUpperCase();
  // This tool's own export reads back exactly: no trimming, `""` is the empty string.
  const exact = mapping?.exact === true;
  const columns =
    mapping &&
    new ColumnReader(
      mapping,
      types,
      emptyStrings || exact ? emptyAllowed : undefined,
      notes,
      exact,
      // UTC is what the contract makes of a time without a zone: no arithmetic to do.
      timeZone === undefined || canonicalTimeZone(timeZone) === 'UTC' ? undefined : timeZone,
    );
  const dates = defs.filter((d) => d.type === 'date').map((d) => d.name);

  const validate = (source: SourceRecord): RowResult => {
    const reject = (reason: string): RowResult => ({ ok: false, line: source.line, reason, source });
    if (source.error) return reject(source.error);
    const problems: FieldProblem[] = [];
    let candidate: Record<string, unknown> | string;
    let phones: PhoneCell[];
    if (columns) {
      const read = columns.read(source.raw ?? [], evidence, problems);
      if (typeof read === 'string') return reject(read);
      ({ candidate, phones } = read);
    } else {
      candidate = fromJson(source.record);
      if (typeof candidate === 'string') return reject(candidate);
      phones =
        typeof candidate.phonenumber === 'string' && candidate.phonenumber.trim()
          ? [{ text: candidate.phonenumber.trim(), raw: candidate.phonenumber, country: undefined }]
          : [];
    }
    // Phone numbers are stored in E.164, as production's own importer does. A copy: the record
    // itself goes to the rejects file as written if the row is refused later.
    let body = candidate;
    /** A phone passed over for a later one: said, so a bad main number is not lost unseen. */
    let passedOver: string | undefined;
    if (phones.length > 0) {
      // Each number in the country of its own row (its address's, where the file pairs them),
      // else the default country, else the countries the file itself gives.
      const candidatesFor = (phone: PhoneCell): PhoneCandidates =>
        phone.country
          ? { countries: [phone.country.code], from: 'row', column: phone.country.column }
          : country
            ? { countries: [country], from: 'default' }
            : { countries: evidence.phoneCountries(), from: 'file' };
      let placed: PhonePlace | undefined;
      for (const phone of phones) {
        const candidates = candidatesFor(phone);
        const result = placePhone(phone.text, candidates);
        if (result.ok) {
          if (placed && !placed.ok) {
            passedOver = `phonenumber: ${phones[0]!.text} not used (${placed.reason}); ${phone.text} used instead`;
          }
          placed = result;
          if (result.country && isInternational(phone.text)) evidence.addCountry(result.country);
          else if (result.country && candidates.from === 'file') {
            notes.placedByFile.set(result.country, (notes.placedByFile.get(result.country) ?? 0) + 1);
          }
          break;
        }
        placed ??= result;
      }
      body = { ...candidate };
      if (placed?.ok) body.phonenumber = placed.e164;
      else {
        delete body.phonenumber;
        if (placed) problems.push({ field: 'phonenumber', value: phones[0]!.raw, reason: placed.reason });
      }
    }
    let parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issues = toIssues(parsed.error);
      // An unknown field or attribute is the record's shape, not a value: the row is refused.
      const fatal = issues.filter(
        (issue) => !OPTIONAL_FIELD_RE.test(issue.field) || issue.message.startsWith('Unknown'),
      );
      for (const issue of issues) {
        if (fatal.includes(issue)) continue;
        problems.push({ field: issue.field, value: originalValue(body, issue.field), reason: issue.message });
      }
      if (fatal.length > 0 || strict) {
        return reject(listProblems(fatal, problems));
      }
      body = withoutFields(
        body,
        issues.map((issue) => issue.field),
      );
      parsed = schema.safeParse(body);
      if (!parsed.success) return reject(listProblems(toIssues(parsed.error), problems));
    }
    if (problems.length > 0 && strict) return reject(listProblems([], problems));
    const name = parsed.data.name;
    if (typeof name === 'string' && LOST_CHARACTERS_RE.test(name)) {
      notes.lostCharactersCount++;
      if (notes.lostCharacters.length < MAX_NOTED_LINES) notes.lostCharacters.push(source.line);
    }
    const notice =
      [dates.length > 0 ? precisionNotice(dates, candidate, parsed.data) : undefined, passedOver]
        .filter(Boolean)
        .join('; ') || undefined;
    const result: RowResult = { ok: true, line: source.line, input: parsed.data, source };
    if (problems.length > 0) result.fixes = problems;
    if (notice) result.notice = notice;
    return result;
  };
  return Object.assign(validate, { notes });
}

/** Every problem of a row, in one reason: `field: message; field: message`. */
function listProblems(
  issues: readonly { field: string; message: string }[],
  problems: FieldProblem[],
): string {
  return [
    ...issues.map((i) => `${i.field}: ${i.message}`),
    ...problems.map((p) => `${p.field}: ${p.reason}`),
  ].join('; ');
}

function originalValue(body: Record<string, unknown>, field: string): string {
  const value = field.startsWith('custom_attributes.')
    ? (body.custom_attributes as Record<string, unknown> | undefined)?.[
        field.slice('custom_attributes.'.length)
      ]
    : body[field];
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

function withoutFields(body: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out = { ...body };
  let attrs: Record<string, unknown> | undefined;
  for (const field of fields) {
    if (field.startsWith('custom_attributes.')) {
      attrs ??= { ...(out.custom_attributes as Record<string, unknown>) };
      delete attrs[field.slice('custom_attributes.'.length)];
    } else delete out[field];
  }
  if (attrs) {
    if (Object.keys(attrs).length > 0) out.custom_attributes = attrs;
    else delete out.custom_attributes;
  }
  return out;
}

/** A slash date whose day is above 12 reads one way only, whatever its column says. */
function ownOrder(value: string): DateOrder | undefined {
  const order = slashDateOrder(value);
  return order === 'either' ? undefined : order;
}

const ISO_T_RE = /^\d{4}-\d{2}-\d{2}T/;
const ZERO_DATE_RE = /^0{1,2}\/0{1,2}\/0{2,4}$/;

/** A cell as read, and its value ready to place. */
interface PhoneCell {
  text: string;
  raw: string;
  /** The row's country for this number (its own address's first), if the row names one. */
  country: { code: string; column: string } | undefined;
}

/**
 * What the file tells about itself, gathered as rows are read (the pipeline looks ahead a few
 * rows before the first is validated): for each date column, whether its slash dates are M/D/YYYY
 * or D/M/YYYY; and which countries its international phone numbers belong to and its country
 * columns name, the candidates for a national number with no country of its own.
 */
export class FileEvidence {
  readonly #dateColumns: {
    index: number;
    header: string;
    order: DateOrder | undefined;
    either?: string;
    conflict?: string;
    /** The value that decided the order, when the column's values did. */
    decidedBy?: string;
  }[];
  readonly #phoneColumns: number[];
  readonly #countryColumns: number[];
  readonly #multiValue: string[];
  /** Told of the first date-time without a zone, when the import was given no time zone. */
  #onLocalTime: ((header: string, example: string) => void) | undefined;
  readonly #countries = new Set<string>();
  /** The export's own order, for a column whose values leave it open. */
  readonly #fallbackOrder: DateOrder | undefined;
  #sorted: string[] | undefined = [];

  constructor(
    mapping: ColumnMapping | undefined,
    definitions: Iterable<AttributeDefinition>,
    options: {
      dateOrder?: DateOrder | undefined;
      /** Called once, for the first date-time without a zone in a date column. */
      onLocalTime?: ((header: string, example: string) => void) | undefined;
    } = {},
  ) {
    const dates = new Set([...definitions].filter((d) => d.type === 'date').map((d) => d.name));
    this.#dateColumns = [];
    mapping?.columns.forEach((targets, index) => {
      if (targets.some((t) => t.kind === 'attribute' && dates.has(t.name))) {
        this.#dateColumns.push({ index, header: mapping.header[index]!.trim(), order: options.dateOrder });
      }
    });
    this.#phoneColumns = mapping?.phoneColumns ?? [];
    this.#countryColumns = mapping?.countryColumns ?? [];
    this.#multiValue = mapping?.multiValue ?? [];
    this.#fallbackOrder = mapping?.dateOrder;
    this.#onLocalTime = this.#dateColumns.length > 0 ? options.onLocalTime : undefined;
  }

  /** Looks at one row's date and phone cells. */
  observe(raw: readonly Cell[]): void {
    for (const column of this.#dateColumns) {
      const cell = raw[column.index];
      if (!cell) continue;
      if (this.#onLocalTime) this.dateValue(column.index, cleanCell(cell));
      if (column.order && (column.either || !column.decidedBy)) continue;
      const order = slashDateOrder(cleanCell(cell));
      if (order === 'either') column.either ??= cleanCell(cell);
      else if (order) {
        if (column.order && column.order !== order) column.conflict ??= cleanCell(cell);
        if (!column.order) {
          column.order = order;
          column.decidedBy = cleanCell(cell);
        }
      }
    }
    for (const i of this.#phoneColumns) {
      const cell = raw[i];
      if (!cell) continue;
      const text = firstValue(cleanCell(cell), this.#multiValue).value;
      const found = internationalCountry(text);
      if (found) this.addCountry(found);
    }
    for (const i of this.#countryColumns) {
      const cell = raw[i];
      const code = cell ? countryCode(cleanCell(cell)) : undefined;
      if (code) this.addCountry(code);
    }
  }

  /**
   * A date column whose slash dates read both ways and none decided it: the import cannot guess.
   * (A column given its order by --date-order is never undecided.)
   */
  undecided(): { header: string; example: string } | undefined {
    if (this.#fallbackOrder) return undefined;
    const column = this.#dateColumns.find((c) => c.order === undefined && c.either !== undefined);
    return column && { header: column.header, example: column.either! };
  }

  /**
   * What the values decided of the date columns, said once: the order of a column whose slash
   * dates were open until one value read one way only (`31/05/2024`).
   */
  decisions(): string[] {
    return this.#dateColumns.flatMap((c) =>
      c.decidedBy && c.either
        ? [
            `Column "${c.header}" has dates like ${c.either} that read both ways; ${c.decidedBy} reads only as ` +
              `${c.order === 'dmy' ? 'D/M/YYYY (day first)' : 'M/D/YYYY (month first)'}, so the whole column is read so` +
              ' (--date-order chooses otherwise)',
          ]
        : [],
    );
  }

  /** Whether any date column is still open (looking further ahead may decide it). */
  get pending(): boolean {
    if (this.#fallbackOrder) return false;
    return this.#dateColumns.some((c) => c.order === undefined && c.either !== undefined);
  }

  /** A date column's value, as read: the first date-time without a zone is told of. */
  dateValue(index: number, value: string): void {
    if (!this.#onLocalTime || !isLocalDateTime(value)) return;
    const told = this.#onLocalTime;
    this.#onLocalTime = undefined;
    told(this.#dateColumns.find((c) => c.index === index)?.header ?? '', value);
  }

  dateOrder(index: number): DateOrder | undefined {
    const column = this.#dateColumns.find((c) => c.index === index);
    return column && (column.order ?? this.#fallbackOrder);
  }

  addCountry(code: string): void {
    if (this.#countries.has(code)) return;
    this.#countries.add(code);
    this.#sorted = undefined;
  }

  /** The countries of the file's international numbers so far, sorted. */
  phoneCountries(): string[] {
    this.#sorted ??= [...this.#countries].sort();
    return this.#sorted;
  }
}

/** The first date attribute of the row whose fractional seconds the stored value cuts. */
function precisionNotice(
  dates: readonly string[],
  candidate: Record<string, unknown>,
  parsed: ContactInputParsed,
): string | undefined {
  const given = candidate.custom_attributes as Record<string, unknown> | undefined;
  if (!given) return undefined;
  for (const name of dates) {
    if (!Object.hasOwn(given, name) || !subMillisecondDigits(given[name])) continue;
    const stored = parsed.custom_attributes?.[name];
    return `${name}: ${String(given[name])} is stored to the millisecond, as ${String(stored)}`;
  }
  return undefined;
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

type ReadRow = {
  candidate: Record<string, unknown>;
  phones: PhoneCell[];
};

/** The cells of a CSV row as a contact candidate, following the mapping. */
class ColumnReader {
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

  constructor(
    mapping: ColumnMapping,
    types: ReadonlyMap<string, string>,
    emptyAttributes: ReadonlySet<string> | undefined,
    notes: RowNotes,
    exact: boolean,
    timeZone: string | undefined,
  ) {
    this.#clean = exact ? (cell) => cell : cleanCell;
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
  }

  read(cells: Cell[], evidence: FileEvidence, problems: FieldProblem[]): ReadRow | string {
    const mapping = this.#mapping;
    const candidate: Record<string, unknown> = {};
    let attributes: Record<string, unknown> | undefined;
    let first = '';
    let middle = '';
    let last = '';
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
            } else if (value !== '' || target.field === 'name') candidate[target.field] = value;
            break;
          case 'attribute': {
            if (value === '' && !this.#emptyAttributes?.has(target.name)) break;
            attributes ??= {};
            const read = this.#attribute(target.name, value, i, evidence);
            if (read === undefined) {
              problems.push({
                field: `custom_attributes.${target.name}`,
                value: cell,
                reason: this.#unreadable(target.name, value, i, evidence),
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
        }
      }
    }
    // Google and Outlook keep the middle name apart: "John Ronald Reuel Tolkien" stays whole.
    if (candidate.name === undefined && (first || middle || last))
      candidate.name = [first, middle, last].filter(Boolean).join(' ');
    if (attributes && Object.keys(attributes).length > 0) candidate.custom_attributes = attributes;

    const email = rowEmail(this.#first(mapping.emailColumns, cells));
    if (email) candidate.email = email.text;
    if (mapping.keyFromEmail !== undefined) {
      if (!email)
        return `external_id: no email to key the contact by (no id column: external_id = ${mapping.keyFromEmail})`;
      candidate.external_id = keyOfEmail(email.text);
    }
    // Every value of every phone cell, in order: the first usable one is placed, in the country
    // of its own address where the file pairs them, else the row's first country.
    const phones = this.#first(mapping.phoneColumns, cells);
    if (mapping.countryColumns.length > 0) {
      const codes = new Map<number, { code: string; column: string } | undefined>();
      const countryOf = (i: number) => {
        if (!codes.has(i)) {
          const cell = cells[i];
          const code = cell ? countryCode(cleanCell(cell)) : undefined;
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
    return { candidate, phones };
  }

  /** The values of the non-empty cells of ordered columns (email, phone), in order. */
  #first(columns: readonly number[], cells: Cell[]): OrderedValue[] {
    return orderedValues(this.#mapping, columns, cells, (i) => {
      const header = this.#mapping.header[i]!.trim();
      this.#notes.multiValue.set(header, (this.#notes.multiValue.get(header) ?? 0) + 1);
    });
  }

  /** An attribute's value in the form its type takes, or undefined when it cannot be read. */
  #attribute(name: string, value: string, column: number, evidence: FileEvidence): unknown {
    switch (this.#types.get(name)) {
      case 'boolean':
        return readBoolean(value);
      case 'date':
        // Outlook writes an empty date as 0/0/00.
        if (ZERO_DATE_RE.test(value)) return null;
        evidence.dateValue(column, value);
        // ISO 8601 with a T is the contract's own form: it reads it (and says what it rounds),
        // but as UTC when it has no zone.
        if (ISO_T_RE.test(value) && (this.#timeZone === undefined || !isLocalDateTime(value))) return value;
        return readDate(value, evidence.dateOrder(column) ?? ownOrder(value), this.#timeZone);
      default:
        // Text and number: the contract's own text schemas say what is wrong.
        return value;
    }
  }

  #unreadable(name: string, value: string, column: number, evidence: FileEvidence): string {
    if (this.#types.get(name) === 'boolean') {
      return `"${value}" is not a yes/no value (yes/no, y/n, on/off, checked, true/false, 1/0)`;
    }
    if (slashDateOrder(value) === 'either' && !evidence.dateOrder(column)) {
      return `"${value}" reads as both M/D/YYYY and D/M/YYYY: pass --date-order mdy or --date-order dmy`;
    }
    return `"${value}" is not a date (2024-05-31, 2024-05-31 17:59, 5/31/2024, 31-May-2024)`;
  }
}

type OrderedValue = PhoneCell & { column: number };

/**
 * The values of a row's non-empty cells in ordered columns (email, phone), in order;
 * `onSeveral` is told of each cell that holds several.
 */
function orderedValues(
  mapping: ColumnMapping,
  columns: readonly number[],
  cells: readonly Cell[],
  onSeveral?: (column: number) => void,
): OrderedValue[] {
  const found: OrderedValue[] = [];
  for (const i of columns) {
    const cell = cells[i];
    if (cell === undefined) continue;
    const cleaned = cleanCell(cell);
    if (cleaned === '') continue;
    const values = cellValues(cleaned, mapping.multiValue);
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

/**
 * The record ready for the contract's input schema: without the read-only fields of a
 * record (a JSON export imports again as is), and with a numeric external_id as its string,
 * or why it cannot be one.
 */
function fromJson(source: Record<string, unknown>): Record<string, unknown> | string {
  let record = source;
  if (READ_ONLY_CONTACT_FIELDS.some((f) => f in source)) {
    record = { ...source };
    for (const f of READ_ONLY_CONTACT_FIELDS) delete record[f];
  }
  const id = record.external_id;
  if (typeof id !== 'number') return record;
  if (!Number.isFinite(id)) return 'external_id: Expected a string';
  if (Number.isInteger(id) && !Number.isSafeInteger(id)) {
    return `external_id: ${id} is too large to keep exactly as a JSON number; write it as a string`;
  }
  return { ...record, external_id: String(id) };
}
