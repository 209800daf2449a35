// The import pipeline: records from a source, checked with the contract, upserted with bounded
// (adaptive) concurrency, rows sharing an external_id applied one after another in file order;
// every row either lands (and is checkpointed) or goes to the rejects file with its reason.

import { stat } from 'node:fs/promises';
import type { ContactInputParsed } from '../api/contact.js';
import { MAX_BODY_BYTES } from '../api/limits.js';
import type { ContactsClient } from '../client/client.js';
import {
  type APIError,
  BadRequestError,
  ConflictError,
  ContactLimitError,
  PayloadTooLargeError,
  RateLimitError,
} from '../client/errors.js';
import type { RetryEvent } from '../client/transport.js';
import { outputPathProblem } from '../util/output-path.js';
import { defaultCheckpointPath, ImportCheckpoint } from './checkpoint.js';
import { ImportError } from './errors.js';
import { type CsvDelimiter, defaultRejectsPath, type ImportFormat } from './format.js';
import { AdaptiveLimiter } from './limiter.js';
import { type ColumnMapping, describeMapping, type MapOverride, resolveMapping } from './mapping.js';
import { DryRunPlanner, type RowPlan } from './plan.js';
import { createRejectsWriter, type RejectsWriter } from './rejects.js';
import { ResultsWriter, resultsFormat } from './results.js';
import { createRowValidator } from './rows.js';
import { countRows, openSource } from './sources/index.js';
import type { SourceRecord } from './sources/types.js';

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_IMPORT_RETRIES = 10;
/** A batch stays under the 1 MiB body limit with room for the envelope and escaping. */
export const MAX_BATCH_BYTES = Math.floor(MAX_BODY_BYTES * 0.85);
/** Dry run: rows planned together, with one round of reads for the contacts they name. */
const PLAN_BATCH = 200;

export interface ImportOptions {
  client: ContactsClient;
  agentId: string;
  /** A file path, or `-` for stdin. */
  input: string;
  stdin?: NodeJS.ReadableStream;
  cwd?: string;
  format?: ImportFormat;
  delimiter?: CsvDelimiter;
  /** ISO country code for national phone numbers; every number is sent in E.164. */
  defaultCountry?: string;
  /** A TextDecoder label for the input's bytes; default UTF-8 (checked), or UTF-16 by its BOM. */
  encoding?: string;
  /** CSV column overrides (`--map "Header=field"`). */
  maps?: MapOverride[];
  /** Requests in flight at most; lowered for a while when the service answers 429. */
  concurrency?: number;
  /** Contacts per request with the batch form; 1 sends one request per row. */
  batchSize?: number;
  /** Read and check everything, report what would happen, write nothing. */
  dryRun?: boolean;
  /** Skip the rows an earlier, interrupted run of the same file landed. */
  resume?: boolean;
  rejectsPath?: string;
  /** One record per landed row (line, external_id, id, action), CSV or NDJSON by extension. */
  resultsPath?: string;
  /** Retries per request (5xx, 429, connection failures) before the import stops. */
  maxRetries?: number;
  /** Count the file's rows first, so progress can show a total. */
  countTotal?: boolean;
  /** Makes what the service has accepted durable before the checkpoint records it (embedded mock). */
  durable?: () => Promise<void>;
  /** Ctrl-C: stop reading, let requests in flight finish, keep the checkpoint. */
  signal?: AbortSignal;
  onEvent?: (event: ImportEvent) => void;
  /** Milliseconds between progress events. */
  progressIntervalMs?: number;
}

export interface ImportStats {
  /** Records read from the input. */
  read: number;
  created: number;
  updated: number;
  rejected: number;
  /** Landed by an earlier run (with `--resume`). */
  skipped: number;
  /** Dry run: rows that would change nothing. */
  unchanged: number;
  startedAt: number;
}

export type ImportEvent =
  | {
      type: 'start';
      source: string;
      format: ImportFormat;
      total: number | undefined;
      mapping: string[];
      unmapped: string[];
      resumed: boolean;
    }
  | { type: 'progress'; stats: ImportStats; total: number | undefined; concurrency: number }
  | { type: 'reject'; line: number; reason: string }
  /** Dry run: a row that would create or change a contact, with the fields it would change. */
  | ({ type: 'plan' } & RowPlan)
  | { type: 'throttled'; concurrency: number }
  | { type: 'batch-unsupported'; reason: string };

export interface ImportReport {
  rows: number;
  created: number;
  updated: number;
  rejected: number;
  skipped: number;
  /** Dry run: rows that would change nothing (`created` and `updated` are then "would"). */
  unchanged: number;
  durationMs: number;
  rowsPerSecond: number;
  dryRun: boolean;
  /** Stopped by the signal before the end of the input; the checkpoint is kept. */
  interrupted: boolean;
  rejectsFile: string | null;
  /** The results file, when one was asked for. */
  resultsFile: string | null;
  /** Where progress is kept while the import is unfinished (null once it completed). */
  checkpointFile: string | null;
}

interface ValidRow {
  source: SourceRecord;
  input: ContactInputParsed;
  key: string;
  /** Size of the row's JSON, for sizing batches by bytes. */
  bytes: number;
}

/** An import that stopped on an error it cannot isolate to a row (auth, service down, network). */
export class ImportStoppedError extends ImportError {
  override name = 'ImportStoppedError';
  readonly report: ImportReport;
  constructor(cause: unknown, report: ImportReport) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Import stopped: ${reason}`, { cause });
    this.report = report;
  }
}

export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const { client, agentId, input } = options;
  const dryRun = options.dryRun ?? false;
  const batchSize = options.batchSize ?? 1;
  const maxRetries = options.maxRetries ?? DEFAULT_IMPORT_RETRIES;
  const emit = options.onEvent ?? (() => {});
  const fromStdin = input === '-';
  if (fromStdin && options.resume)
    throw new ImportError('stdin cannot be resumed: import from a file to use --resume');
  // Only a regular file can be read again: counted first, and resumed after a crash. A FIFO or a
  // device is read once, as it comes, like stdin.
  const rereadable = !fromStdin && (await isRegularFile(input));
  if (!fromStdin && !rereadable && options.resume) {
    throw new ImportError(`${input} is not a regular file: it cannot be read again, so it cannot be resumed`);
  }

  const definitions = await client.attributes.list({ agentId, maxRetries });
  // Opening waits for the first bytes, which a FIFO or a terminal may never send: Ctrl-C must
  // end that wait as it ends a read.
  const aborted = new Promise<'aborted'>((resolve) => {
    if (options.signal?.aborted) resolve('aborted');
    options.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  const opening = openSource(input, {
    format: options.format,
    delimiter: options.delimiter,
    encoding: options.encoding,
    stdin: options.stdin,
  });
  const opened = await Promise.race([opening, aborted]);
  if (opened === 'aborted') {
    void opening.then(
      (s) => s.close(),
      () => {},
    );
    throw new ImportError('Interrupted before the input gave its first line: nothing was sent');
  }
  const source = opened;
  let mapping: ColumnMapping | undefined;
  let validate: ReturnType<typeof createRowValidator>;
  let total: number | undefined;
  let checkpoint: ImportCheckpoint | undefined;
  let rejects: RejectsWriter | undefined;
  let results: ResultsWriter | undefined;
  const stats: ImportStats = {
    read: 0,
    created: 0,
    updated: 0,
    rejected: 0,
    skipped: 0,
    unchanged: 0,
    startedAt: Date.now(),
  };
  // Everything that can refuse the import (mapping, checkpoint, rejects path) before a row is
  // sent: the input is closed when it does.
  try {
    if (source.format === 'csv') {
      mapping = resolveMapping({ header: source.header ?? [], definitions, overrides: options.maps });
    } else if (options.maps?.length) {
      throw new ImportError(
        '--map applies to CSV columns; JSON and NDJSON records use the contract field names',
      );
    }
    validate = createRowValidator({ definitions, mapping, defaultCountry: options.defaultCountry });

    // Counting is a pass of its own over the input: only a regular file can be read twice. A
    // FIFO, a device or stdin would be drained by it, leaving the import nothing to send.
    total =
      options.countTotal && rereadable
        ? await countRows(input, source.format, source.delimiter, { encoding: options.encoding })
        : undefined;

    if (!dryRun) {
      if (rereadable) {
        const checkpointPath = defaultCheckpointPath(input);
        const checkpointProblem = await outputPathProblem(checkpointPath, { [input]: 'the input' });
        if (checkpointProblem) {
          throw new ImportError(
            `Cannot keep the resume checkpoint ${checkpointPath}: ${checkpointProblem}` +
              ' (it sits beside the input: import a copy from a directory you can write to)',
          );
        }
        checkpoint = await ImportCheckpoint.open({
          input,
          agentId,
          resume: options.resume ?? false,
          settings: JSON.stringify({
            format: source.format,
            delimiter: source.delimiter,
            mapping: mapping && describeMapping(mapping),
          }),
          // What the checkpoint claims must already be in the service's store and the results file.
          beforeWrite: async () => {
            await options.durable?.();
            await results?.flush();
          },
        });
      }
      const rejectsPath = options.rejectsPath ?? defaultRejectsPath(input, source.format, options.cwd);
      const problem = await outputPathProblem(rejectsPath, fromStdin ? {} : { [input]: 'the input' });
      if (problem) throw new ImportError(`Cannot write the rejects file ${rejectsPath}: ${problem}`);
      if (options.resultsPath) {
        resultsFormat(options.resultsPath);
        const protect: Record<string, string> = { [rejectsPath]: 'the rejects file' };
        if (!fromStdin) protect[input] = 'the input';
        const resultsProblem = await outputPathProblem(options.resultsPath, protect);
        if (resultsProblem) {
          throw new ImportError(`Cannot write the results file ${options.resultsPath}: ${resultsProblem}`);
        }
        // A resumed import adds the rows it lands to the results of the run it resumes.
        results = await ResultsWriter.open(options.resultsPath, { resume: checkpoint?.resumed ?? false });
      }
      rejects = createRejectsWriter({
        path: rejectsPath,
        format: source.format,
        header: source.header,
        delimiter: source.delimiter,
        bom: source.bom,
        input: fromStdin ? undefined : input,
      });
    }
    emit({
      type: 'start',
      source: source.name,
      format: source.format,
      total,
      mapping: mapping ? describeMapping(mapping) : [],
      unmapped: mapping?.unmapped ?? [],
      resumed: checkpoint?.resumed ?? false,
    });
  } catch (error) {
    source.close();
    throw error;
  }

  const limiter = new AdaptiveLimiter(options.concurrency ?? DEFAULT_CONCURRENCY);
  // The last unit of work for each external_id still in flight: the next row with that key waits for it.
  const tails = new Map<string, Promise<void>>();
  const active = new Set<Promise<void>>();
  let fatal: { error: unknown } | undefined;
  let batchSupported = batchSize > 1;
  let batch: ValidRow[] = [];
  let batchKeys = new Set<string>();
  let batchBytes = 0;
  // Dry run: which external_ids exist now, and which the file has created so far.
  const planner = dryRun ? new DryRunPlanner(client, agentId, maxRetries) : undefined;
  await planner?.start(total);
  // Rows wait here until a batch of them is planned with one round of reads.
  let toPlan: ValidRow[] = [];
  const planBatch = async () => {
    if (!planner || toPlan.length === 0) return;
    const rows = toPlan;
    toPlan = [];
    for (const plan of await planner.plan(rows.map((r) => ({ line: r.source.line, input: r.input })))) {
      if (plan.action === 'create') stats.created++;
      else if (plan.action === 'update') stats.updated++;
      else stats.unchanged++;
      if (plan.action !== 'unchanged') emit({ type: 'plan', ...plan });
    }
    progress();
  };
  // The batch form (and a create whose answer was lost) does not say "created"; the service's
  // ids sort in creation order, so a contact with an id above the newest one before the run is new.
  const newestBefore = dryRun ? undefined : await newestId(client, agentId, maxRetries);
  const createdThisRun = (contact: { id: string }) => newestBefore === undefined || contact.id > newestBefore;

  let lastProgress = 0;
  const progress = (force = false) => {
    const now = Date.now();
    if (!force && now - lastProgress < (options.progressIntervalMs ?? 250)) return;
    lastProgress = now;
    emit({ type: 'progress', stats: { ...stats }, total, concurrency: limiter.limit });
  };

  const reject = async (rec: SourceRecord, reason: string) => {
    stats.rejected++;
    emit({ type: 'reject', line: rec.line, reason });
    await rejects?.write(rec, reason);
  };

  const onRetry = (event: RetryEvent) => {
    if (event.error instanceof RateLimitError) {
      limiter.throttled();
      emit({ type: 'throttled', concurrency: limiter.limit });
    }
  };

  const landed = (row: ValidRow, created: boolean, contact: { id: string } | undefined) => {
    if (created) stats.created++;
    else stats.updated++;
    if (results && contact) {
      results.write({
        line: row.source.line,
        external_id: row.key,
        id: contact.id,
        action: created ? 'created' : 'updated',
      });
    }
    checkpoint?.markLanded(row.source.row);
  };

  const sendOne = async (row: ValidRow) => {
    let retried = false;
    try {
      const { contact, created } = await client.contacts.upsert(row.input, {
        agentId,
        maxRetries,
        onRetry: (e) => {
          retried = true;
          onRetry(e);
        },
      });
      // A create whose answer was lost is retried and answered "updated"; its timestamps tell.
      landed(
        row,
        created || (retried && createdThisRun(contact) && contact.created_at === contact.updated_at),
        contact,
      );
      limiter.succeeded();
    } catch (err) {
      if (!isRowRejection(err)) throw err;
      await reject(row.source, rejectionReason(err));
    }
  };

  const sendBatch = async (rows: ValidRow[]) => {
    if (!batchSupported) {
      for (const row of rows) await sendOne(row);
      return;
    }
    try {
      const contacts = await client.contacts.upsertMany(
        rows.map((r) => r.input),
        { agentId, maxRetries, onRetry },
      );
      // Rows with one key never share a batch. A key repeated in the file counts as created once
      // unless both of its rows land within the same second of creating it (timestamps are seconds).
      rows.forEach((row, i) => {
        const contact = contacts[i];
        landed(
          row,
          contact !== undefined && createdThisRun(contact) && contact.created_at === contact.updated_at,
          contact,
        );
      });
      limiter.succeeded();
    } catch (err) {
      if (!isRowRejection(err)) throw err;
      // The batch wrote nothing. When the answer names items (`users.N.field`), exactly those
      // rows are refused, with the service's words, and the rest go again in one request.
      const named = itemIssues(err, rows.length);
      if (named.size > 0) {
        const rest: ValidRow[] = [];
        for (const [i, row] of rows.entries()) {
          const issues = named.get(i);
          if (issues) await reject(row.source, issues.join('; '));
          else rest.push(row);
        }
        if (rest.length > 0) await sendBatch(rest);
        return;
      }
      if (err instanceof BadRequestError && !(err instanceof ContactLimitError)) {
        // A 400 about no item (nor the quota): this server does not take the batch form. Single rows from now on.
        batchSupported = false;
        emit({ type: 'batch-unsupported', reason: rejectionReason(err) });
        for (const row of rows) await sendOne(row);
        return;
      }
      // Refused as a whole with no item named (a 409 or 413 without issues, the quota): halve,
      // so one bad row costs a few requests, not one per row.
      if (rows.length === 1) {
        await reject(rows[0]!.source, rejectionReason(err));
        return;
      }
      const half = Math.ceil(rows.length / 2);
      await sendBatch(rows.slice(0, half));
      await sendBatch(rows.slice(half));
    }
  };

  const dispatch = async (keys: string[], work: () => Promise<void>) => {
    await limiter.acquire();
    if (fatal) {
      limiter.release();
      return;
    }
    const before = keys.map((k) => tails.get(k)).filter((p): p is Promise<void> => p !== undefined);
    const task = (async () => {
      try {
        if (before.length > 0) await Promise.all(before);
        if (!fatal) await work();
      } catch (error) {
        fatal ??= { error };
      } finally {
        limiter.release();
      }
    })();
    for (const k of keys) tails.set(k, task);
    active.add(task);
    void task.then(() => {
      active.delete(task);
      for (const k of keys) if (tails.get(k) === task) tails.delete(k);
      progress();
    });
  };

  const flushBatch = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    const keys = [...batchKeys];
    batch = [];
    batchKeys = new Set();
    batchBytes = 0;
    await dispatch(keys, () => sendBatch(rows));
  };

  let interrupted = false;
  // The first Ctrl-C stops reading at once, even while a read waits on a FIFO or a terminal (a
  // file stream only closes once that read returns, so the loop does not wait for it): rows in
  // flight still land.
  const stopReading = () => {
    interrupted = true;
    source.close();
  };
  options.signal?.addEventListener('abort', stopReading, { once: true });
  try {
    for await (const rec of untilAborted(source.records, aborted)) {
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      if (fatal) break;
      stats.read++;
      if (checkpoint?.hasLanded(rec.row)) {
        stats.skipped++;
        continue;
      }
      const result = validate(rec);
      if (!result.ok) {
        await reject(rec, result.reason);
        progress();
        continue;
      }
      const row: ValidRow = {
        source: rec,
        input: result.input,
        key: result.input.external_id,
        bytes: batchSize > 1 ? Buffer.byteLength(JSON.stringify(result.input)) + 1 : 0,
      };
      if (planner) {
        toPlan.push(row);
        if (toPlan.length >= PLAN_BATCH) await planBatch();
      } else if (batchSize > 1 && batchSupported) {
        // Rows of one external_id never share a request; a batch stays under the body limit.
        if (batchKeys.has(row.key) || batchBytes + row.bytes > MAX_BATCH_BYTES) await flushBatch();
        batch.push(row);
        batchKeys.add(row.key);
        batchBytes += row.bytes;
        if (batch.length >= batchSize) await flushBatch();
      } else {
        await dispatch([row.key], () => sendOne(row));
      }
    }
    if (!interrupted && !fatal) {
      await flushBatch();
      await planBatch();
    }
    await Promise.all(active);
  } catch (error) {
    // The input itself failed (a parse error), or was closed by Ctrl-C: let what is in flight
    // land, then report it.
    await Promise.all(active);
    if (!interrupted) fatal ??= { error };
  } finally {
    options.signal?.removeEventListener('abort', stopReading);
  }

  const durationMs = Date.now() - stats.startedAt;
  const done = stats.created + stats.updated + stats.rejected;
  // Rejects found so far are kept even when the import stops: they are what the user fixes next.
  const rejectsSummary = await rejects?.close();
  await results?.close();
  const unfinished = Boolean(fatal) || interrupted;
  if (checkpoint) {
    if (unfinished) await checkpoint.close();
    else await checkpoint.complete();
  }
  progress(true);
  const report: ImportReport = {
    rows: stats.read,
    created: stats.created,
    updated: stats.updated,
    rejected: stats.rejected,
    skipped: stats.skipped,
    unchanged: stats.unchanged,
    durationMs,
    rowsPerSecond: durationMs > 0 ? Math.round((done * 1000) / durationMs) : done,
    dryRun,
    interrupted,
    rejectsFile: rejectsSummary?.path ?? null,
    resultsFile: results?.path ?? null,
    checkpointFile: unfinished ? (checkpoint?.path ?? null) : null,
  };
  if (fatal) throw new ImportStoppedError(fatal.error, report);
  return report;
}

/** The items of `items` until `stop` settles, however long the pending next item takes. */
async function* untilAborted<T>(items: AsyncIterable<T>, stop: Promise<unknown>): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  const stopped = stop.then(() => null);
  for (;;) {
    const next = await Promise.race([iterator.next(), stopped]);
    if (next === null || next.done) return;
    yield next.value;
  }
}

async function isRegularFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

/**
 * The service's issues by item of a batch: `users.3.email: Email already exists` is item 3's.
 * Issues naming no item of this batch are left out (the caller then splits the batch).
 */
function itemIssues(err: APIError, size: number): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const issue of err.issues) {
    const m = /^users\.(\d+)(?:\.(.*))?$/.exec(issue.field);
    const i = m ? Number(m[1]) : -1;
    if (i < 0 || i >= size) continue;
    const text = `${m![2] ?? '(row)'}: ${issue.message}`;
    out.set(i, [...(out.get(i) ?? []), text]);
  }
  return out;
}

/** Errors that belong to one row (its data), as opposed to the service or the connection. */
function isRowRejection(err: unknown): err is APIError {
  return (
    err instanceof BadRequestError || err instanceof ConflictError || err instanceof PayloadTooLargeError
  );
}

function rejectionReason(err: APIError): string {
  if (err.issues.length > 0) return err.issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  return err.message.replace(/^\d{3}\s+/, '');
}

/** The id of the agent's newest contact (lists run oldest first), or '' when it has none. */
async function newestId(client: ContactsClient, agentId: string, maxRetries: number): Promise<string> {
  const first = await client.contacts.list({ agentId, perPage: 10, maxRetries });
  if (first.total === 0) return '';
  const last =
    first.totalPages > 1
      ? await client.contacts.list({ agentId, perPage: 10, page: first.totalPages, maxRetries })
      : first;
  return last.data.at(-1)?.id ?? '';
}
