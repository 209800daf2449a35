// What every source yields: one record of the input with where it sits in the file.
import type { ExportProfile } from '../exports.js';
import type { CsvDelimiter, ImportFormat } from '../format.js';
import type { ConsumedBytes } from './input.js';

/**
 * One CSV cell as read: `undefined` for an empty cell written without quotes (no value given),
 * otherwise its exact text (`""` is the empty string, a quoted value keeps its whitespace).
 */
export type Cell = string | undefined;

export interface SourceRecord {
  /**
   * 1-based number of the record among those the source yields (the CSV header and blank lines
   * do not count). Unique even where lines are not (a one-line JSON array): the checkpoint's key.
   */
  row: number;
  /** 1-based physical line where the record starts (for a JSON array, where the element opens). */
  line: number;
  /** What a message names the record by beside its line, where the file gives it one: a vCard's name. */
  title?: string;
  /** The record: CSV cells by header, or a JSON object without the rejects' `_line`/`_error`. */
  record: Record<string, unknown>;
  /** CSV only: the cells as read, in header order (rejects write them back unchanged). */
  raw?: Cell[];
  /** JSON only: the original text, when it is not an object (rejects keep it as `_raw`). */
  text?: string;
  /** Set when the source read the record but cannot hand it on: the row is rejected with this reason. */
  error?: string;
  /**
   * A vCard keyed by its number: the key becomes the number in E.164 once it is placed in a
   * country, so a number written with or without its country code keys one contact.
   */
  keyedByPhone?: boolean;
}

export interface ImportSource {
  /** The file name, or `stdin`, for messages. */
  name: string;
  format: ImportFormat;
  /** CSV, workbooks and vCards: the header cells as written (without the rejects' `_line`/`_error`). */
  header?: string[];
  delimiter?: CsvDelimiter;
  /** CSV only: the input began with a UTF-8 byte-order mark (rejects keep it, for spreadsheets). */
  bom?: boolean;
  /** A workbook: the sheet read. */
  sheet?: string;
  /**
   * JSON: the export of a known tool (Zendesk's users) it was recognised as by its first
   * object's keys. It is then read as a table: those keys are the `header`, each object's values
   * its cells (`raw`), mapped as a CSV export's columns are.
   */
  profile?: ExportProfile;
  /** JSON: the first record's keys (a near-miss of a known export is told by them). */
  keys?: string[];
  /** The records in file order; iterate once. Breaking out of the loop closes the input. */
  records: AsyncIterable<SourceRecord>;
  /** Close the input without reading on (also done by breaking out of `records`). */
  close(): void;
  /** The bytes of the input read so far (by `openSource`): what a resume checks. */
  consumed?: ConsumedBytes;
}

/**
 * Keys a rejects file adds to each record. Sources drop them on reading, so a rejects file
 * imports again as is once fixed.
 */
export const REJECT_KEYS = { line: '_line', error: '_error', raw: '_raw' } as const;
