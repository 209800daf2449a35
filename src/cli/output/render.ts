// Writers that put contacts, attribute definitions and plain records on stdout as a table,
// JSON, NDJSON or CSV. json, ndjson and csv stream item by item (honouring backpressure), so
// `list --all` holds one page at a time; a table needs every row to size its columns.
import type { AttributeDefinition } from '../../api/attribute.js';
import type { Contact } from '../../api/contact.js';
import { CONTACT_RECORD_FIELDS } from '../../api/limits.js';
import { cell, isoTime } from './cells.js';
import { type ContactColumn, defaultContactColumns, stripeSummary } from './contact-columns.js';
import type { OutputFormat } from './format.js';
import type { TableOptions } from './table.js';

export type { TableOptions };

export { isoTime };

import type { OutStream } from '../io.js';

export interface WriteSummary {
  count: number;
  /**
   * Custom attribute keys met in contacts but absent from the `attributeNames` given to a
   * streaming CSV writer: their values could not get a column. Empty for every other case.
   */
  droppedAttributes: string[];
}

export interface ItemWriter<T> {
  write(item: T): Promise<void>;
  /** Completes the document (closing bracket, collected table) and reports what was written. */
  end(): Promise<WriteSummary>;
}

export interface ContactWriterOptions extends TableOptions {
  /**
   * Custom attribute columns for CSV, in order. Given, CSV streams; absent, the writer
   * collects every contact to learn the keys and writes them at the end, sorted by name.
   */
  attributeNames?: readonly string[];
  /**
   * CSV for a spreadsheet: a cell a spreadsheet would run as a formula (=, +, -, @ first) gets a
   * leading `'`, which the importer removes again. Off by default: CSV on stdout is for scripts,
   * which want the values as they are (`export` turns it on unless --raw).
   */
  formulaGuard?: boolean;
  /** The table's columns (`list --columns`); by default those of `defaultContactColumns()`. */
  columns?: readonly ContactColumn[];
}

/** Standard contact columns, in CSV order; custom attributes follow as `attr.<name>`. */
export const CONTACT_COLUMNS = CONTACT_RECORD_FIELDS.filter((f) => f !== 'custom_attributes');
/** Prefix of custom attribute columns in CSV, so an export can be imported again. */
export const ATTRIBUTE_COLUMN_PREFIX = 'attr.';

const ATTRIBUTE_COLUMNS = ['name', 'type', 'label', 'description', 'archived'] as const;

// ---------------------------------------------------------------------------------------
// Contacts

export function createContactWriter(
  out: OutStream,
  format: OutputFormat,
  options: ContactWriterOptions = {},
): ItemWriter<Contact> {
  switch (format) {
    case 'json':
      return jsonArrayWriter(out);
    case 'ndjson':
      return ndjsonWriter(out);
    case 'csv':
      return options.attributeNames
        ? contactCsvStream(out, options.attributeNames, options.formulaGuard)
        : collecting(async (contacts) => {
            const names = attributeNamesOf(contacts);
            const writer = contactCsvStream(out, names, options.formulaGuard);
            for (const c of contacts) await writer.write(c);
            return writer.end();
          });
    case 'table':
      return collecting(async (contacts) => {
        const columns = options.columns ?? defaultContactColumns();
        const rows = contacts.map((c) => columns.map((column) => column.value(c)));
        await put(out, (await table()).renderTable(columns, rows, options));
        return { count: contacts.length, droppedAttributes: [] };
      });
  }
}

/** Writes every contact of a list or an async iterable (e.g. all pages) and ends the document. */
export async function writeContacts(
  out: OutStream,
  format: OutputFormat,
  contacts: Iterable<Contact> | AsyncIterable<Contact>,
  options: ContactWriterOptions = {},
): Promise<WriteSummary> {
  return drain(createContactWriter(out, format, options), contacts);
}

/** One contact: a JSON object (not an array), one NDJSON line, a CSV row or a key/value table. */
export async function writeContact(
  out: OutStream,
  format: OutputFormat,
  contact: Contact,
  options: ContactWriterOptions = {},
): Promise<void> {
  await writeOne(out, format, contact, {
    csv: () => writeContacts(out, 'csv', [contact], options),
    pairs: () => [
      ['id', contact.id],
      ['external_id', contact.external_id],
      ['name', contact.name],
      ['email', contact.email],
      ['phonenumber', contact.phonenumber],
      ['stripe_accounts', stripeSummary(contact.stripe_accounts)],
      ...Object.keys(contact.custom_attributes)
        .sort()
        .map((k): [string, unknown] => [`${ATTRIBUTE_COLUMN_PREFIX}${k}`, contact.custom_attributes[k]]),
      ['created_at', isoTime(contact.created_at)],
      ['updated_at', isoTime(contact.updated_at)],
    ],
    table: options,
  });
}

/** One item in any format: JSON and NDJSON as they are; CSV and the table as the caller says. */
async function writeOne(
  out: OutStream,
  format: OutputFormat,
  item: object,
  how: { csv: () => Promise<unknown>; pairs: () => [string, unknown][]; table: TableOptions },
): Promise<void> {
  switch (format) {
    case 'json':
      return put(out, `${JSON.stringify(item, null, 2)}\n`);
    case 'ndjson':
      return put(out, `${JSON.stringify(item)}\n`);
    case 'csv':
      await how.csv();
      return;
    case 'table':
      return put(out, (await table()).renderKeyValue(how.pairs(), how.table));
  }
}

/** The CSV header for contacts with these custom attributes. */
export function contactCsvHeader(attributeNames: readonly string[]): string[] {
  return [...CONTACT_COLUMNS, ...attributeNames.map((n) => `${ATTRIBUTE_COLUMN_PREFIX}${n}`)];
}

/**
 * One contact as CSV cells, matching `contactCsvHeader(attributeNames)`; null is an empty cell
 * (written without quotes, so the importer reads "no value", never the empty string).
 */
export function contactCsvRow(contact: Contact, attributeNames: readonly string[]): (string | null)[] {
  return [
    contact.id,
    contact.external_id,
    contact.name,
    contact.email,
    contact.phonenumber,
    // No nesting in CSV: the list as its JSON text, read back by the importer (none: empty).
    contact.stripe_accounts?.length ? JSON.stringify(contact.stripe_accounts) : null,
    isoTime(contact.created_at),
    isoTime(contact.updated_at),
    // Own values only: an attribute called `constructor` that a contact lacks is an empty cell,
    // not the text of Object's constructor.
    ...attributeNames.map((n) =>
      csvValue(Object.hasOwn(contact.custom_attributes, n) ? contact.custom_attributes[n] : undefined),
    ),
  ];
}

/** A value for a CSV cell: null and undefined stay empty; anything else as its text. */
const csvValue = (value: unknown): string | null =>
  value === null || value === undefined ? null : cell(value);

function contactCsvStream(
  out: OutStream,
  attributeNames: readonly string[],
  formulaGuard = false,
): ItemWriter<Contact> {
  const known = new Set(attributeNames);
  const dropped = new Set<string>();
  let count = 0;
  let headerWritten = false;
  const header = async () => {
    if (headerWritten) return;
    headerWritten = true;
    await put(out, await csvLine(contactCsvHeader(attributeNames), formulaGuard));
  };
  return {
    async write(contact) {
      await header();
      for (const key of Object.keys(contact.custom_attributes)) if (!known.has(key)) dropped.add(key);
      await put(out, await csvLine(contactCsvRow(contact, attributeNames), formulaGuard));
      count++;
    },
    async end() {
      // An empty export still gets its header, so it is a valid (importable) CSV file.
      await header();
      return { count, droppedAttributes: [...dropped].sort() };
    },
  };
}

function attributeNamesOf(contacts: readonly Contact[]): string[] {
  const names = new Set<string>();
  for (const c of contacts) for (const k of Object.keys(c.custom_attributes)) names.add(k);
  return [...names].sort();
}

// ---------------------------------------------------------------------------------------
// Attribute definitions and plain records

export async function writeAttributeDefinitions(
  out: OutStream,
  format: OutputFormat,
  definitions: Iterable<AttributeDefinition> | AsyncIterable<AttributeDefinition>,
  options: TableOptions = {},
): Promise<WriteSummary> {
  return writeRecords(out, format, definitions, { ...options, columns: ATTRIBUTE_COLUMNS });
}

export async function writeAttributeDefinition(
  out: OutStream,
  format: OutputFormat,
  definition: AttributeDefinition,
  options: TableOptions = {},
): Promise<void> {
  return writeRecord(out, format, definition, { ...options, columns: ATTRIBUTE_COLUMNS });
}

export interface RecordWriterOptions extends TableOptions {
  /**
   * Columns for csv and table, in order. Given, CSV streams; absent, the writer collects the
   * records and uses every key seen, in order of first appearance.
   */
  columns?: readonly string[];
}

export function createRecordWriter<T extends object>(
  out: OutStream,
  format: OutputFormat,
  options: RecordWriterOptions = {},
): ItemWriter<T> {
  const { columns } = options;
  switch (format) {
    case 'json':
      return jsonArrayWriter(out);
    case 'ndjson':
      return ndjsonWriter(out);
    case 'csv':
      return columns
        ? recordCsvStream(out, columns)
        : collecting(async (records) => {
            const writer = recordCsvStream<T>(out, keysOf(records));
            for (const r of records) await writer.write(r);
            return writer.end();
          });
    case 'table':
      return collecting(async (records) => {
        const cols = columns ?? keysOf(records);
        const rows = records.map((r) => cols.map((c) => field(r, c)));
        await put(out, (await table()).renderTable([...cols], rows, options));
        return { count: records.length, droppedAttributes: [] };
      });
  }
}

export async function writeRecords<T extends object>(
  out: OutStream,
  format: OutputFormat,
  records: Iterable<T> | AsyncIterable<T>,
  options: RecordWriterOptions = {},
): Promise<WriteSummary> {
  return drain(createRecordWriter<T>(out, format, options), records);
}

/** One record (e.g. `auth status`, `config list`): an object, a line, a row, or key/value pairs. */
export async function writeRecord(
  out: OutStream,
  format: OutputFormat,
  record: object,
  options: RecordWriterOptions = {},
): Promise<void> {
  await writeOne(out, format, record, {
    csv: () => writeRecords(out, 'csv', [record], options),
    pairs: () =>
      (options.columns ?? Object.keys(record)).map((k): [string, unknown] => [k, field(record, k)]),
    table: options,
  });
}

function recordCsvStream<T extends object>(out: OutStream, columns: readonly string[]): ItemWriter<T> {
  let count = 0;
  let headerWritten = false;
  const header = async () => {
    if (headerWritten) return;
    headerWritten = true;
    await put(out, await csvLine([...columns]));
  };
  return {
    async write(record) {
      await header();
      await put(out, await csvLine(columns.map((c) => csvValue(field(record, c)))));
      count++;
    },
    async end() {
      await header();
      return { count, droppedAttributes: [] };
    },
  };
}

function keysOf(records: readonly object[]): string[] {
  const keys = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) keys.add(k);
  return [...keys];
}

function field(record: object, key: string): unknown {
  return (record as Record<string, unknown>)[key];
}

// ---------------------------------------------------------------------------------------
// Shared writers and cells

/** A JSON array written item by item; the bytes equal `JSON.stringify(items, null, 2)`. */
function jsonArrayWriter<T>(out: OutStream): ItemWriter<T> {
  let count = 0;
  return {
    async write(item) {
      const body = JSON.stringify(item, null, 2).replace(/^/gm, '  ');
      await put(out, `${count === 0 ? '[\n' : ',\n'}${body}`);
      count++;
    },
    async end() {
      await put(out, count === 0 ? '[]\n' : '\n]\n');
      return { count, droppedAttributes: [] };
    },
  };
}

function ndjsonWriter<T>(out: OutStream): ItemWriter<T> {
  let count = 0;
  return {
    async write(item) {
      await put(out, `${JSON.stringify(item)}\n`);
      count++;
    },
    async end() {
      return { count, droppedAttributes: [] };
    },
  };
}

/** For formats that need every item before the first byte: gathers, then renders at `end`. */
function collecting<T>(finish: (items: T[]) => Promise<WriteSummary>): ItemWriter<T> {
  const items: T[] = [];
  return {
    async write(item) {
      items.push(item);
    },
    end: () => finish(items),
  };
}

async function drain<T>(writer: ItemWriter<T>, items: Iterable<T> | AsyncIterable<T>): Promise<WriteSummary> {
  for await (const item of items) await writer.write(item);
  return writer.end();
}

/** Writes and, when the stream's buffer is full, waits for it to empty before the next item. */
async function put(out: OutStream, chunk: string): Promise<void> {
  if (out.write(chunk) || !out.once) return;
  const { once } = out;
  await new Promise<void>((resolve) => {
    once.call(out, 'drain', resolve);
  });
}

/**
 * One CSV record, written the way the importer reads it back exactly (`importer/csv-text.ts`):
 * empty and space-edged strings quoted, and with `formulaGuard` spreadsheet formulas
 * neutralised. csv-stringify loads on the first record, so other formats never pay for it.
 */
async function csvLine(cells: readonly (string | null)[], formulaGuard = false): Promise<string> {
  const [{ stringify }, { CSV_WRITE_OPTIONS, csvCell }] = await Promise.all([
    import('csv-stringify/sync'),
    import('../../importer/csv-text.js'),
  ]);
  return stringify([formulaGuard ? cells.map(csvCell) : cells], CSV_WRITE_OPTIONS);
}

/** cli-table3 loads only when a table is drawn. */
async function table() {
  return import('./table.js');
}
