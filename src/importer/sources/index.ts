// Open any input as records: pick the reader by format (explicit, extension, or first bytes).
import {
  type CsvDelimiter,
  delimiterFromName,
  formatFromName,
  type ImportFormat,
  sniffDelimiter,
  sniffFormat,
} from '../format.js';
import { countCsvRows, countJsonRows, countNdjsonRows } from './count.js';
import { openCsv } from './csv.js';
import { type InputOptions, openInput } from './input.js';
import { openJson } from './json.js';
import { openNdjson } from './ndjson.js';
import type { ImportSource } from './types.js';

export { parseEncodingOption } from './text.js';
export type { ImportSource, SourceRecord } from './types.js';
export { REJECT_KEYS } from './types.js';

export interface OpenSourceOptions extends InputOptions {
  /** `csv`, `tsv`, `json`, `ndjson` or `jsonl`; else decided by the extension, else by the content. */
  format?: string | undefined;
  /** CSV only; else tab for `.tsv`, else sniffed from the header line. */
  delimiter?: CsvDelimiter | undefined;
}

/**
 * Open `input` (a path, or `-` for stdin) as a stream of records. A CSV header is read before
 * this resolves (`source.header`), so columns can be mapped before the first row.
 */
export async function openSource(input: string, options: OpenSourceOptions = {}): Promise<ImportSource> {
  const named = formatFromName(input, options.format);
  const opened = await openInput(input, options);
  const format = named ?? sniffFormat(opened.sampleText);
  let source: ImportSource;
  switch (format) {
    case 'csv':
      source = await openCsv(opened, { delimiter: options.delimiter ?? delimiterFromName(input) });
      break;
    case 'json':
      source = openJson(opened);
      break;
    case 'ndjson':
      source = openNdjson(opened);
      break;
  }
  source.consumed = opened.consumed;
  return source;
}

/**
 * How many records `openSource` would yield for this file, in one cheap pass, for a progress
 * total. Reading stdin twice is impossible: the caller counts only files.
 */
export async function countRows(
  file: string,
  format: ImportFormat,
  delimiter?: CsvDelimiter,
  options: Pick<InputOptions, 'encoding'> = {},
): Promise<number> {
  const opened = await openInput(file, options);
  switch (format) {
    case 'csv':
      return countCsvRows(opened, delimiter ?? delimiterFromName(file) ?? sniffDelimiter(opened.sampleText));
    case 'json':
      return countJsonRows(opened);
    case 'ndjson':
      return countNdjsonRows(opened);
  }
}
