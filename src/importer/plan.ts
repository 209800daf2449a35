// The plan step of an import: what it makes of the input before a row is read for sending. How a
// record's fields are found (a table's columns, a vCard's properties, a JSON record's own field
// names), what each column fills and what keys a contact, which columns hold dates, and the
// policies the rows are read by (time zone, date order, default country, strict, empty strings).
// Whatever would refuse the import on these grounds refuses it here, before anything is sent;
// what the user should hear of is told as notes. The rows are then read, validated and sent by
// the plan (./stages/row-loop.ts); nothing after this step decides any of it again.
import type { AttributeDefinition } from '../api/attribute.js';
import { canonicalTimeZone } from '../util/time-zone.js';
import type { MapOverride } from './column-targets.js';
import { ImportError } from './errors.js';
import { nearlyRecognised } from './exports.js';
import { type ImportFormat, isTabular } from './format.js';
import {
  type AttributeColumn,
  attributeColumns,
  type ColumnMapping,
  isGenericHeader,
  resolveMapping,
} from './mapping.js';
import type { PlanNote } from './notes.js';
import type { ImportSource } from './sources/types.js';
import { sampleRecords } from './stages/source.js';
import type { DateOrder } from './values.js';

/** How a record's fields are found. */
export type Reading =
  /** A table's columns, mapped to the fields: CSV, a workbook's sheet, a known tool's JSON export. */
  | 'columns'
  /**
   * A vCard's properties, which its reader puts in columns of the importer's own (UID, FN or N,
   * EMAIL, TEL, ADR's country, ORG): mapped like a table's, never overridden.
   */
  | 'vcard'
  /** JSON and NDJSON records, by the contract's own field names. */
  | 'records';

/** What gives a contact its external_id. */
export type KeyRule =
  /** A column (its header). */
  | { from: 'column'; column: string }
  /** No id column: the email of the column named, in lower case. */
  | { from: 'email'; column: string }
  /** A card's UID, else its preferred EMAIL, else its TEL. */
  | { from: 'vcard' }
  /** The record's own `external_id`. */
  | { from: 'record' };

export interface ImportPlan {
  reading: Reading;
  format: ImportFormat;
  /** A table's header as written (a vCard's are the reader's own columns); none for records. */
  header: readonly string[] | undefined;
  /** What each column fills, by index; undefined when records are read by their field names. */
  mapping: ColumnMapping | undefined;
  key: KeyRule;
  /** The columns that fill a date attribute: their order is read from their values. */
  dateColumns: readonly AttributeColumn[];
  /** The zone date-times without one are read in, when the plan reads such dates (else UTC). */
  timeZone: string | undefined;
  /** The order of slash dates, when given: it decides every date column. */
  dateOrder: DateOrder | undefined;
  /** Where national phone numbers are placed when their row names no country (ISO code). */
  defaultCountry: string | undefined;
  /** A field that cannot be read rejects its row (else the contact lands without it). */
  strict: boolean;
  /** A quoted empty cell clears a name or text attribute (else it is "not given"). */
  emptyStrings: boolean;
  /** The first date-time without a zone is told of: the plan reads dates, and no zone was given. */
  watchLocalTimes: boolean;
}

export interface PlanOptions {
  /** The agent's attribute definitions (archived ones too). */
  definitions: readonly AttributeDefinition[];
  /** Column overrides: for tables (and a known tool's JSON export) only. */
  maps?: readonly MapOverride[] | undefined;
  timeZone?: string | undefined;
  dateOrder?: DateOrder | undefined;
  defaultCountry?: string | undefined;
  strict?: boolean | undefined;
  emptyStrings?: boolean | undefined;
  /** Told what planning decided that the user should hear of, as it decides it. */
  onNote?: ((note: PlanNote) => void) | undefined;
}

/**
 * The plan of an import of `source`, opened and not yet read (a table's first rows are read here,
 * and handed on again: their values say what each column holds). Throws an ImportError when the
 * options do not fit the input (overrides for records), or a MappingError when the columns cannot
 * be mapped.
 */
export async function planImport(source: ImportSource, options: PlanOptions): Promise<ImportPlan> {
  const { format } = source;
  const maps = options.maps ?? [];
  const say = options.onNote ?? (() => {});
  const reading: Reading =
    format === 'vcard' ? 'vcard' : isTabular(format) || source.header ? 'columns' : 'records';
  if (reading !== 'columns' && maps.length > 0) {
    throw new ImportError(
      reading === 'vcard'
        ? 'Column overrides apply to columns; a vCard file fills the fields from its own properties'
        : "Column overrides apply to columns: these JSON records are in the contract's own shape (an external_id and its fields), read as they are",
      { detail: { code: 'map_not_applicable', format } },
    );
  }
  // A table's first rows are read before its columns are mapped: their values say what each
  // column holds, with the header's words.
  const sample = reading === 'columns' ? await sampleRecords(source) : undefined;
  const mapping =
    reading === 'records'
      ? undefined
      : resolveMapping({
          header: source.header ?? [],
          definitions: options.definitions,
          overrides: maps,
          profile: source.profile,
          sample,
        });
  const keys = isTabular(format) ? source.header : source.keys;
  if (keys && reading !== 'vcard' && !mapping?.system && maps.length === 0) {
    const near = nearlyRecognised(keys, isGenericHeader, !isTabular(format));
    if (near) say(near);
  }
  // The zone applies to date columns only: not to JSON records (the contract's own ISO
  // date-times), nor to this tool's own export (its times are UTC), nor to a file without dates.
  const dates = mapping ? attributeColumns(mapping, options.definitions, 'date') : [];
  const readsDates = mapping !== undefined && !mapping.exact && dates.length > 0;
  const given = options.timeZone;
  if (given !== undefined && canonicalTimeZone(given) !== 'UTC' && !readsDates) {
    const reason = mapping?.exact
      ? 'this file is read as an export of this tool, whose date-times are UTC'
      : mapping
        ? undefined
        : "JSON records carry the contract's own date-times";
    if (reason)
      say({
        code: 'time_zone_not_applied',
        message: `The time zone ${given} is not applied: ${reason}`,
        timeZone: given,
        reason,
      });
  }
  return {
    reading,
    format,
    header: source.header,
    mapping,
    key: keyRule(reading, mapping),
    dateColumns: dates,
    timeZone: readsDates ? given : undefined,
    dateOrder: options.dateOrder,
    defaultCountry: options.defaultCountry,
    strict: options.strict ?? false,
    emptyStrings: options.emptyStrings ?? false,
    // Given a zone, even UTC, the user has said what such times are.
    watchLocalTimes: readsDates && given === undefined,
  };
}

function keyRule(reading: Reading, mapping: ColumnMapping | undefined): KeyRule {
  if (reading === 'vcard') return { from: 'vcard' };
  if (!mapping) return { from: 'record' };
  if (mapping.keyFromEmail !== undefined) return { from: 'email', column: mapping.keyFromEmail };
  const i = mapping.columns.findIndex((targets) =>
    targets.some((t) => t.kind === 'field' && t.field === 'external_id'),
  );
  return { from: 'column', column: mapping.header[i]?.trim() ?? '' };
}
