// One source record -> a contact input checked and coerced by the contract's own schemas, or a
// reject with its line and a reason. A table's cells are read by ./column-reader.ts first; what
// the file says of itself (./file-evidence.ts) places its phones and orders its dates.
import { type AttributeDefinition, subMillisecondDigits } from '../api/attribute.js';
import { type ContactInputParsed, createContactValidators } from '../api/contact.js';
import { toIssues } from '../api/envelope.js';
import { READ_ONLY_CONTACT_FIELDS } from '../api/limits.js';
import { canonicalTimeZone } from '../util/time-zone.js';
import { BLANK_ROW, ColumnReader, type PhoneCell } from './column-reader.js';
import { FileEvidence } from './file-evidence.js';
import type { ColumnMapping } from './mapping.js';
import { type EvidenceNote, localTimesNote } from './notes.js';
import {
  isInternational,
  type PhoneCandidates,
  type PhonePlace,
  placePhone,
  writtenAsOwn,
} from './phones.js';
import type { SourceRecord } from './sources/types.js';
import { LOST_CHARACTERS_RE } from './values.js';

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
  /** What kind of problem, when an option of the import would read the value (see `ProblemCode`). */
  code?: ProblemCode | undefined;
}

/**
 * A value the import could read with an option it was not given: a national phone number with a
 * default country, a slash date that reads both ways with a date order.
 */
export type ProblemCode = 'phone_no_country' | 'phone_ambiguous' | 'date_order_open';

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
      /** What reading the row found of the whole file (its first date-time without a zone). */
      note?: EvidenceNote;
      /**
       * The row gives nothing but its key where the file's columns fill more: sent, it would make
       * an empty contact (a partial form response, a lead without people). Not sent by an import.
       */
      empty?: true;
    }
  | {
      ok: false;
      line: number;
      reason: string;
      source: SourceRecord;
      /** No value in any column read, not even a key: not refused, counted with `empty`. */
      blank?: true;
      /** The kinds of its problems an option of the import would read (absent when none). */
      codes?: ProblemCode[];
      note?: EvidenceNote;
    };

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
  /** Lines of rows that give nothing but their key (see `empty`), the first few, and how many. */
  emptyRows: number[];
  emptyRowsCount: number;
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
  evidence: givenEvidence,
  strict = false,
  emptyStrings = false,
  timeZone,
}: RowValidatorOptions): RowValidator {
  const defs = [...definitions];
  const evidence = givenEvidence ?? new FileEvidence(mapping, defs);
  const { input: schema } = createContactValidators(defs, { textValues: true });
  const types = new Map(defs.map((d) => [d.name, d.type]));
  // Only text attributes can hold "": for the other types an empty string is no value at all.
  const emptyAllowed = new Set(defs.filter((d) => d.type === 'text').map((d) => d.name));
  const notes: RowNotes = {
    multiValue: new Map(),
    lostCharacters: [],
    lostCharactersCount: 0,
    placedByFile: new Map(),
    emptyRows: [],
    emptyRowsCount: 0,
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
  const fillsMoreThanKeys =
    !exact &&
    mapping?.columns.some((targets) =>
      targets.some((t) => t.kind !== 'country' && !(t.kind === 'field' && t.field === 'external_id')),
    ) === true;

  const validate = (source: SourceRecord): RowResult => {
    let note: EvidenceNote | undefined;
    const reject = (reason: string, problems?: readonly FieldProblem[]): RowResult => {
      const failed: Extract<RowResult, { ok: false }> = { ok: false, line: source.line, reason, source };
      const codes = problems && problemCodes(problems);
      if (codes) failed.codes = codes;
      if (note) failed.note = note;
      return failed;
    };
    if (source.error) return reject(source.error);
    const problems: FieldProblem[] = [];
    let candidate: Record<string, unknown> | string;
    let phones: PhoneCell[];
    if (columns) {
      const read = columns.read(source.raw ?? [], evidence, problems);
      const local = columns.takeLocalTime();
      // One note a row: a number's, if any, waits for the next row.
      note = local
        ? localTimesNote(local.column, local.example)
        : (columns.takeDecimalNote() ?? columns.takeNameNote());
      if (typeof read === 'string') return reject(read);
      // Nothing to import, not even a key: counted with the rows of a key alone, not refused.
      if (read === BLANK_ROW) {
        notes.emptyRowsCount++;
        if (notes.emptyRows.length < MAX_NOTED_LINES) notes.emptyRows.push(source.line);
        return { ok: false, line: source.line, reason: 'nothing to import', source, blank: true };
      }
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
      const candidatesFor = (phone: PhoneCell): PhoneCandidates[] => {
        // Where most of the file's numbers are national, only the countries it shows its own.
        const countries = evidence.nationalCountries();
        const named = countries.length === 0 ? evidence.phoneCountries() : countries;
        const file: PhoneCandidates = {
          countries,
          from: 'file',
          withCodes: evidence.writesCountryCodes(),
          ...(named.length > countries.length ? { outnumbered: named } : {}),
        };
        // A country the address implies gives way to one the user gave.
        if (!phone.country || (phone.country.byAddress && country))
          return [country ? { countries: [country], from: 'default' } : file];
        const row: PhoneCandidates = {
          countries: [phone.country.code],
          from: 'row',
          column: phone.country.column,
        };
        // A time zone is where the person was, not always whose number it is (a traveller's), and a
        // state alone may be another country's province: the file's own evidence reads it first.
        return phone.country.weak && file.countries.length > 0 ? [file, row] : [row];
      };
      let placed: PhonePlace | undefined;
      for (const phone of phones) {
        let candidates!: PhoneCandidates;
        let result!: PhonePlace;
        for (const tried of candidatesFor(phone)) {
          let found = placePhone(phone.text, tried);
          // A country one or two numbers name reads only what it writes as its own.
          if (
            found.ok &&
            tried.from === 'file' &&
            found.withCode !== true &&
            found.country !== undefined &&
            !isInternational(phone.text) &&
            evidence.readsOnlyAsOwn(found.country) &&
            !writtenAsOwn(phone.text, found.country)
          ) {
            found = placePhone(phone.text, {
              ...tried,
              countries: [],
              outnumbered: evidence.phoneCountries(),
            });
          }
          if (result === undefined || found.ok) [candidates, result] = [tried, found];
          if (found.ok) break;
        }
        if (result.ok) {
          if (placed && !placed.ok) {
            passedOver = `phonenumber: ${phones[0]!.text} not used (${placed.reason}); ${phone.text} used instead`;
          }
          placed = result;
          if (result.country && (isInternational(phone.text) || result.withCode))
            evidence.addCountry(result.country);
          else if (result.country && candidates.from === 'file' && candidates.countries.length > 0) {
            notes.placedByFile.set(result.country, (notes.placedByFile.get(result.country) ?? 0) + 1);
          }
          break;
        }
        placed ??= result;
      }
      const first = phones[0]!;
      evidence.countPlaced(
        source.row,
        first.text,
        first.country
          ? { country: first.country.code }
          : isInternational(first.text) || (placed?.ok === true && placed.withCode === true)
            ? { country: placed?.ok ? placed.country : undefined }
            : undefined,
      );
      body = { ...candidate };
      if (placed?.ok) {
        body.phonenumber = placed.e164;
        if (source.keyedByPhone) {
          body.external_id = placed.e164;
          // The card's rejects row carries the key as used (a vCard row's first cell is its key).
          if (source.raw) source.raw[0] = placed.e164;
        }
      } else if (placed) {
        const problem: FieldProblem = {
          field: 'phonenumber',
          value: phones[0]!.raw,
          reason: placed.reason,
          ...(placed.code ? { code: placed.code } : {}),
        };
        // A card keyed by a number no country reads has no key that stays one: the same number
        // written with its country code (or read with a default country) would key another.
        if (source.keyedByPhone) {
          return reject(
            `external_id: the card has no UID or EMAIL, and its number ${phones[0]!.text} cannot key it: ${placed.reason}`,
            [problem],
          );
        }
        delete body.phonenumber;
        problems.push(problem);
      } else delete body.phonenumber;
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
        return reject(listProblems(fatal, problems), problems);
      }
      body = withoutFields(
        body,
        issues.map((issue) => issue.field),
      );
      parsed = schema.safeParse(body);
      if (!parsed.success) return reject(listProblems(toIssues(parsed.error), problems), problems);
    }
    if (problems.length > 0 && strict) return reject(listProblems([], problems), problems);
    // A table that fills more than keys: a row of its key alone would make an empty contact. A
    // file of keys alone asks for just that, and this tool's own export restores what it saved.
    const empty = fillsMoreThanKeys && nothingButKey(parsed.data);
    // Its other cells unreadable: the row goes to the rejects file to be mended, not lost.
    if (empty && problems.length > 0) {
      return reject(
        `nothing to import but its external_id once the values that cannot be read are left out: ${listProblems([], problems)}`,
        problems,
      );
    }
    if (empty) {
      notes.emptyRowsCount++;
      if (notes.emptyRows.length < MAX_NOTED_LINES) notes.emptyRows.push(source.line);
    }
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
    if (empty) result.empty = true;
    if (problems.length > 0) result.fixes = problems;
    if (notice) result.notice = notice;
    if (note) result.note = note;
    return result;
  };
  return Object.assign(validate, { notes });
}

/** The codes of a row's problems, each once; undefined when none has one. */
export function problemCodes(problems: readonly FieldProblem[]): ProblemCode[] | undefined {
  let codes: ProblemCode[] | undefined;
  for (const { code } of problems) {
    if (!code || codes?.includes(code)) continue;
    codes ??= [];
    codes.push(code);
  }
  return codes;
}

/** A contact input that gives no field but its key: `null` (a clear) and `[]` are given. */
function nothingButKey(input: ContactInputParsed): boolean {
  return (
    input.name === undefined &&
    input.email === undefined &&
    input.phonenumber === undefined &&
    input.stripe_accounts === undefined &&
    (input.custom_attributes === undefined || Object.keys(input.custom_attributes).length === 0)
  );
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
