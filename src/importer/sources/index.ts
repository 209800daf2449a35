// Open any input as records: pick the reader by format (explicit, extension, or first bytes).
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { ImportError } from '../errors.js';
import {
  type CsvDelimiter,
  delimiterFromName,
  formatFromName,
  type ImportFormat,
  refusalOf,
  sniffDelimiter,
  sniffFormat,
} from '../format.js';
import { fileType } from '../format-names.js';
import { readAsExportTable } from '../json-export.js';
import { NotTextError } from './binary.js';
import { countCsvRows, countJsonRows, countNdjsonRows } from './count.js';
import { openCsv } from './csv.js';
import { ConsumedBytes, type InputOptions, openInput } from './input.js';
import { openJson } from './json.js';
import { openNdjson } from './ndjson.js';
import type { ImportSource } from './types.js';
import { countVcards, openVcard } from './vcard.js';

/**
 * Markup: a web page's table or Excel's XML, which many web apps save as `.xls` and a spreadsheet
 * opens. A tab-separated header never starts with `<`.
 */
const HTML_RE = /^\uFEFF?\s*</;

export { parseEncodingOption } from './text.js';
export type { ImportSource, SourceRecord } from './types.js';
export { REJECT_KEYS } from './types.js';

export interface OpenSourceOptions extends InputOptions {
  /** A name `--format` takes (`csv`, `tsv`, `xlsx`, `vcf`...); else decided by the extension, else by the content. */
  format?: string | undefined;
  /** CSV only; else tab for `.tsv`, else sniffed from the header line. */
  delimiter?: CsvDelimiter | undefined;
  /** Workbooks only: the sheet to read, by name; default the first. */
  sheet?: string | undefined;
  /**
   * The longest record read, in characters (a workbook's row: of its XML): reading stops at a
   * longer one, naming where. Default `MAX_RECORD_CHARS` (16 MiB); lower for a test.
   */
  maxRecordChars?: number | undefined;
}

/**
 * Open `input` (a path, or `-` for stdin) as a stream of records. A table's header is read before
 * this resolves (`source.header`), so columns can be mapped before the first row; so is a JSON
 * input's first record, which tells a known tool's export (`source.profile`).
 */
export async function openSource(input: string, options: OpenSourceOptions = {}): Promise<ImportSource> {
  // A name the importer has no reader for (`.xls`) is refused unless the file is text: web apps
  // save tab-separated text under that name (Meetup's member list), which is read as it is.
  const refused = options.format === undefined && input !== '-' ? refusalOf(input) : undefined;
  const named = refused ? undefined : formatFromName(input, options.format);
  const opened = await openInput(input, options);
  const content = sniffFormat(opened.sampleText);
  if (refused) {
    if (opened.binary !== undefined || content !== 'csv' || HTML_RE.test(opened.sampleText)) {
      opened.destroy();
      throw new ImportError(refused);
    }
    opened.note({
      code: 'text_misnamed',
      message: `${opened.name} is text, not ${fileType(extname(input))?.is}: reading it as CSV`,
      file: opened.name,
    });
  }
  let format = named ?? content;
  // A zip named as text (an export saved as `.csv` that is a workbook) is read as the workbook it
  // is; any other file that is not text is refused rather than read as garbage.
  const misnamed = content === 'xlsx' && named !== 'xlsx' && options.format === undefined;
  if (misnamed) format = 'xlsx';
  else if (opened.binary !== undefined && format !== 'xlsx') {
    opened.destroy();
    throw new NotTextError(opened.name, opened.binary);
  }
  // A `.json` file of one object a line (Zendesk's JSON export is one) is NDJSON, not an array.
  if (format === 'json' && options.format === undefined && firstLineIsObject(opened.sampleText))
    format = 'ndjson';
  if (options.sheet !== undefined && format !== 'xlsx') {
    opened.destroy();
    throw new ImportError(`A sheet applies to .xlsx workbooks; ${opened.name} is read as ${format}`, {
      detail: { code: 'sheet_not_workbook', file: opened.name, format },
    });
  }
  const { maxRecordChars } = options;
  let source: ImportSource;
  switch (format) {
    case 'xlsx': {
      // The workbook reader is loaded only when a workbook is read. A zip is read whole (its
      // directory is at the end), so a resume checks the whole file, not a prefix.
      const { openXlsx } = await import('./xlsx.js');
      const path = opened.path;
      source = await openXlsx(opened, { sheet: options.sheet, byContent: named !== 'xlsx', maxRecordChars });
      if (named !== undefined && named !== 'xlsx')
        opened.note({
          code: 'workbook_misnamed',
          message: `${opened.name} is an Excel workbook (.xlsx), not ${named}: reading it as one`,
          file: opened.name,
        });
      if (path !== undefined) source.consumed = await wholeFile(path);
      return source;
    }
    case 'vcard':
      source = await openVcard(opened, { maxRecordChars });
      break;
    case 'csv':
      source = await openCsv(opened, {
        delimiter: options.delimiter ?? delimiterFromName(input),
        maxRecordChars,
      });
      break;
    case 'json':
    case 'ndjson':
      source =
        format === 'json'
          ? openJson(opened, { maxRecordChars })
          : openNdjson(opened, { maxKeptLength: maxRecordChars });
      // A JSON export a known tool writes (Zendesk's users) is read as a table of its keys.
      try {
        await readAsExportTable(source, opened.note);
      } catch (error) {
        source.close();
        throw error;
      }
      break;
  }
  source.consumed = opened.consumed;
  return source;
}

/** The first line of the text is a whole JSON object: the file holds one object a line. */
function firstLineIsObject(sample: string): boolean {
  const text = sample.replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('{')) return false;
  const end = text.indexOf('\n');
  try {
    // No line break in the sample: a one-line file parses whole, a longer line does not.
    const value: unknown = JSON.parse(end === -1 ? text : text.slice(0, end));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    // One object that wraps the records (`{"users": [...], "count": 1}`, a saved API answer)
    // is no line of records: read as JSON, it is refused saying so.
    return !Object.values(value).some(
      (v) => Array.isArray(v) && v.some((x) => x !== null && typeof x === 'object'),
    );
  } catch {
    return false;
  }
}

/** Every byte of a file, counted and hashed as `consumed` is. */
async function wholeFile(path: string): Promise<ConsumedBytes> {
  const consumed = new ConsumedBytes();
  for await (const chunk of createReadStream(path)) consumed.add(chunk as Buffer);
  return consumed;
}

/**
 * How many records `openSource` would yield for this file, in one cheap pass, for a progress
 * total. Reading stdin twice is impossible: the caller counts only files.
 */
export async function countRows(
  file: string,
  format: ImportFormat,
  delimiter?: CsvDelimiter,
  options: Pick<InputOptions, 'encoding'> & Pick<OpenSourceOptions, 'sheet' | 'maxRecordChars'> = {},
): Promise<number> {
  const opened = await openInput(file, options);
  switch (format) {
    case 'xlsx': {
      // A workbook has no cheaper count than reading its sheet: its rows as the import reads them.
      const { openXlsx } = await import('./xlsx.js');
      const source = await openXlsx(opened, { sheet: options.sheet, maxRecordChars: options.maxRecordChars });
      let rows = 0;
      for await (const _ of source.records) rows++;
      return rows;
    }
    case 'vcard':
      return countVcards(opened);
    case 'csv':
      return countCsvRows(opened, delimiter ?? delimiterFromName(file) ?? sniffDelimiter(opened.sampleText));
    case 'json':
      return countJsonRows(opened, options.maxRecordChars);
    case 'ndjson':
      return countNdjsonRows(opened);
  }
}
