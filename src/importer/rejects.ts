// The rejects file: every row that could not land, with its line and reason, in a form that
// imports again as is once fixed. Written to a temporary file and renamed into place on close.
import { open, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { sameFile } from '../util/output-path.js';
import { type AtomicFile, openAtomicFile } from '../util/write-file-atomic.js';
import { CSV_WRITE_OPTIONS, csvCell } from './csv-text.js';
import { ImportError } from './errors.js';
import type { CsvDelimiter, ImportFormat } from './format.js';
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
}

export interface RejectsSummary {
  path: string;
  count: number;
}

const BUFFER_CHARS = 64 * 1024;

/**
 * Collects rejects. Nothing is created until the first reject; the rows go to a hidden temporary
 * file beside `path` (see `openAtomicFile`), which `close()` syncs and renames into place, so a
 * file at `path` is always whole. `close()` with no rejects removes a rejects file an earlier run
 * left at `path` (every run re-checks every row that has not landed, so an old one would only
 * mislead), but only when the file there is one this tool wrote: any other file is left alone.
 * It never replaces the input, whatever alias of it `path` is. Writes may be queued without
 * awaiting each other.
 */
export class RejectsWriter {
  readonly path: string;
  #options: RejectsWriterOptions;
  #file: AtomicFile | null = null;
  #buffer: string[] = [];
  #buffered = 0;
  #count = 0;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: RejectsWriterOptions) {
    if (options.input && options.input !== '-' && resolve(options.input) === resolve(options.path)) {
      throw new ImportError(
        `The rejects file would overwrite the input ${options.input}; choose another path`,
      );
    }
    if (options.format === 'csv' && !options.header)
      throw new ImportError('CSV rejects need the input header');
    this.path = options.path;
    this.#options = options;
  }

  /** Rejects written so far. */
  get count(): number {
    return this.#count;
  }

  write(source: SourceRecord, reason: string): Promise<void> {
    if (this.#closed) return Promise.reject(new ImportError('The rejects file is already closed'));
    this.#count++;
    const text = this.#format(source, reason);
    return this.#enqueue(async () => {
      if (!this.#file) {
        this.#file = await openAtomicFile(this.path);
        this.#push(this.#preamble());
      }
      this.#push(text);
      if (this.#buffered >= BUFFER_CHARS) await this.#drain();
    });
  }

  /** Commit: the file at `path` holds every reject, or is removed when there were none. */
  async close(): Promise<RejectsSummary | null> {
    this.#closed = true;
    await this.#enqueue(async () => {
      if (!this.#file) {
        if (await isRejectsFile(this.path)) await rm(this.path, { force: true });
        return;
      }
      await this.#drain();
      const file = this.#file;
      this.#file = null;
      // Whole on disk before the check below: if it fails, the temporary file is the only copy.
      await file.finish();
      const { input } = this.#options;
      if (input && input !== '-' && (await sameFile(this.path, input))) {
        throw new ImportError(
          `The rejects file ${this.path} is the input ${input}; the rejects are kept in ${file.temp}`,
        );
      }
      await file.commit();
    });
    return this.#count > 0 ? { path: this.path, count: this.#count } : null;
  }

  /** Give up: remove the temporary file and leave `path` as it was. */
  async abort(): Promise<void> {
    this.#closed = true;
    await this.#enqueue(async () => {
      await this.#file?.abort();
      this.#file = null;
    });
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    // A failed write fails its caller; later tasks still run (close and abort must clean up).
    this.#queue = run.catch(() => {});
    return run;
  }

  #push(text: string) {
    this.#buffer.push(text);
    this.#buffered += text.length;
  }

  async #drain() {
    if (!this.#file || this.#buffered === 0) return;
    const text = this.#buffer.join('');
    this.#buffer = [];
    this.#buffered = 0;
    await this.#file.write(text);
  }

  #preamble(): string {
    const { format, header, delimiter = ',', bom } = this.#options;
    if (format !== 'csv') return '';
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
      // way export writes them, so the importer reads them back exactly.
      const cells = source.raw ?? header!.map((h) => source.record[h] as string | undefined);
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
