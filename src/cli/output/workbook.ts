// Excel workbooks (.xlsx) written as a stream with excelts' WorkbookWriter: one sheet, a bold
// header row, and typed cells (numbers as numbers, dates as dates, ids and other text as text),
// so a spreadsheet shows what the service holds and the importer reads it back unchanged.
import { Writable } from 'node:stream';
import type { AttributeDefinition } from '../../api/attribute.js';
import type { Contact } from '../../api/contact.js';
import type { OutStream } from '../io.js';
import type { WriteSummary } from './render.js';
import { contactCsvHeader } from './render.js';

export type CellKind = 'text' | 'number' | 'boolean' | 'date';

export interface WorkbookColumn {
  header: string;
  kind: CellKind;
}

/** Where the workbook's bytes go: a file being written, or stdout (a pipe, see `outStreamSink`). */
export interface ByteSink {
  write(chunk: Uint8Array): Promise<void>;
}

const DATE_FORMAT = 'yyyy-mm-dd';
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const DATE_ONLY_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Write one sheet: the header, then each row's values by column kind. A value a column's kind
 * cannot hold (a number attribute holding text, in a directory written before the type) is
 * written as text rather than lost.
 */
export async function writeWorkbook(
  sink: ByteSink,
  sheetName: string,
  columns: readonly WorkbookColumn[],
  rows: Iterable<readonly unknown[]> | AsyncIterable<readonly unknown[]>,
): Promise<number> {
  const { WorkbookWriter } = await import('@cj-tech-master/excelts');
  // Inline strings, not a shared-string table: the table would hold every string until the end.
  const workbook = new WorkbookWriter({ stream: toWritable(sink), useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  columns.forEach((column, i) => {
    sheet.getColumn(i + 1).width = Math.min(40, Math.max(12, column.header.length + 2));
  });
  const header = sheet.addRow(columns.map((c) => c.header));
  header.font = { bold: true };
  header.commit();
  let count = 0;
  for await (const values of rows) {
    const row = sheet.addRow(columns.map((column, i) => cellValue(column.kind, values[i])));
    columns.forEach((column, i) => {
      const value = values[i];
      if (column.kind === 'date' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) {
        row.getCell(i + 1).numFmt = DATE_ONLY_RE.test(value) ? DATE_FORMAT : DATE_TIME_FORMAT;
      }
    });
    row.commit();
    count++;
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

function cellValue(kind: CellKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'number':
      if (typeof value === 'number') return value;
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      break;
    case 'date':
      if (typeof value === 'string') {
        // A date alone is midnight UTC; a date-time is stored in UTC, as the service holds it.
        const t = Date.parse(DATE_ONLY_RE.test(value) ? `${value}T00:00:00Z` : value);
        if (!Number.isNaN(t)) return new Date(t);
      }
      if (typeof value === 'number') return new Date(value * 1000);
      break;
    case 'text':
      break;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A stream the workbook writer may end, that does not end (or close) the sink under it. */
function toWritable(sink: ByteSink): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      sink.write(chunk).then(() => done(), done);
    },
  });
}

/** Stdout (a pipe) as a sink of bytes, honouring backpressure. */
export function outStreamSink(out: OutStream): ByteSink {
  const bytes = out as unknown as { write(chunk: Uint8Array): boolean };
  return {
    write: (chunk) =>
      new Promise<void>((resolve) => {
        if (bytes.write(chunk) || !out.once) resolve();
        else out.once('drain', () => resolve());
      }),
  };
}

/** The contact columns with their kinds: attributes typed by their definitions. */
export function contactColumns(definitions: readonly AttributeDefinition[]): WorkbookColumn[] {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const header = contactCsvHeader(definitions.map((d) => d.name));
  return header.map((h) => {
    if (h === 'created_at' || h === 'updated_at') return { header: h, kind: 'date' };
    const definition = h.startsWith('attr.') ? byName.get(h.slice('attr.'.length)) : undefined;
    const kind: CellKind =
      definition?.type === 'number'
        ? 'number'
        : definition?.type === 'boolean'
          ? 'boolean'
          : definition?.type === 'date'
            ? 'date'
            : 'text';
    return { header: h, kind };
  });
}

/** Every contact as a row of `contactColumns(definitions)`. */
export async function writeContactsWorkbook(
  sink: ByteSink,
  contacts: AsyncIterable<Contact>,
  definitions: readonly AttributeDefinition[],
): Promise<WriteSummary> {
  const names = definitions.map((d) => d.name);
  const known = new Set(names);
  const dropped = new Set<string>();
  async function* rows() {
    for await (const c of contacts) {
      for (const key of Object.keys(c.custom_attributes)) if (!known.has(key)) dropped.add(key);
      yield [
        c.id,
        c.external_id,
        c.name,
        c.email,
        c.phonenumber,
        c.stripe_accounts?.length ? JSON.stringify(c.stripe_accounts) : null,
        c.created_at,
        c.updated_at,
        // Own values only: an attribute named `constructor` is an attribute like any other.
        ...names.map((n) => (Object.hasOwn(c.custom_attributes, n) ? c.custom_attributes[n] : null)),
      ];
    }
  }
  const count = await writeWorkbook(sink, 'Contacts', contactColumns(definitions), rows());
  return { count, droppedAttributes: [...dropped] };
}
