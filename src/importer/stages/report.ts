// The report stage: counts, progress events, and what each row's outcome writes (the checkpoint
// mark, the results record, the rejects record), then the closing report. The checkpoint is marked
// here before the sink lets the next row of the same lanes go: that order is what keeps a resume
// from replaying an older row over a newer one.

import type { ImportFormat } from '../format.js';
import type { RowPlan } from '../plan.js';
import type { SourceRecord } from '../sources/types.js';
import type { ImportOutputs } from './outputs.js';
import type { LinkState, RowOutcome } from './sink.js';

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
  | {
      type: 'progress';
      stats: ImportStats;
      total: number | undefined;
      /** Requests allowed in flight now (the concurrency the link was found to take). */
      concurrency: number;
      /** Requests in flight now. */
      inFlight: number;
    }
  | { type: 'reject'; line: number; reason: string }
  /** A row sent, with something the user should know of it (a look-alike id, a value cut). */
  | { type: 'notice'; line: number; message: string }
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
  /** Requests sent (every attempt, retries included). */
  requests: number;
  /** Requests the service answered 429 (rate limited). */
  throttled: number;
  dryRun: boolean;
  /** Stopped by the signal before the end of the input; the checkpoint is kept. */
  interrupted: boolean;
  rejectsFile: string | null;
  /** The results file, when one was asked for. */
  resultsFile: string | null;
  /** Where progress is kept while the import is unfinished (null once it completed). */
  checkpointFile: string | null;
}

const IDLE_LINK: LinkState = { inFlight: 0, limit: 0, requests: 0, throttled: 0 };

export interface TallyOptions {
  emit: (event: ImportEvent) => void;
  outputs?: ImportOutputs | undefined;
  total?: number | undefined;
  progressIntervalMs?: number | undefined;
  dryRun: boolean;
}

export class ImportTally {
  readonly stats: ImportStats = {
    read: 0,
    created: 0,
    updated: 0,
    rejected: 0,
    skipped: 0,
    unchanged: 0,
    startedAt: Date.now(),
  };
  readonly #options: TallyOptions;
  #link: () => LinkState = () => IDLE_LINK;
  #lastProgress = 0;
  #writeFailure: { error: unknown } | undefined;

  constructor(options: TallyOptions) {
    this.#options = options;
  }

  /** Where progress reads the link's figures from (the sink, once there is one). */
  watch(link: () => LinkState): void {
    this.#link = link;
  }

  /** A write of the rejects file failed (a full disk): the import must stop. */
  get writeFailure(): { error: unknown } | undefined {
    return this.#writeFailure;
  }

  read(): void {
    this.stats.read++;
  }

  skipped(): void {
    this.stats.skipped++;
    this.progress();
  }

  notice(line: number, message: string): void {
    this.#options.emit({ type: 'notice', line, message });
  }

  /** A row refused before or by the service: counted, told, and kept in the rejects file. */
  reject(source: SourceRecord, reason: string): void {
    this.stats.rejected++;
    this.#options.emit({ type: 'reject', line: source.line, reason });
    this.#options.outputs?.rejects.write(source, reason).catch((error: unknown) => {
      this.#writeFailure ??= { error };
    });
    this.progress();
  }

  /** What a sink said of one row. */
  outcome(outcome: RowOutcome): void {
    switch (outcome.type) {
      case 'landed': {
        const { row, action, contact } = outcome;
        this.stats[action]++;
        this.#options.outputs?.results?.write({
          line: row.source.line,
          external_id: row.key,
          id: contact.id,
          action,
        });
        this.#options.outputs?.checkpoint?.markLanded(row.source.row);
        break;
      }
      case 'rejected':
        this.reject(outcome.row.source, outcome.reason);
        return;
      case 'planned': {
        const { plan } = outcome;
        if (plan.action === 'create') this.stats.created++;
        else if (plan.action === 'update') this.stats.updated++;
        else this.stats.unchanged++;
        if (plan.action !== 'unchanged') this.#options.emit({ type: 'plan', ...plan });
        break;
      }
    }
    this.progress();
  }

  progress(force = false): void {
    const now = Date.now();
    if (!force && now - this.#lastProgress < (this.#options.progressIntervalMs ?? 250)) return;
    this.#lastProgress = now;
    const link = this.#link();
    this.#options.emit({
      type: 'progress',
      stats: { ...this.stats },
      total: this.#options.total,
      concurrency: link.limit,
      inFlight: link.inFlight,
    });
  }

  /**
   * Closes the files: the rejects found so far are kept even when the import stopped (they are what
   * the user fixes next); the checkpoint is kept for a resume when unfinished, removed otherwise.
   */
  async close(unfinished: boolean, interrupted: boolean): Promise<ImportReport> {
    const { outputs } = this.#options;
    const rejects = await outputs?.rejects.close();
    await outputs?.results?.close();
    if (outputs?.checkpoint) {
      if (unfinished) await outputs.checkpoint.close();
      else await outputs.checkpoint.complete();
    }
    this.progress(true);
    const s = this.stats;
    const durationMs = Date.now() - s.startedAt;
    const done = s.created + s.updated + s.rejected;
    const link = this.#link();
    return {
      rows: s.read,
      created: s.created,
      updated: s.updated,
      rejected: s.rejected,
      skipped: s.skipped,
      unchanged: s.unchanged,
      durationMs,
      rowsPerSecond: durationMs > 0 ? Math.round((done * 1000) / durationMs) : done,
      requests: link.requests,
      throttled: link.throttled,
      dryRun: this.#options.dryRun,
      interrupted,
      rejectsFile: rejects?.path ?? null,
      resultsFile: outputs?.results?.path ?? null,
      checkpointFile: unfinished ? (outputs?.checkpoint?.path ?? null) : null,
    };
  }
}
