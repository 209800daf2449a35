// The one way the import writes its files of records (the results, rejects and fixes files):
// appended in place as rows end, made durable by `flush()`, and measured, so that the checkpoint
// can record how long each was when it claimed its rows. A resume reopens a file at that length,
// cutting off what a killed run wrote after its last checkpoint, and appends: after any
// interruption (Ctrl-C, kill -9, a full disk) no record is lost and none is there twice. Nothing
// waits in a hidden temporary file: the records so far are always at the file's own path.
import { constants } from 'node:fs';
import { type FileHandle, open, rm, stat } from 'node:fs/promises';
import { OutputPathError, writeTarget } from '../util/output-path.js';
import { writeAll } from '../util/write-file-atomic.js';
import { ImportError, OutputWriteError } from './errors.js';

/** What the import does with an open output: a `fs/promises` FileHandle, or a test's stand-in. */
export type OutputHandle = Pick<FileHandle, 'read' | 'write' | 'sync' | 'truncate' | 'stat' | 'close'>;

/**
 * Opens `path` to read and append, creating it, never truncating it (`open(path, 'a+')`). Tests
 * pass one whose writes fail as on a full disk.
 */
export type OpenOutput = (path: string) => Promise<OutputHandle>;

/**
 * The output-path rule again at the open, which may come long after the check before the first
 * send (no link or file another user planted since); the last name is not followed if it became a
 * link in between, and nothing but a regular file is written (a FIFO does not block the open).
 */
const openForAppend: OpenOutput = async (path) => {
  const target = await writeTarget(path);
  const handle = await open(
    target,
    constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    0o666,
  );
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new ImportError(`${path}: not a regular file; nothing was written to it`);
  }
  return handle;
};

/**
 * What of a file already at the path a resume keeps and appends to: a length in bytes (what the
 * checkpoint recorded), or every whole record there (a checkpoint that recorded no length).
 * 0 replaces the file.
 */
export type Keep = number | 'whole-records';

export interface OutputFileOptions {
  path: string;
  /** How messages name it: "the rejects file". */
  what: string;
  /** Default 0: the file is replaced. */
  keep?: Keep | undefined;
  /** CSV: a newline inside quotes does not end a record (for `whole-records`). */
  csv?: boolean | undefined;
  /** Begins a file that starts empty (a CSV header). */
  preamble?: string | undefined;
  /** Made by `open()` even with no record to write (the results file); else at the first record. */
  eager?: boolean | undefined;
  /** A file never written into, whatever alias of it `path` is (the input): checked on the file opened. */
  protect?: string | undefined;
  /**
   * Whether a file at `path` is one this tool wrote: when this run keeps and writes nothing, it is
   * removed at `close()` (every run checks again what it held: an old one would only mislead).
   */
  isOurs?: ((path: string) => Promise<boolean>) | undefined;
  /** Told of the first failure (an OutputWriteError for a failed write); every later write is dropped. */
  onFailure?: ((error: Error) => void) | undefined;
  openFile?: OpenOutput | undefined;
}

/** Records held before they are written without being asked (`flush()` writes them sooner). */
const BUFFER_BYTES = 64 * 1024;

export class OutputFile {
  readonly path: string;
  readonly #options: OutputFileOptions;
  #handle: OutputHandle | null = null;
  /** Writes may be given: opened, or nothing to open before the first record. */
  #opened: boolean;
  #opening: Promise<void> | undefined;
  #buffer: string[] = [];
  #buffered = 0;
  /** A write of what is held is queued already. */
  #draining = false;
  #unsynced = false;
  #length = 0;
  #kept = 0;
  #short = false;
  #records = 0;
  #queue: Promise<void> = Promise.resolve();
  #failure: Error | undefined;
  #closed = false;

  constructor(options: OutputFileOptions) {
    this.path = options.path;
    this.#options = options;
    this.#opened = (options.keep ?? 0) === 0 && !options.eager;
  }

  /**
   * Opens the file when there is something to keep, or when `eager`; else it is made at the first
   * record. Call it (once is enough) before the first write when there is, or when `eager`.
   */
  open(): Promise<void> {
    this.#opening ??= this.#open();
    return this.#opening;
  }

  async #open(): Promise<void> {
    const keep = this.#options.keep ?? 0;
    if (keep !== 0 || this.#options.eager) {
      let handle: OutputHandle | undefined;
      try {
        handle = await this.#openHandle();
        const size = (await handle.stat()).size;
        const short = typeof keep === 'number' && size < keep;
        this.#short = short;
        // A recorded length ends a record by construction; a file now shorter keeps its whole records.
        this.#kept =
          keep === 0
            ? 0
            : keep === 'whole-records' || short
              ? await wholeRecordsLength(handle, this.#options.csv)
              : keep;
        await handle.truncate(this.#kept);
      } catch (error) {
        await handle?.close().catch(() => {});
        throw this.#wrap(error);
      }
      this.#handle = handle;
      this.#length = this.#kept;
      // Else with the first record.
      if (this.#length === 0 && this.#options.eager && this.#options.preamble)
        this.#push(this.#options.preamble);
    }
    this.#opened = true;
  }

  /**
   * The file held less than `keep` said when opened (moved, cut or deleted since the run resumed):
   * records of that run are missing from it.
   */
  get short(): boolean {
    return this.#short;
  }

  /** Bytes the file holds once every record given so far is written (what a checkpoint records). */
  get length(): number {
    return this.#length;
  }

  /** Records given by this run. */
  get records(): number {
    return this.#records;
  }

  /** The first failure; from then on records are dropped (the import stops, a resume writes them). */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** One record, whole (ending in its newline). Written later, in order: see `flush()`. */
  write(text: string): void {
    if (this.#closed) throw new ImportError(`${this.#options.what} ${this.path} is already closed`);
    if (!this.#opened) throw new ImportError(`${this.#options.what} ${this.path} is not open yet`);
    this.#records++;
    if (this.#failure) return;
    if (this.#length === 0 && this.#options.preamble) this.#push(this.#options.preamble);
    this.#push(text);
    if (this.#buffered >= BUFFER_BYTES && !this.#draining) {
      this.#draining = true;
      this.#enqueue(() => {
        this.#draining = false;
        return this.#drain(false);
      }).catch(() => {});
    }
  }

  /** Writes and syncs every record given so far; rejects with the failure, if there was one. */
  flush(): Promise<void> {
    return this.#enqueue(() => this.#drain(true));
  }

  /**
   * Flushes and closes. A file of this tool's at the path is removed when this run kept and wrote
   * nothing. Rejects with the failure, if there was one (the file is closed all the same).
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#enqueue(async () => {
      try {
        await this.#drain(true);
      } finally {
        const handle = this.#handle;
        this.#handle = null;
        await handle?.close().catch(() => {});
      }
      if (this.#length === 0 && !this.#options.eager) {
        // Nothing kept nor written: a file `open()` found empty, or made, is left by no one; an old
        // one is removed only when it is ours.
        const emptied = (this.#options.keep ?? 0) !== 0;
        if (emptied || (await this.#options.isOurs?.(this.path))) await rm(this.path, { force: true });
      }
    });
  }

  #push(text: string): void {
    const bytes = Buffer.byteLength(text);
    this.#buffer.push(text);
    this.#buffered += bytes;
    this.#length += bytes;
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #drain(sync: boolean): Promise<void> {
    if (this.#failure) throw this.#failure;
    if (this.#buffered === 0 && !(sync && this.#unsynced)) return;
    try {
      this.#handle ??= await this.#openHandle(true);
      if (this.#buffered > 0) {
        const data = Buffer.from(this.#buffer.join(''));
        this.#buffer = [];
        this.#buffered = 0;
        this.#unsynced = true;
        await writeAll(this.#handle, data);
      }
      if (sync) {
        await this.#handle.sync();
        this.#unsynced = false;
      }
    } catch (error) {
      this.#buffer = [];
      this.#buffered = 0;
      this.#failure = this.#wrap(error);
      this.#options.onFailure?.(this.#failure);
      throw this.#failure;
    }
  }

  #wrap(error: unknown): Error {
    // A refusal by the output-path rule at the open (a link planted since the check) is not a
    // failed write: nothing was written, and it says why itself.
    return error instanceof ImportError || error instanceof OutputPathError
      ? error
      : new OutputWriteError(this.#options.what, this.path, error);
  }

  /** Opened without truncating, so a file found to be the input is left as it was. */
  async #openHandle(truncate = false): Promise<OutputHandle> {
    const handle = await (this.#options.openFile ?? openForAppend)(this.path);
    try {
      const { protect } = this.#options;
      if (protect && protect !== '-') {
        const [mine, theirs] = await Promise.all([handle.stat(), stat(protect).catch(() => null)]);
        if (theirs && mine.dev === theirs.dev && mine.ino === theirs.ino) {
          throw new ImportError(
            `${this.#options.what} ${this.path} is the input ${protect}; choose another path`,
          );
        }
      }
      if (truncate) await handle.truncate(0);
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
    return handle;
  }
}

/**
 * The length of the file up to the end of its last whole record: its last newline, outside
 * quotes for CSV (a value may hold a newline; `""` toggles twice and changes nothing).
 */
async function wholeRecordsLength(file: OutputHandle, csv = false): Promise<number> {
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
