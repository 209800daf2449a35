// One source record -> a contact input checked and coerced by the contract's own schemas, or a
// reject with its line and a reason.
import { type AttributeDefinition, subMillisecondDigits } from '../api/attribute.js';
import { type ContactInputParsed, createContactValidators } from '../api/contact.js';
import { toIssues } from '../api/envelope.js';
import { jsonDepthExceeds } from '../api/json-depth.js';
import { MAX_JSON_DEPTH } from '../api/limits.js';
import { normalizePhoneNumber } from '../client/phone.js';
import type { ColumnMapping } from './mapping.js';
import type { Cell, SourceRecord } from './sources/types.js';

export type RowResult =
  | {
      ok: true;
      line: number;
      input: ContactInputParsed;
      source: SourceRecord;
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
}

/**
 * A validator for the rows of one import. A CSV cell is taken exactly as read (csv-parse drops
 * the whitespace around an unquoted value; a quoted value keeps its own): an empty cell means
 * "not given" (the field is left out, never cleared), and `""` gives the empty string to the
 * fields that can hold one (name, text attributes), so an export imports back exactly. JSON
 * records pass as written (`null` clears), but a numeric `external_id` becomes its string.
 */
export function createRowValidator({
  definitions,
  mapping,
  defaultCountry,
}: RowValidatorOptions): (source: SourceRecord) => RowResult {
  const defs = [...definitions];
  const { input: schema } = createContactValidators(defs, { textValues: true });
  // Only text attributes can hold "": for the other types an empty string is no value at all.
  const emptyAllowed = new Set(defs.filter((d) => d.type === 'text').map((d) => d.name));
  const dates = defs.filter((d) => d.type === 'date').map((d) => d.name);
  return (source) => {
    const reject = (reason: string): RowResult => ({ ok: false, line: source.line, reason, source });
    if (source.error) return reject(source.error);
    const candidate = mapping
      ? fromColumns(source.raw ?? [], mapping, emptyAllowed)
      : fromJson(source.record);
    if (typeof candidate === 'string') return reject(candidate);
    // Phone numbers are stored in E.164, as production's own importer does. A copy: the record
    // itself goes to the rejects file as written if the row is refused later.
    let body = candidate;
    if (typeof candidate.phonenumber === 'string') {
      const phone = normalizePhoneNumber(candidate.phonenumber, defaultCountry);
      if (!phone.ok) return reject(`phonenumber: ${phone.reason}`);
      body = { ...candidate, phonenumber: phone.e164 };
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      return reject(
        toIssues(parsed.error)
          .map((issue) => `${issue.field}: ${issue.message}`)
          .join('; '),
      );
    }
    const notice = dates.length > 0 ? precisionNotice(dates, candidate, parsed.data) : undefined;
    return notice
      ? { ok: true, line: source.line, input: parsed.data, source, notice }
      : { ok: true, line: source.line, input: parsed.data, source };
  };
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

/** Contact fields whose empty string is a value; email and phone have no empty form. */
const EMPTY_FIELDS = new Set(['name']);

function fromColumns(
  cells: Cell[],
  mapping: ColumnMapping,
  emptyAttributes: ReadonlySet<string>,
): Record<string, unknown> {
  const candidate: Record<string, unknown> = {};
  const attributes: Record<string, string> = {};
  let first = '';
  let last = '';
  mapping.columns.forEach((targets, i) => {
    const value = cells[i];
    if (value === undefined) return;
    for (const target of targets) {
      switch (target.kind) {
        case 'field':
          if (target.field === 'stripe_accounts') {
            if (value !== '') candidate.stripe_accounts = jsonCell(value);
          } else if (value !== '' || EMPTY_FIELDS.has(target.field)) candidate[target.field] = value;
          break;
        case 'attribute':
          if (value !== '' || emptyAttributes.has(target.name)) attributes[target.name] = value;
          break;
        case 'first_name':
          first = value;
          break;
        case 'last_name':
          last = value;
          break;
      }
    }
  });
  if (candidate.name === undefined && (first || last))
    candidate.name = [first, last].filter(Boolean).join(' ');
  if (Object.keys(attributes).length > 0) candidate.custom_attributes = attributes;
  return candidate;
}

/** The service's own fields of a contact record: read-only, so an export's copies are dropped. */
const RECORD_FIELDS = ['id', 'created_at', 'updated_at'] as const;

/**
 * The record ready for the contract's input schema: without the read-only fields of a
 * record (a JSON export imports again as is), and with a numeric external_id as its string,
 * or why it cannot be one.
 */
function fromJson(source: Record<string, unknown>): Record<string, unknown> | string {
  let record = source;
  if (RECORD_FIELDS.some((f) => f in source)) {
    record = { ...source };
    for (const f of RECORD_FIELDS) delete record[f];
  }
  const id = record.external_id;
  if (typeof id !== 'number') return record;
  if (!Number.isFinite(id)) return 'external_id: Expected a string';
  if (Number.isInteger(id) && !Number.isSafeInteger(id)) {
    return `external_id: ${id} is too large to keep exactly as a JSON number; write it as a string`;
  }
  return { ...record, external_id: String(id) };
}
