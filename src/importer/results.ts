// The results file: one record per row that landed (its line, external_id, the service's id, and
// whether it was created or updated), as Salesforce's bulk jobs give, in CSV or NDJSON by the
// file's extension. A resumed import appends to it, so the file covers every landed row once.
import { extname } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { CSV_WRITE_OPTIONS, csvCell } from './csv-text.js';
import { ImportError } from './errors.js';
import { fileType } from './format-names.js';
import { OutputFile, type OutputFileOptions } from './output-file.js';

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
  const written = fileType(extname(path))?.written;
  if (written === 'csv' || written === 'ndjson') return written;
  throw new ImportError(
    `The results file ${path}: name a .csv or .ndjson file (its extension picks the format)`,
    { detail: { code: 'results_extension', path } },
  );
}

/**
 * Appends records as rows land (an `OutputFile`); `flush()` makes them durable. The import flushes
 * it before the checkpoint records rows as landed, and the checkpoint records its `length`, so the
 * file never misses a row the checkpoint claims, and a resume cuts off those it does not claim.
 */
export class ResultsWriter {
  readonly path: string;
  readonly #format: ResultsFormat;
  readonly #file: OutputFile;

  private constructor(path: string, format: ResultsFormat, file: OutputFile) {
    this.path = path;
    this.#format = format;
    this.#file = file;
  }

  /**
   * Opens `path`: replaced, or on a resume kept as `keep` says and appended to (the header written
   * only into a file that starts empty).
   */
  static async open(
    path: string,
    options: Pick<OutputFileOptions, 'keep' | 'onFailure' | 'openFile'> = {},
  ): Promise<ResultsWriter> {
    const format = resultsFormat(path);
    const file = new OutputFile({
      ...options,
      path,
      what: 'the results file',
      csv: format === 'csv',
      eager: true,
      preamble: format === 'csv' ? stringify([[...COLUMNS]], CSV_WRITE_OPTIONS) : undefined,
    });
    await file.open();
    return new ResultsWriter(path, format, file);
  }

  /** Records written by this run. */
  get count(): number {
    return this.#file.records;
  }

  /** Bytes of the file once every record so far is written: what a checkpoint records. */
  get length(): number {
    return this.#file.length;
  }

  /** The file held less than `keep` said: records of the run resumed are missing from it. */
  get short(): boolean {
    return this.#file.short;
  }

  get failure(): Error | undefined {
    return this.#file.failure;
  }

  write(record: ResultRecord): void {
    this.#file.write(
      this.#format === 'csv'
        ? stringify([COLUMNS.map((c) => csvCell(String(record[c])))], CSV_WRITE_OPTIONS)
        : `${JSON.stringify(record)}\n`,
    );
  }

  /** Writes and syncs what was recorded so far. */
  flush(): Promise<void> {
    return this.#file.flush();
  }

  close(): Promise<void> {
    return this.#file.close();
  }
}
