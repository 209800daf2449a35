// The source stage: what kind of input this is (only a regular file can be counted first and
// resumed; a FIFO, a device or stdin is read once, as it comes), opening it, and its records in
// file order until they end or the signal aborts, even while a read waits on a pipe.
import { stat } from 'node:fs/promises';
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
  if (!signal) return opening;
  const opened = await new Promise<ImportSource | null>((resolve, reject) => {
    const onAbort = () => resolve(null);
    if (signal.aborted) return resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    opening.then(
      (source) => {
        signal.removeEventListener('abort', onAbort);
        resolve(source);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
  if (opened === null) {
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
  // One listener for the whole read: it ends the wait of the read in progress, if any. (Racing
  // each read against one long-lived promise would keep every record read alive.)
  let wake: (() => void) | undefined;
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) return;
      const next = signal ? await nextOrAbort(records, (end) => (wake = end)) : await records.next();
      wake = undefined;
      if (next === ABORTED || next.done) return;
      yield next.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    source.close();
  }
}

const ABORTED = Symbol('aborted');

/** The next record, or ABORTED once the function given to `onAbort` is called. */
function nextOrAbort<T>(
  iterator: AsyncIterator<T>,
  onAbort: (end: () => void) => void,
): Promise<IteratorResult<T> | typeof ABORTED> {
  return new Promise((resolve, reject) => {
    onAbort(() => resolve(ABORTED));
    iterator.next().then(resolve, reject);
  });
}

/** Rows of a table read before its columns are mapped, at most. */
export const SAMPLE_ROWS = 1000;
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
  // The records held, then the rest straight from the source's own iterator.
  let next = 0;
  const replay: AsyncIterableIterator<SourceRecord> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    next(): Promise<IteratorResult<SourceRecord>> {
      if (next < held.length) {
        const value = held[next]!;
        held[next++] = undefined as unknown as SourceRecord;
        if (next === held.length) held.length = 0;
        return Promise.resolve({ done: false, value });
      }
      if (failure) {
        const { error } = failure;
        failure = undefined;
        done = true;
        return iterator.return ? iterator.return().then(() => Promise.reject(error)) : Promise.reject(error);
      }
      if (done) return Promise.resolve({ done: true, value: undefined });
      return iterator.next();
    },
    return(): Promise<IteratorResult<SourceRecord>> {
      held.length = 0;
      done = true;
      return iterator.return ? iterator.return() : Promise.resolve({ done: true, value: undefined });
    },
  };
  source.records = replay;
  return held.flatMap((record) => (record.raw && !record.error ? [record.raw] : []));
}
