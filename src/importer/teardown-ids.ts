// The contacts a file names, for `delete --from`: the file is read with the importer's own readers
// and keyed as its import keyed it (an import file, or its results file, whose updated contacts
// existed before and are left), or is plain text with one id a line. The deletes themselves are
// src/bulk/teardown.ts.
import type { AttributeDefinition } from '../api/attribute.js';
import type { TeardownId } from '../bulk/teardown.js';
import { emailKey } from './column-reader.js';
import { headerWords, roleByWords } from './columns.js';
import { ImportError } from './errors.js';
import type { ExportProfile } from './exports.js';
import { formatFromName, isTabular, sniffDelimiter, sniffFormat } from './format.js';
import { readAsExportTable } from './json-export.js';
import { normalizeHeader, resolveMapping } from './mapping.js';
import { openSource } from './sources/index.js';
import { type OpenedInput, openInput } from './sources/input.js';
import { decodeText } from './sources/text.js';
import type { ImportSource, SourceRecord } from './sources/types.js';
import { sampleRecords } from './stages/source.js';

export type { TeardownId };

export interface TeardownIds {
  /** The contacts to delete, each once, in file order. */
  ids: TeardownId[];
  /**
   * The contacts a results file marks `updated` and never `created`: they existed before the
   * import, so they are left (none with `includeUpdated`, which deletes them too).
   */
  updatedLeft: TeardownId[];
}

export interface ReadTeardownOptions {
  stdin?: NodeJS.ReadableStream;
  /** A results file's `updated` contacts are deleted too. */
  includeUpdated?: boolean;
  /**
   * The agent's attribute definitions, asked for only when a table is mapped as an import maps
   * it (its `attr.<name>` columns and the headers naming an attribute are read as the import
   * read them). Without it the table is mapped as if the agent had none.
   */
  definitions?: () => Promise<Iterable<AttributeDefinition>>;
}

/**
 * The contacts `input` names, each once, in file order, keyed as its import keyed them. A
 * results file (external_id and action columns, or NDJSON records with an action) names the
 * contacts its import created and those it updated: only the created ones are deleted, unless
 * `includeUpdated`; a key the file marks both was created. Another table is mapped as an import
 * maps it (without an id column its key is the email, in lower case); JSON and NDJSON records
 * give their `external_id`; anything else is read as one id a line (blank lines and `#`
 * comments skipped).
 */
export async function readTeardownIds(
  input: string,
  options: ReadTeardownOptions = {},
): Promise<TeardownIds> {
  const named = formatFromName(input);
  let structured = named !== undefined;
  if (!structured) {
    const peek = await openInput(input, options);
    const sample = peek.sampleText;
    const kind = sniffFormat(sample);
    structured = kind !== 'csv' || headerNamesAKey(sample);
    if (!structured) return { ids: await plainIds(peek), updatedLeft: [] };
    // The peek consumed the start of stdin: only a file can be opened again.
    if (input === '-') return structuredFromOpened(peek, options);
    peek.destroy();
  }
  const source = await openSource(input, { stdin: options.stdin });
  return idsFromSource(source, options);
}

/**
 * A first line of several cells, or naming an id or an email column, is a table's header (an
 * import file keyed by email has no id column), not an id.
 */
function headerNamesAKey(sample: string): boolean {
  const firstLine = sample.split(/\r?\n/, 1)[0] ?? '';
  const cells = firstLine.split(sniffDelimiter(firstLine)).map((c) => c.replace(/^"|"$/g, ''));
  if (cells.length > 1) return true;
  // An address is a value: a list of emails as ids (`ann@mail.example`) has no header.
  const role = cells[0]!.includes('@') ? undefined : roleByWords(headerWords(cells[0]!));
  return role === 'id' || role === 'email';
}

async function structuredFromOpened(opened: OpenedInput, options: ReadTeardownOptions): Promise<TeardownIds> {
  const { openCsv } = await import('./sources/csv.js');
  const { openNdjson } = await import('./sources/ndjson.js');
  const { openJson } = await import('./sources/json.js');
  const kind = sniffFormat(opened.sampleText);
  let source: ImportSource;
  if (kind === 'xlsx') source = await (await import('./sources/xlsx.js')).openXlsx(opened);
  else if (kind === 'vcard') source = await (await import('./sources/vcard.js')).openVcard(opened);
  else if (kind === 'csv') source = await openCsv(opened);
  else {
    const records = kind === 'json' ? openJson(opened) : openNdjson(opened);
    try {
      await readAsExportTable(records);
    } catch (error) {
      records.close();
      throw error;
    }
    source = records;
  }
  return idsFromSource(source, options);
}

/** How one record of the file names its contact, and what a results file says the import did. */
interface RecordKey {
  id(record: SourceRecord): string;
  action(record: SourceRecord): unknown;
}

async function idsFromSource(source: ImportSource, options: ReadTeardownOptions): Promise<TeardownIds> {
  const key = await recordKey(source, options);
  // By id, in file order: whether every record naming it says the import updated it.
  const found = new Map<string, { entry: TeardownId; updatedOnly: boolean }>();
  for await (const rec of source.records) {
    const id = key.id(rec);
    if (!id) continue;
    const action = key.action(rec);
    if (action !== undefined && action !== 'created' && action !== 'updated') {
      throw new ImportError(
        `${source.name}, line ${rec.line}: action ${JSON.stringify(action)} is neither created nor updated ` +
          '(a results file says which the import did to each contact)',
      );
    }
    const known = found.get(id);
    // A key repeated in the import's file: its first row created the contact, the next updated it.
    if (known) known.updatedOnly &&= action === 'updated';
    else found.set(id, { entry: { line: rec.line, id }, updatedOnly: action === 'updated' });
  }
  const ids: TeardownId[] = [];
  const updatedLeft: TeardownId[] = [];
  for (const { entry, updatedOnly } of found.values())
    (updatedOnly && !options.includeUpdated ? updatedLeft : ids).push(entry);
  return { ids, updatedLeft };
}

async function recordKey(source: ImportSource, options: ReadTeardownOptions): Promise<RecordKey> {
  const cellAt = (column: number) => (rec: SourceRecord) => rec.raw?.[column]?.trim() ?? '';
  if (isTabular(source.format)) {
    // A results file (or one like it) is read by its own columns: no mapping, and no attribute
    // of the agent's named `action` can take that column for itself.
    const header = (source.header ?? []).map(normalizeHeader);
    const idColumn = header.indexOf(normalizeHeader('external_id'));
    const actionColumn = header.indexOf('action');
    if (idColumn !== -1 && actionColumn !== -1) return { id: cellAt(idColumn), action: cellAt(actionColumn) };
    return mappedKey(source, undefined, options);
  }
  // JSON read as a table (another system's records, Zendesk's users) is read as its import read
  // it, by columns; a results file by its own keys.
  const results = [...(source.keys ?? [])].sort().join() === 'action,external_id,id,line';
  if (source.header && !results) return mappedKey(source, source.profile, options);
  return {
    id: (rec) => {
      const raw = rec.record.external_id;
      return typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
    },
    action: (rec) => {
      const action = rec.record.action;
      return typeof action === 'string' ? action.trim() : action;
    },
  };
}

/**
 * The key of each row as an import of the file gives it: the columns mapped as the import maps
 * them (its first rows read first, for their values), and without an id column the email as
 * the import keys it.
 */
async function mappedKey(
  source: ImportSource,
  profile: ExportProfile | undefined,
  options: ReadTeardownOptions,
): Promise<RecordKey> {
  const sample = source.format === 'vcard' ? undefined : await sampleRecords(source);
  const definitions = (await options.definitions?.()) ?? [];
  const mapping = resolveMapping({ header: source.header ?? [], definitions, profile, sample });
  const none = () => undefined;
  if (mapping.keyFromEmail !== undefined)
    return { id: (rec) => (rec.raw ? (emailKey(mapping, rec.raw) ?? '') : ''), action: none };
  const column = mapping.columns.findIndex((targets) =>
    targets.some((t) => t.kind === 'field' && t.field === 'external_id'),
  );
  return {
    id: (rec) => (column === -1 ? '' : (rec.raw?.[column]?.trim() ?? '')),
    action: none,
  };
}

async function plainIds(opened: OpenedInput): Promise<TeardownId[]> {
  const seen = new Set<string>();
  const ids: TeardownId[] = [];
  let line = 0;
  let carry = '';
  const take = (text: string) => {
    line++;
    const id = text.trim();
    if (!id || id.startsWith('#') || seen.has(id)) return;
    seen.add(id);
    ids.push({ line, id });
  };
  for await (const text of decodeText(opened)) {
    const parts = (carry + text).split(/\r?\n/);
    carry = parts.pop() ?? '';
    for (const part of parts) take(part);
  }
  if (carry) take(carry);
  return ids;
}
