// JSON records of another system read as a table, as a CSV export is: their fields are its
// columns (a nested object's by their path, `properties.email`, `name.first`) and each record's
// values its cells, so the columns map by their words and values, phones are placed and dates
// read exactly as a CSV export's are. A recognised export (Zendesk's users) is read by its first
// object's keys. Records in the contract's own shape (an `external_id` and the contract's fields
// alone, as this tool's export writes them) are read as they are.
import { CONTACT_RECORD_FIELDS } from '../api/limits.js';
import { recogniseExport } from './exports.js';
import { type Cell, type ImportSource, REJECT_KEYS, type SourceRecord } from './sources/types.js';

interface Column {
  header: string;
  /** The keys that lead to the value, from the record down. */
  path: readonly string[];
}

/** Records whose fields make the header: those fields first seen later are not read. */
const HEADER_RECORDS = 100;
/** The text those records hold at most, whatever their count. */
const HEADER_MAX_CHARS = 16 * 1024 * 1024;
/** Objects nested deeper than this are one cell, their JSON. */
const MAX_DEPTH = 4;

const REJECT_KEYS_SET: ReadonlySet<string> = new Set(Object.values(REJECT_KEYS));
const CONTRACT_KEYS: ReadonlySet<string> = new Set([...CONTACT_RECORD_FIELDS, ...REJECT_KEYS_SET]);

/**
 * Reads a JSON source's first records and decides how they are read: a recognised export
 * (`source.profile`) or another system's records get a `header` and every record its cells
 * (`raw`); records in the contract's shape stay as they are. `source.keys` is the first record's
 * keys (a near-miss of a known export is told by them). Every record is still yielded, in order.
 */
export async function readAsExportTable(source: ImportSource): Promise<void> {
  const records = source.records[Symbol.asyncIterator]();
  const first = await records.next();
  const object = first.done || first.value.error ? undefined : first.value.record;
  source.keys = object ? Object.keys(object) : [];
  const held = first.done ? [] : [first.value];
  let columns: Column[] | undefined;
  const profile = object && recogniseExport(source.keys, true);
  if (object && profile?.json) {
    columns = exportColumns(object, profile.json.nested);
    source.profile = profile;
  } else if (object && !inContractShape(object)) {
    let chars = textLength(object);
    while (held.length < HEADER_RECORDS && chars < HEADER_MAX_CHARS) {
      const next = await records.next();
      if (next.done) break;
      held.push(next.value);
      chars += textLength(next.value.record);
    }
    columns = fieldColumns(held.flatMap((r) => (r.error ? [] : [r.record])));
  }
  if (columns) source.header = columns.map((c) => c.header);
  source.records = chain(held, records, columns);
}

/** An `external_id` and the contract's own fields alone: this tool's export, or records written for it. */
function inContractShape(object: Record<string, unknown>): boolean {
  return 'external_id' in object && Object.keys(object).every((key) => CONTRACT_KEYS.has(key));
}

/** A recognised export's columns: its first object's keys, a custom field by its own name. */
function exportColumns(object: Record<string, unknown>, nested: readonly string[]): Column[] {
  const keys = Object.keys(object);
  return keys.flatMap((key) => {
    const value = object[key];
    if (!nested.includes(key) || !isObject(value)) return [{ header: key, path: [key] }];
    // A custom field is named by its own key, unless a key of the record has that name already.
    return Object.keys(value).map((field) => ({
      path: [key, field],
      header: keys.includes(field) ? `${key}.${field}` : field,
    }));
  });
}

/**
 * Every field of these records, in the order first seen: a nested object's by their path
 * (`properties.email`), a contract record's `custom_attributes` by the attribute's own name.
 */
function fieldColumns(objects: readonly Record<string, unknown>[]): Column[] {
  const byHeader = new Map<string, Column>();
  const visit = (value: Record<string, unknown>, path: readonly string[]) => {
    for (const [key, inner] of Object.entries(value)) {
      if (REJECT_KEYS_SET.has(key) && path.length === 0) continue;
      const at = [...path, key];
      if (isObject(inner) && Object.keys(inner).length > 0 && at.length < MAX_DEPTH) visit(inner, at);
      else {
        const header = at.join('.');
        if (!byHeader.has(header)) byHeader.set(header, { header, path: at });
      }
    }
  };
  for (const object of objects) visit(object, []);
  const columns = [...byHeader.values()];
  const tops = new Set(columns.map((c) => c.path[0]));
  return columns.map((c) =>
    c.path.length === 2 && c.path[0] === 'custom_attributes' && !tops.has(c.path[1])
      ? { ...c, header: c.path[1]! }
      : c,
  );
}

async function* chain(
  held: SourceRecord[],
  rest: AsyncIterator<SourceRecord>,
  columns: Column[] | undefined,
): AsyncGenerator<SourceRecord> {
  const withCells = (record: SourceRecord): SourceRecord =>
    columns && !record.error
      ? { ...record, raw: columns.map((c) => cell(valueAt(record.record, c.path))) }
      : record;
  try {
    for (const record of held.splice(0)) yield withCells(record);
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield withCells(next.value);
    }
  } finally {
    await rest.return?.();
  }
}

function valueAt(record: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** A JSON value as the cell a CSV export would hold: `null` is no value, a list reads `a, b`. */
function cell(value: unknown): Cell {
  if (value === null || value === undefined || (isObject(value) && Object.keys(value).length === 0)) {
    return undefined;
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join(', ');
  }
  return JSON.stringify(value);
}

/** About the text a record holds: its strings' and keys' lengths. */
function textLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + textLength(v), 0);
  if (isObject(value)) {
    let n = 0;
    for (const [key, inner] of Object.entries(value)) n += key.length + textLength(inner);
    return n;
  }
  return 8;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
