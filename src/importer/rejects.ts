// The rejects file: every row that could not land, with its line and reason, in a form that
// imports again as is once fixed. Written in place as rows are rejected (an `OutputFile`), so the
// rejects found so far are at its path whatever stops the import; every run, a resumed one too,
// writes it anew, since every row that has not landed is checked again.
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { CSV_WRITE_OPTIONS, csvCell } from './csv-text.js';
import { ImportError } from './errors.js';
import type { CsvDelimiter, ImportFormat } from './format.js';
import { type Keep, type OpenOutput, OutputFile } from './output-file.js';
import { REJECT_KEYS, type SourceRecord } from './sources/types.js';

export interface RejectsWriterOptions {
  /** Where the file lands (see `defaultRejectsPath`). */
  path: string;
  /** The input's format: CSV rejects are CSV, JSON and NDJSON rejects are NDJSON. */
  format: ImportFormat;
  /** CSV: the input's header; `_line` and `_error` columns are added after it. */
  header?: string[] | undefined;
  delimiter?: CsvDelimiter | undefined;
  /** CSV: start with a UTF-8 BOM, as the input did (spreadsheets need it to read UTF-8). */
  bom?: boolean | undefined;
  /** The input's path: refusing to write over it. */
  input?: string | undefined;
  /** How messages name the file; default "the rejects file". */
  what?: string | undefined;
  /**
   * What of the file a resume keeps and appends to (see `OutputFile`; the fixes file, whose rows do
   * not come again). Default 0: the file is written anew. Then call `open()` before writing.
   */
  keep?: Keep | undefined;
  /** Told of the first failed write: the import stops. */
  onFailure?: ((error: Error) => void) | undefined;
  openFile?: OpenOutput | undefined;
  /**
   * CSV: a cell as the run read it where its text alone would not say (a slash date of a column
   * whose order other rows decided), else undefined: the cell is written as read.
   */
  asRead?: ((index: number, cell: string) => string | undefined) | undefined;
}

export interface RejectsSummary {
  path: string;
  /** Rows written by this run. */
  count: number;
}

/**
 * Collects rejects. Nothing is created until the first reject (or until `open()`, with something
 * to keep). `close()` with nothing kept or written removes a rejects file an earlier run left at
 * `path` (every run re-checks every row that has not landed, so an old one would only mislead),
 * but only when the file there is one this tool wrote: any other file is left alone. It never
 * writes into the input, whatever alias of it `path` is.
 */
export class RejectsWriter {
  readonly path: string;
  #options: RejectsWriterOptions;
  readonly #file: OutputFile;

  constructor(options: RejectsWriterOptions) {
    const what = options.what ?? 'the rejects file';
    if (options.input && options.input !== '-' && resolve(options.input) === resolve(options.path)) {
      throw new ImportError(
        `${capitalise(what)} would overwrite the input ${options.input}; choose another path`,
      );
    }
    if (options.format === 'csv' && !options.header)
      throw new ImportError('CSV rejects need the input header');
    this.path = options.path;
    this.#options = options;
    this.#file = new OutputFile({
      path: options.path,
      what,
      keep: options.keep,
      csv: options.format === 'csv',
      preamble: this.#preamble(),
      protect: options.input,
      isOurs: isRejectsFile,
      onFailure: options.onFailure,
      openFile: options.openFile,
    });
  }

  /** Opens the file now when a resume keeps some of it; else it is made at the first reject. */
  open(): Promise<void> {
    return this.#file.open();
  }

  /** Rows written so far by this run. */
  get count(): number {
    return this.#file.records;
  }

  /** Bytes of the file once every row so far is written: what a checkpoint records. */
  get length(): number {
    return this.#file.length;
  }

  /** The file held less than `keep` said: rows of the run resumed are missing from it. */
  get short(): boolean {
    return this.#file.short;
  }

  /** The first failed write, if any (rows given since are dropped). */
  get failure(): Error | undefined {
    return this.#file.failure;
  }

  /** Queues the row; a failed write is told to `onFailure`, and by `flush()` and `close()`. */
  write(source: SourceRecord, reason: string): void {
    this.#file.write(this.#format(source, reason));
  }

  /** Writes and syncs the rows given so far. */
  flush(): Promise<void> {
    return this.#file.flush();
  }

  /** The file at `path` holds every row (kept and written), or is removed when it holds none. */
  async close(): Promise<RejectsSummary | null> {
    await this.#file.close();
    return this.#file.length > 0 ? { path: this.path, count: this.count } : null;
  }

  #preamble(): string | undefined {
    const { format, header, delimiter = ',', bom } = this.#options;
    if (format !== 'csv') return undefined;
    const row = stringify([[...header!, REJECT_KEYS.line, REJECT_KEYS.error].map(csvCell)], {
      ...CSV_WRITE_OPTIONS,
      delimiter,
    });
    return bom ? `\uFEFF${row}` : row;
  }

  #format(source: SourceRecord, reason: string): string {
    const { format, header, delimiter = ',' } = this.#options;
    if (format === 'csv') {
      // Cells as read (a row of the wrong width too, so it stays wrong until fixed), written the
      // way export writes them, so the importer reads them back exactly; a slash date whose order
      // the file's other rows decided in ISO form, so the file alone reads it the same.
      const raw = source.raw ?? header!.map((h) => source.record[h] as string | undefined);
      const { asRead } = this.#options;
      const cells = asRead ? raw.map((cell, i) => (cell ? (asRead(i, cell) ?? cell) : cell)) : raw;
      return stringify([[...cells, String(source.line), reason].map(csvCell)], {
        ...CSV_WRITE_OPTIONS,
        delimiter,
      });
    }
    const record =
      source.text !== undefined
        ? { [REJECT_KEYS.line]: source.line, [REJECT_KEYS.error]: reason, [REJECT_KEYS.raw]: source.text }
        : { ...source.record, [REJECT_KEYS.line]: source.line, [REJECT_KEYS.error]: reason };
    return `${JSON.stringify(record)}\n`;
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function createRejectsWriter(options: RejectsWriterOptions): RejectsWriter {
  return new RejectsWriter(options);
}

/**
 * Whether `path` holds a rejects file this tool wrote: CSV whose header ends with the `_line` and
 * `_error` columns, or NDJSON whose first record has both keys. Only such a file is removed.
 */
export async function isRejectsFile(path: string): Promise<boolean> {
  let head: string;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
  const firstLine = head.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.startsWith('{')) {
    try {
      const record = JSON.parse(firstLine) as Record<string, unknown>;
      return REJECT_KEYS.line in record && REJECT_KEYS.error in record;
    } catch {
      return false;
    }
  }
  return new RegExp(`[,;\t]${REJECT_KEYS.line}[,;\t]${REJECT_KEYS.error}$`).test(firstLine);
}
