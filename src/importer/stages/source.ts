// The source stage: what kind of input this is (only a regular file can be counted first and
// resumed; a FIFO, a device or stdin is read once, as it comes), opening it, and its records in
// file order until they end or the signal aborts, even while a read waits on a pipe.
import { stat } from 'node:fs/promises';
import { SAMPLE_ROWS } from '../defaults.js';
import { ImportError } from '../errors.js';
import { countRows, type OpenSourceOptions, openSource } from '../sources/index.js';
import type { Cell, ImportSource, SourceRecord } from '../sources/types.js';

export type InputKind =
  /** Can be read twice: counted for progress, and resumed after a crash. */
  | 'file'
  /** A FIFO, a terminal, a device: read once, as it comes. */
  | 'stream'
  | 'stdin';

export async function inputKind(input: string): Promise<InputKind> {
  if (input === '-') return 'stdin';
  const info = await stat(input).catch(() => null);
  return info === null || info.isFile() ? 'file' : 'stream';
}

/** What `unlessAborted` gives when the signal came first. */
const ABORTED = Symbol('aborted');

/**
 * Opens the input. Opening waits for the first bytes, which a FIFO or a terminal may never send:
 * the signal ends that wait too (the input is closed once it does open).
 */
export async function openInputSource(
  input: string,
  options: OpenSourceOptions,
  signal?: AbortSignal,
): Promise<ImportSource> {
  const opening = openSource(input, options);
  const opened = await unlessAborted(opening, signal);
  if (opened === ABORTED) {
    void opening.then(
      (source) => source.close(),
      () => {},
    );
    throw new ImportError('Interrupted before the input gave its first line: nothing was sent');
  }
  return opened;
}

/** Records for a progress total: regular files only (a count would drain a pipe). */
export function countForProgress(
  input: string,
  kind: InputKind,
  source: ImportSource,
  encoding: string | undefined,
  sheet?: string,
): Promise<number | undefined> {
  if (kind !== 'file') return Promise.resolve(undefined);
  return countRows(input, source.format, source.delimiter, { encoding, sheet });
}

/**
 * The source's records until they end or `signal` aborts. An abort ends the wait for the next
 * record at once, even when the read under it is blocked on a FIFO or a terminal (the pending
 * read is left to the closed input). The input is closed when this ends, however it ends.
 */
export async function* readRecords(source: ImportSource, signal?: AbortSignal): AsyncGenerator<SourceRecord> {
  const records = source.records[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (signal?.aborted) return;
      const next = await unlessAborted(records.next(), signal);
      if (next === ABORTED || next.done) return;
      yield next.value;
    }
  } finally {
    source.close();
  }
}

/**
 * What `promise` gives, or ABORTED once `signal` fires (or has) first; a rejection after that is
 * left handled. The listener is removed as soon as either comes: racing every read against one
 * long-lived promise would keep every record read alive.
 */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export { SAMPLE_ROWS };
/** The cell text those rows hold at most: wide rows must not hold the file in memory. */
export const SAMPLE_MAX_CHARS = 16 * 1024 * 1024;

/**
 * The first records of a table, read before its columns are mapped (their values say what each
 * column holds), then handed on again: `source.records` yields them first, then the rest. A
 * read that fails within them fails again at the same place, after them. At most `maxRows`
 * records and `maxChars` characters of cells are held.
 */
export async function sampleRecords(
  source: ImportSource,
  maxRows = SAMPLE_ROWS,
  maxChars = SAMPLE_MAX_CHARS,
): Promise<Cell[][]> {
  const iterator = source.records[Symbol.asyncIterator]();
  const held: SourceRecord[] = [];
  let chars = 0;
  let failure: { error: unknown } | undefined;
  let done = false;
  try {
    while (held.length < maxRows && chars < maxChars) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      held.push(next.value);
      for (const cell of next.value.raw ?? []) chars += cell?.length ?? 0;
    }
  } catch (error) {
    failure = { error };
  }
  source.records = (async function* replay() {
    try {
      yield* held.splice(0);
      if (failure) throw failure.error;
      if (done) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await iterator.return?.();
    }
  })();
  return held.flatMap((record) => (record.raw && !record.error ? [record.raw] : []));
}
