// The resume checkpoint: which rows of one input have landed for one agent, kept in a small JSON
// file beside the input so that a re-run after a crash or Ctrl-C sends only what has not landed.
//
// Rows are keyed by `SourceRecord.row`, their number among the records the source yields: unique
// (unlike lines, which a one-line JSON array shares) and the same in every run over the same file
// with the same version of the sources. A change to which records a source yields must bump VERSION.
//
// Invariant the pipeline must keep. A row is marked (`markLanded`) only after the service has
// answered for it, and rows sharing an external_id are sent in file order, the next one only after
// the previous one is marked (or rejected). A flush writes one snapshot of everything marked so far,
// so any snapshot that holds a later row of an external_id also holds the earlier ones: resuming
// never replays an older row over a newer one. (A rejected row is not landed: a resumed run checks
// and sends it again, which is what lets a fix, such as defining a missing attribute, take effect.)
//
// The input is identified by its content: the SHA-256 of the bytes read before the snapshot, which
// hold every row it marks. A resume hashes that many bytes of the file again, so an edit among the
// rows already sent is refused whatever the file's size, mtime or the place of the edit. The service
// written to is recorded too: a resume against another one is refused, since the rows it would skip
// landed elsewhere.
//
// The files a resume appends to (the results and fixes files, see ./output-file.ts) are measured in
// the same snapshot as the marks: a resume cuts each back to its recorded length, so it holds the
// records of exactly the rows the checkpoint claims, whatever a killed run wrote after it.
import { createHash } from 'node:crypto';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as z from 'zod';
import { sameTimeZone } from '../util/time-zone.js';
import { writeFileAtomic } from '../util/write-file-atomic.js';
import {
  type CheckpointMismatch,
  CheckpointMismatchError,
  ImportError,
  OutputWriteError,
  UnfinishedImportError,
} from './errors.js';
import type { Keep } from './output-file.js';

const VERSION = 2;

const RangeSchema = z.tuple([z.number().int().positive(), z.number().int().positive()]);

/** A file a resume appends to, as long as it was when the snapshot was taken. */
const OutputMarkSchema = z.object({ path: z.string(), bytes: z.number().int().nonnegative() });
export type OutputMark = z.infer<typeof OutputMarkSchema>;

const CheckpointFileSchema = z.object({
  version: z.literal(VERSION),
  input: z.object({
    path: z.string(),
    size: z.number(),
    /** The bytes of the input read when the snapshot was taken (every row marked is in them). */
    consumed: z.object({ bytes: z.number().int().nonnegative(), sha256: z.string() }),
  }),
  agentId: z.string(),
  /** The service written to (`serviceName()`: a base URL, or `mock:<data file>`); absent before it was kept. */
  service: z.string().optional(),
  settings: z.string(),
  landed: z.object({
    /** Every row up to this one has landed (0: none yet). */
    through: z.number().int().nonnegative(),
    /** Landed rows above `through`, as sorted, disjoint [from, to] ranges. */
    ranges: z.array(RangeSchema),
  }),
  updatedAt: z.string(),
  /** The undo record the import keeps (its path): a resume goes on in that one. */
  undoRecord: z.string().optional(),
  /** The files a resume appends to, by role ("results", "fixes"); absent before they were kept. */
  outputs: z.record(z.string(), OutputMarkSchema).optional(),
});
type CheckpointFile = z.infer<typeof CheckpointFileSchema>;
type InputIdentity = Omit<CheckpointFile['input'], 'consumed'>;
type Consumed = CheckpointFile['input']['consumed'];

export interface CheckpointOptions {
  /** The input file (stdin cannot be resumed: it cannot be read again). */
  input: string;
  agentId: string;
  /**
   * The service written to, as `serviceName()` gives it (a base URL without its trailing slash, or
   * `mock:<data file>`): a resume elsewhere is refused. Without it nothing is recorded or checked.
   */
  service?: string | undefined;
  /** Load the existing checkpoint (and check it belongs to this input). */
  resume: boolean;
  /**
   * Remove an existing checkpoint and start afresh. Without it or `resume`, an existing
   * checkpoint refuses the run (UnfinishedImportError) and is left as it is.
   */
  restart?: boolean | undefined;
  /** Default: `<input>.import-checkpoint.json`. */
  path?: string | undefined;
  /**
   * The bytes of the input read so far (`ImportSource.consumed`): every row marked must be in them.
   * Without it the checkpoint holds no content hash and a resume checks only the size.
   */
  consumed?: { snapshot(): Consumed } | undefined;
  /**
   * Whatever else must match on resume: an `importSettings()` record (format, column mapping,
   * the options that change what a row becomes), or any text, compared verbatim.
   */
  settings?: string | undefined;
  /** Marks are written at most this long after they are made; 0 writes only on `flush()`. Default 1000. */
  flushIntervalMs?: number | undefined;
  /**
   * Run before each write, after the marks to write are taken: makes what the checkpoint will
   * claim durable on our side first (the results file), so it never claims a row whose record
   * could still be lost. The service's side needs nothing: a row is marked only once its write
   * was answered, and the service commits before it answers (the embedded mock too: one
   * committed SQLite transaction per write, WAL with synchronous=NORMAL, so it survives the
   * process being killed, though not a power cut).
   */
  beforeWrite?: (() => Promise<void>) | undefined;
  /**
   * The files a resume appends to, by role, as long as they will be once every record given so far
   * is written: taken with the marks, before `beforeWrite` runs (which must write at least that).
   */
  outputs?: (() => Record<string, OutputMark>) | undefined;
  /** Told of a write that failed in the background (the import stops); `flush()` rejects with it too. */
  onFailure?: ((error: unknown) => void) | undefined;
  /** Replaces the file with the text; default `writeFileAtomic` (tests: a disk that fills up). */
  write?: ((path: string, text: string) => Promise<void>) | undefined;
  /** The clock the flush interval is measured on (tests). Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** `<input>.import-checkpoint.json`, beside the input. */
export function defaultCheckpointPath(input: string): string {
  return `${input}.import-checkpoint.json`;
}

/**
 * The landed rows of one import: a low-water mark plus a range per run of landed rows above it.
 * Only rows not landed (in flight, or rejected) open gaps, so it stays small whatever the file's size.
 */
export class ImportCheckpoint {
  readonly path: string;
  /** True when an earlier checkpoint was loaded (`resume` and one existed). */
  readonly resumed: boolean;
  /** True when a checkpoint of an earlier, unfinished run was found and discarded (`restart`). */
  readonly discarded: boolean;
  /**
   * The checkpoint resumed was written before the service was recorded: it is taken to be this
   * run's (the agent, file and settings match), and recorded from now on.
   */
  readonly serviceUnrecorded: boolean;

  #identity: InputIdentity;
  readonly #consumed: { snapshot(): Consumed } | undefined;
  /** What the resumed run had read: kept until this run has read as far. */
  #consumedBefore: Consumed;
  #agentId: string;
  #service: string | undefined;
  #settings: string;
  #undoRecord: string | undefined;
  /** What the run resumed recorded of its outputs (undefined: a checkpoint from before they were). */
  readonly #savedOutputs: Record<string, OutputMark> | undefined;
  readonly #outputs: (() => Record<string, OutputMark>) | undefined;
  readonly #onFailure: ((error: unknown) => void) | undefined;
  readonly #writeFile: (path: string, text: string) => Promise<void>;
  #ranges: [number, number][];
  #dirty = false;
  #ended = false;
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | null = null;
  #intervalMs: number;
  readonly #now: () => number;
  /** When the oldest mark not yet handed to a write was made. */
  #markedSince = 0;
  readonly #beforeWrite: (() => Promise<void>) | undefined;
  #failure: unknown = null;

  private constructor(init: {
    path: string;
    resumed: boolean;
    discarded: boolean;
    serviceUnrecorded?: boolean;
    identity: InputIdentity;
    consumed: { snapshot(): Consumed } | undefined;
    consumedBefore: Consumed;
    agentId: string;
    service: string | undefined;
    settings: string;
    ranges: [number, number][];
    undoRecord?: string | undefined;
    savedOutputs?: Record<string, OutputMark> | undefined;
    outputs: (() => Record<string, OutputMark>) | undefined;
    onFailure: ((error: unknown) => void) | undefined;
    writeFile: (path: string, text: string) => Promise<void>;
    intervalMs: number;
    beforeWrite: (() => Promise<void>) | undefined;
    now: () => number;
  }) {
    this.path = init.path;
    this.resumed = init.resumed;
    this.discarded = init.discarded;
    this.serviceUnrecorded = init.serviceUnrecorded ?? false;
    this.#identity = init.identity;
    this.#consumed = init.consumed;
    this.#consumedBefore = init.consumedBefore;
    this.#agentId = init.agentId;
    this.#service = init.service;
    this.#settings = init.settings;
    this.#savedOutputs = init.resumed ? init.savedOutputs : {};
    this.#outputs = init.outputs;
    this.#onFailure = init.onFailure;
    this.#writeFile = init.writeFile;
    this.#ranges = init.ranges;
    this.#undoRecord = init.undoRecord;
    this.#intervalMs = init.intervalMs;
    this.#beforeWrite = init.beforeWrite;
    this.#now = init.now;
  }

  /**
   * Open the checkpoint of `input`. With `resume`, an existing checkpoint is loaded if it was
   * written for the same file (its size, and the bytes read then), agent, service and settings, else this throws a
   * CheckpointMismatchError; a missing one just starts afresh. With `restart`, an existing one
   * is removed; with neither, an existing one throws an UnfinishedImportError and is kept.
   */
  static async open(options: CheckpointOptions): Promise<ImportCheckpoint> {
    if (options.input === '-') throw new ImportError('An import from stdin cannot be resumed');
    if (options.resume && options.restart)
      throw new ImportError('An import either resumes or restarts, not both');
    const path = options.path ?? defaultCheckpointPath(options.input);
    const identity = await identify(options.input);
    const settings = options.settings ?? '';
    const base = {
      path,
      identity,
      consumed: options.consumed,
      agentId: options.agentId,
      service: options.service,
      settings,
      outputs: options.outputs,
      onFailure: options.onFailure,
      writeFile: options.write ?? writeFileAtomic,
      intervalMs: options.flushIntervalMs ?? 1000,
      beforeWrite: options.beforeWrite,
      now: options.now ?? Date.now,
    };

    let text: string | null = null;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const fresh = { ...base, consumedBefore: NOTHING_READ, ranges: [] };
    if (text === null) return new ImportCheckpoint({ ...fresh, resumed: false, discarded: false });
    if (options.restart) {
      await rm(path, { force: true });
      return new ImportCheckpoint({ ...fresh, resumed: false, discarded: true });
    }

    let saved: CheckpointFile | undefined;
    try {
      saved = CheckpointFileSchema.parse(JSON.parse(text));
    } catch {
      saved = undefined;
    }
    if (!options.resume) {
      // Never thrown away unasked: the rows it holds are what a resume would not send again.
      throw new UnfinishedImportError({
        path,
        input: options.input,
        ...(saved && { landed: landedCount(saved), updatedAt: saved.updatedAt }),
      });
    }
    if (!saved)
      throw new CheckpointMismatchError(path, [
        { code: 'unreadable', reason: 'it is not a checkpoint this version can read' },
      ]);
    const reasons = await mismatches(
      saved,
      options.input,
      identity,
      options.agentId,
      options.service,
      settings,
    );
    if (reasons.length > 0) throw new CheckpointMismatchError(path, reasons);
    const ranges: [number, number][] = saved.landed.through > 0 ? [[1, saved.landed.through]] : [];
    for (const range of saved.landed.ranges) insertRange(ranges, range[0], range[1]);
    return new ImportCheckpoint({
      ...base,
      consumedBefore: saved.input.consumed,
      resumed: true,
      discarded: false,
      ranges,
      undoRecord: saved.undoRecord,
      savedOutputs: saved.outputs,
      serviceUnrecorded: options.service !== undefined && saved.service === undefined,
    });
  }

  /**
   * What a resume keeps of the file it writes `role` to, at `path`: the length recorded for it
   * (records past it are of rows the checkpoint does not claim, which are sent again); nothing when
   * not resuming, when the run resumed wrote no such file, or wrote it elsewhere (`elsewhere`: that
   * path, whose records stay there); every whole record when the checkpoint is from before lengths
   * were recorded.
   */
  resumeOutput(role: string, path: string): { keep: Keep; elsewhere?: string } {
    if (!this.resumed) return { keep: 0 };
    const saved = this.#savedOutputs;
    if (saved === undefined) return { keep: 'whole-records' };
    const mark = saved[role];
    if (mark === undefined) return { keep: 0 };
    return mark.path === resolve(path) ? { keep: mark.bytes } : { keep: 0, elsewhere: mark.path };
  }

  /** Rows landed so far, in this run and the one resumed. */
  get landedCount(): number {
    let n = 0;
    for (const [from, to] of this.#ranges) n += to - from + 1;
    return n;
  }

  /** The undo record of the import (of the run resumed, when it kept one). */
  get undoRecord(): string | undefined {
    return this.#undoRecord;
  }

  /** Names the import's undo record in the checkpoint (written with the next marks). */
  set undoRecord(path: string | undefined) {
    this.#undoRecord = path;
  }

  /** Every row through this one has landed. */
  get landedThrough(): number {
    const first = this.#ranges[0];
    return first && first[0] === 1 ? first[1] : 0;
  }

  /** Record that a row (`SourceRecord.row`) has landed; written by the next flush (periodic, or explicit). */
  markLanded(row: number): void {
    if (this.#ended) return;
    insertRange(this.#ranges, row, row);
    if (this.#intervalMs <= 0) {
      this.#dirty = true;
      return;
    }
    const now = this.#now();
    if (!this.#dirty) this.#markedSince = now;
    this.#dirty = true;
    // The timer alone is not enough: an embedded service can hold the event loop for seconds at a
    // time, and marks still arrive between its answers, so the interval is also checked here.
    if (now - this.#markedSince >= this.#intervalMs) {
      this.#markedSince = now;
      this.#stopTimer();
      this.#flushInBackground();
    } else if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#flushInBackground();
      }, this.#intervalMs);
      // A pending flush must not keep the process alive; close() or complete() writes the rest.
      this.#timer.unref();
    }
  }

  #flushInBackground(): void {
    this.flush().catch((error: unknown) => {
      this.#failure = error;
      this.#onFailure?.(error);
    });
  }

  /** Whether a row (`SourceRecord.row`) has landed, in this run or the one resumed. */
  hasLanded(row: number): boolean {
    const ranges = this.#ranges;
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [from, to] = ranges[mid]!;
      if (row < from) hi = mid - 1;
      else if (row > to) lo = mid + 1;
      else return true;
    }
    return false;
  }

  /**
   * Write the marks made so far, atomically (temporary file, fsync, rename). Calls made while a
   * write is running share the next write. Throws if a periodic write failed since the last call.
   */
  flush(): Promise<void> {
    const run = this.#chain.then(() => this.#write());
    this.#chain = run.catch(() => {});
    const failure = this.#failure;
    this.#failure = null;
    return failure ? Promise.reject(failure) : run;
  }

  /** Stop the timer and write what is left: for an interrupted run (Ctrl-C) to resume later. */
  async close(): Promise<void> {
    this.#stopTimer();
    await this.flush();
    this.#ended = true;
  }

  /** The import finished: remove the checkpoint, so a later run starts from the beginning. */
  async complete(): Promise<void> {
    this.#stopTimer();
    this.#ended = true;
    await this.#chain;
    await rm(this.path, { force: true });
  }

  #stopTimer() {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #write(): Promise<void> {
    if (!this.#dirty || this.#ended) return;
    this.#dirty = false;
    const through = this.landedThrough;
    // The rows of the run resumed lie in the bytes it had read: the larger part read is the one kept.
    const now = this.#consumed?.snapshot() ?? NOTHING_READ;
    const consumed = now.bytes >= this.#consumedBefore.bytes ? now : this.#consumedBefore;
    // The snapshot is text before anything is awaited: marks keep arriving (and insertRange widens
    // its ranges in place) while `beforeWrite` flushes the results file, and a row marked then may
    // be missing from that flush. A shallow copy of the ranges would carry those rows into the file.
    const text = `${JSON.stringify({
      version: VERSION,
      input: { ...this.#identity, consumed },
      agentId: this.#agentId,
      ...(this.#service === undefined ? {} : { service: this.#service }),
      settings: this.#settings,
      landed: { through, ranges: through > 0 ? this.#ranges.slice(1) : this.#ranges },
      updatedAt: new Date().toISOString(),
      ...(this.#undoRecord === undefined ? {} : { undoRecord: this.#undoRecord }),
      ...(this.#outputs ? { outputs: { ...this.#savedOutputs, ...this.#outputs() } } : {}),
    } satisfies CheckpointFile)}\n`;
    try {
      await this.#beforeWrite?.();
    } catch (error) {
      this.#dirty = true;
      throw error;
    }
    try {
      await this.#writeFile(this.path, text);
    } catch (error) {
      this.#dirty = true;
      // The one written before stays whole (the write is atomic): a resume goes on from there.
      throw new OutputWriteError('the resume checkpoint', this.path, error);
    }
  }
}

/** How many rows a saved checkpoint counts as landed. */
function landedCount(saved: CheckpointFile): number {
  let n = saved.landed.through;
  for (const [from, to] of saved.landed.ranges) n += to - from + 1;
  return n;
}

/** Insert [from, to] into sorted, disjoint, non-adjacent ranges, merging neighbours. */
function insertRange(ranges: [number, number][], from: number, to: number): void {
  // Rows land nearly in order, so the place is almost always at the end.
  let i = ranges.length;
  while (i > 0 && ranges[i - 1]![0] > from) i--;
  // ranges[i - 1] starts at or before `from`; merge with it if it touches.
  if (i > 0 && ranges[i - 1]![1] + 1 >= from) {
    i--;
    ranges[i]![1] = Math.max(ranges[i]![1], to);
  } else {
    ranges.splice(i, 0, [from, to]);
  }
  const current = ranges[i]!;
  while (i + 1 < ranges.length && ranges[i + 1]![0] <= current[1] + 1) {
    current[1] = Math.max(current[1], ranges[i + 1]![1]);
    ranges.splice(i + 1, 1);
  }
}

const NOTHING_READ: Consumed = { bytes: 0, sha256: createHash('sha256').digest('hex') };

async function identify(input: string): Promise<InputIdentity> {
  const info = await stat(input);
  return { path: resolve(input), size: info.size };
}

/** The SHA-256 of the first `bytes` bytes of `file`. */
async function hashPrefix(file: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(bytes, 1024 * 1024));
    let done = 0;
    while (done < bytes) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, bytes - done), done);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      done += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

async function mismatches(
  saved: CheckpointFile,
  input: string,
  identity: InputIdentity,
  agentId: string,
  service: string | undefined,
  settings: string,
): Promise<CheckpointMismatch[]> {
  const found: CheckpointMismatch[] = [];
  if (saved.agentId !== agentId)
    found.push({
      code: 'agent',
      reason: `it was written for agent "${saved.agentId}", not "${agentId}"`,
      was: saved.agentId,
      now: agentId,
    });
  // A checkpoint from before the service was kept is taken to be this one's (see serviceUnrecorded).
  if (service !== undefined && saved.service !== undefined && saved.service !== service)
    found.push({
      code: 'service',
      reason: `the run resumed imported into ${serviceWords(saved.service)}, this run into ${serviceWords(service)}`,
      was: saved.service,
      now: service,
    });
  const { consumed } = saved.input;
  if (saved.input.size !== identity.size) {
    found.push({
      code: 'size',
      reason: `the file's size changed from ${saved.input.size} to ${identity.size} bytes`,
      was: saved.input.size,
      now: identity.size,
    });
  } else if ((await hashPrefix(input, consumed.bytes)) !== consumed.sha256) {
    found.push({
      code: 'content',
      reason: `its first ${consumed.bytes} bytes, read by the run resumed, changed`,
      bytes: consumed.bytes,
    });
  }
  found.push(...settingsChanges(saved.settings, settings));
  return found;
}

/** The service as a refusal names it. */
const serviceWords = (service: string) =>
  service.startsWith('mock:') ? `the embedded mock (${service.slice(5)})` : service;

/** What must match on resume besides the file and the agent. */
export interface ImportSettings {
  format: string;
  delimiter?: string | undefined;
  sheet?: string | undefined;
  mapping?: unknown;
  /** The options that change what a row becomes; unset ones are written as null. */
  defaultCountry?: string | undefined;
  dateOrder?: string | undefined;
  /** The zone date-times without one are read in; unset (UTC) is null. */
  timeZone?: string | undefined;
}

/** The settings record a checkpoint keeps (JSON), for `CheckpointOptions.settings`. */
export function importSettings(settings: ImportSettings): string {
  return JSON.stringify({
    format: settings.format,
    delimiter: settings.delimiter,
    sheet: settings.sheet,
    mapping: settings.mapping,
    defaultCountry: settings.defaultCountry ?? null,
    dateOrder: settings.dateOrder ?? null,
    timeZone:
      settings.timeZone === undefined || sameTimeZone(settings.timeZone, undefined)
        ? null
        : settings.timeZone,
  });
}

/** The reading options a resume must share, by their names in a reason. */
const OPTION_NAMES: Record<string, string> = {
  defaultCountry: 'default country',
  dateOrder: 'date order',
  timeZone: 'time zone',
};
const SETTING_NAMES: Record<string, string> = {
  format: 'format',
  delimiter: 'delimiter',
  sheet: 'sheet',
  mapping: 'column mapping',
};

/**
 * Why a resume with these settings is refused: each reading option that differs, with what the
 * run resumed had; then the rest (format, mapping...) in one. A record without an option (a
 * checkpoint from before it was kept) does not compare it, except the zone: before there was
 * one, times were read as UTC.
 */
function settingsChanges(saved: string, now: string): CheckpointMismatch[] {
  if (saved === now) return [];
  const a = settingsRecord(saved);
  const b = settingsRecord(now);
  if (!a || !b)
    return [
      { code: 'settings', reason: 'the import options (format or column mapping) changed', changed: [] },
    ];
  const found: CheckpointMismatch[] = [];
  const others: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const was = a[key] ?? null;
    const is = b[key] ?? null;
    const name = OPTION_NAMES[key];
    if (name === undefined) {
      if (JSON.stringify(was) !== JSON.stringify(is)) others.push(SETTING_NAMES[key] ?? key);
    } else if (key === 'timeZone') {
      if (!sameTimeZone(text(was), text(is))) {
        const zone = text(was) ?? 'UTC';
        const zoneNow = text(is) ?? 'UTC';
        found.push({
          code: 'time_zone',
          reason: `the run resumed read date-times without a zone as ${zone}, this run as ${zoneNow}`,
          was: zone,
          now: zoneNow,
        });
      }
    } else if (key in a && was !== is) {
      const option = key as 'defaultCountry' | 'dateOrder';
      found.push({
        code: 'option',
        reason:
          was === null
            ? `the run resumed had no ${name}, this run has ${String(is)}`
            : `the run resumed had ${name} ${String(was)}, this run ${is === null ? 'none' : `has ${String(is)}`}`,
        option,
        was: text(was) ?? null,
        now: text(is) ?? null,
      });
    }
  }
  if (others.length > 0)
    found.push({
      code: 'settings',
      reason: `the import options (${others.join(', ')}) changed`,
      changed: others,
    });
  return found;
}

function settingsRecord(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
