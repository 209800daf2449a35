// The results file: one record per row that landed (its line, external_id, the service's id, and
// whether it was created or updated), as Salesforce's bulk jobs give, in CSV or NDJSON by the
// file's extension. A resumed import appends to it, so the file covers every landed row.
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { extname } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { writeTarget } from '../util/output-path.js';
import { CSV_WRITE_OPTIONS, csvCell } from './csv-text.js';
import { ImportError } from './errors.js';

export interface ResultRecord {
  line: number;
  external_id: string;
  id: string;
  action: 'created' | 'updated';
}

const COLUMNS = ['line', 'external_id', 'id', 'action'] as const;

export type ResultsFormat = 'csv' | 'ndjson';

/** The format a results path asks for, or an error naming the extensions it takes. */
export function resultsFormat(path: string): ResultsFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.ndjson' || ext === '.jsonl') return 'ndjson';
  throw new ImportError(`--results ${path}: name a .csv or .ndjson file (its extension picks the format)`);
}

/**
 * Appends records as rows land; `flush()` makes them durable. The import flushes it before the
 * checkpoint records rows as landed, so the file never misses a row the checkpoint claims.
 */
export class ResultsWriter {
  readonly path: string;
  readonly #format: ResultsFormat;
  #file: FileHandle;
  #buffer: string[] = [];
  #count = 0;
  #queue: Promise<void> = Promise.resolve();

  private constructor(path: string, format: ResultsFormat, file: FileHandle) {
    this.path = path;
    this.#format = format;
    this.#file = file;
  }

  /** Opens `path`: appended to on `resume` (the header written only into an empty file), else replaced. */
  static async open(path: string, options: { resume: boolean }): Promise<ResultsWriter> {
    const format = resultsFormat(path);
    // Opened where it is: the output-path rule again at the open (no link or file another user
    // planted, nothing but a regular file), and the last name not followed if it became a link since.
    const target = await writeTarget(path);
    const flags =
      constants.O_CREAT |
      (options.resume ? constants.O_RDWR | constants.O_APPEND : constants.O_WRONLY | constants.O_TRUNC) |
      (constants.O_NOFOLLOW ?? 0) |
      (constants.O_NONBLOCK ?? 0);
    const file = await open(target, flags, 0o666);
    let size = 0;
    try {
      if (!(await file.stat()).isFile()) {
        throw new ImportError(`--results ${path}: not a regular file; nothing was written to it`);
      }
      if (options.resume) {
        // A run killed mid-write leaves part of a record: cut it off, or the next one joins it.
        size = await wholeRecordsLength(file, format === 'csv');
        await file.truncate(size);
      }
    } catch (error) {
      await file.close();
      throw error;
    }
    const writer = new ResultsWriter(path, format, file);
    if (format === 'csv' && size === 0) writer.#buffer.push(stringify([[...COLUMNS]], CSV_WRITE_OPTIONS));
    return writer;
  }

  /** Records written by this run. */
  get count(): number {
    return this.#count;
  }

  write(record: ResultRecord): void {
    this.#count++;
    this.#buffer.push(
      this.#format === 'csv'
        ? stringify([COLUMNS.map((c) => csvCell(String(record[c])))], CSV_WRITE_OPTIONS)
        : `${JSON.stringify(record)}\n`,
    );
  }

  /** Writes and syncs what was recorded so far; calls made while one runs share the next. */
  flush(): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      if (this.#buffer.length === 0) return;
      const text = this.#buffer.join('');
      this.#buffer = [];
      await this.#file.write(text);
      await this.#file.sync();
    });
    return this.#queue;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.#file.close();
  }
}

/**
 * The length of the file up to the end of its last whole record: its last newline, outside
 * quotes for CSV (an external_id may hold a newline; `""` toggles twice and changes nothing).
 */
async function wholeRecordsLength(file: FileHandle, csv: boolean): Promise<number> {
  const chunk = Buffer.alloc(1 << 16);
  let position = 0;
  let end = 0;
  let quoted = false;
  for (;;) {
    const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return end;
    for (let i = 0; i < bytesRead; i++) {
      const byte = chunk[i];
      if (byte === 0x22 && csv) quoted = !quoted;
      else if (byte === 0x0a && !quoted) end = position + i + 1;
    }
    position += bytesRead;
  }
}
