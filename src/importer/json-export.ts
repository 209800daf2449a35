// JSON records of another system read as a table, as a CSV export is: their fields are its
// columns (a nested object's by their path, `properties.email`, `name.first`) and each record's
// values its cells, so the columns map by their words and values, phones are placed and dates
// read exactly as a CSV export's are. A recognised export (Zendesk's users) is read by its first
// object's keys. Records in the contract's own shape (an `external_id` and the contract's fields
// alone, as this tool's export writes them) are read as they are.
import { CONTACT_RECORD_FIELDS } from '../api/limits.js';
import { recogniseExport } from './exports.js';
import type { SourceNote } from './notes.js';
import { type Cell, type ImportSource, REJECT_KEYS, type SourceRecord } from './sources/types.js';

interface Column {
  header: string;
  /** The keys that lead to the value, from the record down. */
  path: readonly string[];
}

/** Records whose fields make the header: those fields first seen later are not read (a note says so). */
const HEADER_RECORDS = 100;
/** The text those records hold at most, whatever their count. */
const HEADER_MAX_CHARS = 16 * 1024 * 1024;
/** Objects nested deeper than this are one cell, their JSON. */
const MAX_DEPTH = 4;
/** A nested object of more fields than this (ids or dates as keys) is one cell, its JSON. */
const MAX_NESTED_FIELDS = 1000;
/** The items of a list of objects read, each as its own columns (`phones.0.value`). */
const MAX_LIST_ITEMS = 5;
/** Columns at most: fields past them are not read (a note says so). */
const MAX_COLUMNS = 2000;

const REJECT_KEYS_SET: ReadonlySet<string> = new Set(Object.values(REJECT_KEYS));
const CONTRACT_KEYS: ReadonlySet<string> = new Set([...CONTACT_RECORD_FIELDS, ...REJECT_KEYS_SET]);

/**
 * Reads a JSON source's first records and decides how they are read: a recognised export
 * (`source.profile`) or another system's records get a `header` and every record its cells
 * (`raw`); records in the contract's shape (told by the first the source could read) stay as
 * they are. `source.keys` is that record's keys (a near-miss of a known export is told by them).
 * Every record is still yielded, in order. `note` hears of fields not read: first seen after
 * those records, or past the columns' bound.
 */
export async function readAsExportTable(
  source: ImportSource,
  note: (note: SourceNote) => void = () => {},
): Promise<void> {
  const records = source.records[Symbol.asyncIterator]();
  const held: SourceRecord[] = [];
  let chars = 0;
  let failure: { error: unknown } | undefined;
  let done = false;
  // Reads on while `more` says so; an error of the input is thrown after the records before it.
  const readWhile = async (more: () => boolean) => {
    while (!done && !failure && more() && held.length < HEADER_RECORDS && chars < HEADER_MAX_CHARS) {
      try {
        const next = await records.next();
        if (next.done) done = true;
        else {
          held.push(next.value);
          chars += textLength(next.value.record);
        }
      } catch (error) {
        // Before any record, the input fails as it opens; after some, once they are yielded.
        if (held.length === 0) throw error;
        failure = { error };
      }
    }
  };
  // Records the source could not read (a line that is no JSON) say nothing of the others.
  const valid = () => held.find((r) => !r.error)?.record;
  await readWhile(() => valid() === undefined);
  const object = valid();
  source.keys = object ? Object.keys(object) : [];
  let table: Table | undefined;
  const profile = object && recogniseExport(source.keys, true);
  if (object && profile?.json) {
    table = { columns: exportColumns(object, profile.json.nested) };
    source.profile = profile;
  } else if (object && !inContractShape(object)) {
    // Another system's records: the fields of the first ones make the columns, as a CSV's header.
    await readWhile(() => true);
    table = fieldColumns(held.flatMap((r) => (r.error ? [] : [r.record])));
  }
  if (table) source.header = table.columns.map((c) => c.header);
  source.records = chain(held, records, failure, done, table, source.name, note);
}

interface Table {
  columns: Column[];
  /**
   * The fields of the records read first, each by its path's name and the path (keys joined by
   * NUL): a later record's others are not read.
   */
  known?: ReadonlyMap<string, string>;
  /** Fields past the columns' bound, not read. */
  dropped?: string[];
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
function fieldColumns(objects: readonly Record<string, unknown>[]): Table {
  const byHeader = new Map<string, Column>();
  const dropped: string[] = [];
  for (const object of objects) {
    forEachField(object, (path, header) => {
      if (byHeader.has(header)) return;
      if (byHeader.size < MAX_COLUMNS) byHeader.set(header, { header, path });
      else if (dropped.length < 5) dropped.push(header);
    });
  }
  const columns = [...byHeader.values()];
  const tops = new Set(columns.map((c) => c.path[0]));
  return {
    columns: columns.map((c) =>
      c.path.length === 2 && c.path[0] === 'custom_attributes' && !tops.has(c.path[1])
        ? { ...c, header: c.path[1]! }
        : c,
    ),
    known: new Map([...byHeader].map(([header, c]) => [header, pathKey(c.path)])),
    dropped,
  };
}

/** Calls `visit` with each field of a record that is one cell: its path and the path's name. */
function forEachField(
  object: Record<string, unknown>,
  visit: (path: readonly string[], header: string) => void,
  path: readonly string[] = [],
): void {
  for (const key of Object.keys(object)) {
    if (path.length === 0 && REJECT_KEYS_SET.has(key)) continue;
    const inner = object[key];
    const at = [...path, key];
    const fields = isObject(inner) ? Object.keys(inner).length : 0;
    if (fields > 0 && fields <= MAX_NESTED_FIELDS && at.length < MAX_DEPTH) {
      forEachField(inner as Record<string, unknown>, visit, at);
    } else if (isListOfObjects(inner) && at.length < MAX_DEPTH - 1) {
      // A list of objects (`"phones": [{"type": "work", "value": "+44 ..."}]`): its first items'
      // fields by their place, `phones.0.value`, read as numbered columns are.
      inner.slice(0, MAX_LIST_ITEMS).forEach((item, i) => {
        forEachField(item, visit, [...at, String(i)]);
      });
    } else visit(at, at.join('.'));
  }
}

async function* chain(
  held: SourceRecord[],
  rest: AsyncIterator<SourceRecord>,
  failure: { error: unknown } | undefined,
  done: boolean,
  table: Table | undefined,
  file: string,
  note: (note: SourceNote) => void,
): AsyncGenerator<SourceRecord> {
  const columns = table?.columns;
  let told = false;
  const tell = (fields: string[], line: number | undefined) => {
    told = true;
    const list = fields.map((f) => `"${f}"`).join(', ');
    note({
      code: 'json_fields_unread',
      message:
        line === undefined
          ? `${file}: fields past the first ${MAX_COLUMNS} are not read (${list}${fields.length >= 5 ? ', ...' : ''})`
          : `${file}: line ${line} has fields the first ${HEADER_RECORDS} records do not, which are not read (${list})`,
      fields,
      ...(line === undefined ? {} : { line }),
    });
  };
  if (table?.dropped?.length) tell(table.dropped, undefined);
  const withCells = (record: SourceRecord): SourceRecord => {
    if (!columns || record.error) return record;
    if (table?.known) {
      const unread: string[] = [];
      let clash: string | undefined;
      forEachField(record.record, (path, header) => {
        const known = table.known!.get(header);
        if (known === undefined) {
          if (!told && unread.length < 5) unread.push(header);
        } else if (
          known !== pathKey(path) &&
          clash === undefined &&
          cell(valueAt(record.record, path)) !== undefined
        ) {
          const column = columns.find((c) => pathKey(c.path) === known)!;
          clash = `${describePath(path)} and ${describePath(column.path)} are both the column "${header}": rename one, so that neither value is lost`;
        }
      });
      if (unread.length > 0) tell(unread, record.line);
      if (clash) return { ...record, error: clash };
    }
    return { ...record, raw: columns.map((c) => cell(valueAt(record.record, c.path))) };
  };
  try {
    for (const record of held.splice(0)) yield withCells(record);
    if (failure) throw failure.error;
    if (done) return;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield withCells(next.value);
    }
  } finally {
    await rest.return?.();
  }
}

const pathKey = (path: readonly string[]) => path.join('\0');

/** `"name.first"` (a key with a dot), `"first" in "name"` (a nested field). */
const describePath = (path: readonly string[]) =>
  path.length === 1
    ? `the field "${path[0]}"`
    : `the field "${path.at(-1)}" in "${path.slice(0, -1).join('.')}"`;

function valueAt(record: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (Array.isArray(value)) value = /^\d+$/.test(key) ? value[Number(key)] : undefined;
    else if (isObject(value)) value = value[key];
    else return undefined;
  }
  return value;
}

function isListOfObjects(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every(isObject);
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
