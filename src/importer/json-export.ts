// A recognised JSON export (Zendesk's users, one object a line) read as a table: the first
// object's keys are its header and each object's values its cells, so its columns map, its phones
// are placed and its dates read exactly as a CSV export's are. Other JSON keeps the contract's
// field names.
import { recogniseExport } from './exports.js';
import type { Cell, ImportSource, SourceRecord } from './sources/types.js';

interface Column {
  header: string;
  key: string;
  /** A field of the object under `key` (a custom field), when the column is one. */
  field?: string;
}

/**
 * Reads a JSON source's first record and recognises the export by its keys (`source.keys`).
 * When it is one, the source gets the export (`source.profile`), a header, and every record its
 * cells (`raw`); either way the first record is still the first the source yields.
 */
export async function readAsExportTable(source: ImportSource): Promise<void> {
  const records = source.records[Symbol.asyncIterator]();
  const first = await records.next();
  const object = first.done || first.value.error ? undefined : first.value.record;
  const profile = object && recogniseExport(Object.keys(object), true);
  const columns = object && profile?.json ? tableColumns(object, profile.json.nested) : undefined;
  source.keys = object ? Object.keys(object) : [];
  if (columns && profile) {
    source.header = columns.map((c) => c.header);
    source.profile = profile;
  }
  source.records = chain(first, records, columns);
}

function tableColumns(object: Record<string, unknown>, nested: readonly string[]): Column[] {
  const keys = Object.keys(object);
  return keys.flatMap((key) => {
    const value = object[key];
    if (!nested.includes(key) || !isObject(value)) return [{ header: key, key }];
    // A custom field is named by its own key, unless a key of the record has that name already.
    return Object.keys(value).map((field) => ({
      key,
      field,
      header: keys.includes(field) ? `${key}.${field}` : field,
    }));
  });
}

async function* chain(
  first: IteratorResult<SourceRecord>,
  rest: AsyncIterator<SourceRecord>,
  columns: Column[] | undefined,
): AsyncGenerator<SourceRecord> {
  const withCells = (record: SourceRecord): SourceRecord =>
    columns && !record.error
      ? { ...record, raw: columns.map((c) => cell(valueAt(record.record, c))) }
      : record;
  try {
    if (first.done) return;
    yield withCells(first.value);
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield withCells(next.value);
    }
  } finally {
    await rest.return?.();
  }
}

function valueAt(record: Record<string, unknown>, column: Column): unknown {
  const value = record[column.key];
  if (column.field === undefined) return value;
  return isObject(value) ? value[column.field] : undefined;
}

/** A JSON value as the cell a CSV export would hold: `null` is no value, a list reads `a, b`. */
function cell(value: unknown): Cell {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join(', ');
  }
  return JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
