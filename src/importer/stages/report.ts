// The report stage: counts, progress events, and what each row's outcome writes (the checkpoint
// mark, the results and fixes records, the rejects record), then the closing report. The checkpoint
// is marked here before the sink lets the next row of the same lanes go: that order is what keeps a
// resume from replaying an older row over a newer one. A landed row's records are given to their
// files in the same step as its mark, so the lengths a checkpoint records hold exactly its rows.

import type { AttributeType } from '../../api/attribute.js';
import type { UndoRef } from '../../undo/recorder.js';
import type { RowPlan } from '../dry-run-plan.js';
import type { ImportFormat } from '../format.js';
import type { ImportNote } from '../notes.js';
import type { ImportPlan } from '../plan.js';
import { type FieldProblem, type ProblemCode, problemCodes } from '../row-validator.js';
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
  /** Rows with nothing but their key, not sent (see RowResult's `empty`). */
  empty: number;
  /** Dry run: rows that would change nothing. */
  unchanged: number;
  /** Contacts that land with fields left out (kept in the fixes file). */
  fixed: number;
  startedAt: number;
}

/** Problems of one kind, for the closing summary: how many, where, and one in full. */
export interface ReasonSummary {
  /**
   * The reason as every row of the group gave it; where rows gave it with their own details
   * (values, emails, numbers), those blanked: the group's key.
   */
  reason: string;
  /** The first one as it was reported. */
  example: string;
  count: number;
  /** The first few lines with it. */
  lines: number[];
}

export type ImportEvent =
  | {
      type: 'start';
      source: string;
      format: ImportFormat;
      total: number | undefined;
      /** How the rows are read: the fields, the columns' roles, the key, the policies. */
      plan: ImportPlan;
      /** The mapping, one `Header -> target` line a column (tables only). */
      mapping: string[];
      unmapped: string[];
      /** By unmapped column: the attribute type its first rows' values ask for (`date`, `number`...). */
      unmappedTypes: Record<string, AttributeType>;
      resumed: boolean;
      /** The file has no id column: the email column that keys the contacts. */
      keyFromEmail: string | undefined;
      /** Columns left unread whose values look like phones, emails or countries. */
      lookAlikes: { header: string; field: 'phonenumber' | 'email' | 'country'; with: string[] }[];
      /**
       * What reading and planning decided on their own so far, what the columns' values decided
       * first: the encoding of a non-UTF-8 file, how a vCard without UID is keyed, a resume that
       * finds nothing to resume. Each later one is a `note` event.
       */
      notes: ImportNote[];
      /** A checkpoint of an unfinished run of this file was found and discarded (`restart`). */
      checkpointDiscarded: boolean;
      /** A quoted empty cell is the empty string (`--empty-strings`), not "not given". */
      emptyStrings: boolean;
      /** The zone date-times without one are read in (`--time-zone`), when one was given. */
      timeZone: string | undefined;
    }
  /** Something the reading decided on its own (a footer or repeated header skipped). */
  | ({ type: 'note' } & ImportNote)
  | {
      type: 'progress';
      stats: ImportStats;
      total: number | undefined;
      /** Requests allowed in flight now (the concurrency the link was found to take). */
      concurrency: number;
      /** Requests in flight now. */
      inFlight: number;
    }
  /** `codes`: the kinds of its problems an option of the import would read (a default country...). */
  | { type: 'reject'; line: number; reason: string; codes?: ProblemCode[] }
  /** A contact landing (or, in a dry run, that would land) without some of its fields. */
  | { type: 'fix'; line: number; reason: string; codes?: ProblemCode[] }
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
  /** Rows with nothing but their key, not sent: how many, and the first lines. */
  empty: { count: number; lines: number[] };
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
  /** Contacts that landed (or would) with fields left out. */
  fixed: number;
  fixesFile: string | null;
  /** The rejects' problems by reason (a row with two problems counts in both). */
  rejectReasons: ReasonSummary[];
  /** The fields left out, by reason. */
  fixReasons: ReasonSummary[];
  /**
   * The kinds of problem among the rejects and the fields left out that an option of the import
   * would have read (a national number with a default country, a slash date with a date order),
   * each once, in the order first met.
   */
  problemCodes: ProblemCode[];
  /** Cells with several values (the first was used), by column. */
  multiValue: { column: string; cells: number }[];
  /** Names holding a `??` run: characters the exporter lost. */
  lostCharacters: { count: number; lines: number[] };
  /** Rows whose external_id an earlier row of the file had: each updated that contact. */
  repeatedKeys: number;
  /**
   * National phone numbers placed in a country by the file's own evidence (its international
   * numbers and country columns; no country in the row, no default country), by country.
   */
  placedByFile: { country: string; count: number }[];
  /**
   * Parts of the input not read as rows though they may hold people: a report's other sections,
   * each with its first and last line and its title.
   */
  sectionsNotRead: { lines: [number, number]; title: string }[];
  /** A workbook's other visible sheets holding values, when none was named. */
  sheetsNotRead: string[];
  /** The results file, when one was asked for. */
  resultsFile: string | null;
  /** Where progress is kept while the import is unfinished (null once it completed). */
  checkpointFile: string | null;
  /** What `undoImport()` takes back (null: a dry run, `undo: 'off'`, or nothing written). */
  undo: UndoRef | null;
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
    empty: 0,
    unchanged: 0,
    fixed: 0,
    startedAt: Date.now(),
  };
  readonly #rejectReasons = new ReasonTally();
  readonly #fixReasons = new ReasonTally();
  readonly #problemCodes = new Set<ProblemCode>();
  #repeatedKeys = 0;
  readonly #options: TallyOptions;
  #link: () => LinkState = () => IDLE_LINK;
  #lastProgress = 0;
  /** A write failure found by `close()` (one during the run is the outputs' own `failure`). */
  #closeFailure: Error | undefined;

  constructor(options: TallyOptions) {
    this.#options = options;
  }

  /** Where progress reads the link's figures from (the sink, once there is one). */
  watch(link: () => LinkState): void {
    this.#link = link;
  }

  /** A write of one of the import's files failed (a full disk): the import must stop. */
  get writeFailure(): { error: unknown } | undefined {
    const error = this.#options.outputs?.failure ?? this.#closeFailure;
    return error && { error };
  }

  read(): void {
    this.stats.read++;
  }

  skipped(): void {
    this.stats.skipped++;
    this.progress();
  }

  empty(): void {
    this.stats.empty++;
    this.progress();
  }

  /** A row with the external_id of an earlier one: counted, and said like a notice. */
  repeatedKey(line: number, message: string): void {
    this.#repeatedKeys++;
    this.notice(line, message);
  }

  notice(line: number, message: string): void {
    this.#options.emit({ type: 'notice', line, message });
  }

  /** A row refused before or by the service: counted, told, and kept in the rejects file. */
  reject(source: SourceRecord, reason: string, codes?: readonly ProblemCode[]): void {
    this.stats.rejected++;
    this.#rejectReasons.add(reason, source.line);
    if (codes) {
      for (const code of codes) this.#problemCodes.add(code);
      this.#options.emit({ type: 'reject', line: source.line, reason, codes: [...codes] });
    } else this.#options.emit({ type: 'reject', line: source.line, reason });
    // A failed write is the outputs' `failure`: the pipeline stops on it.
    this.#options.outputs?.rejects.write(source, reason);
    this.progress();
  }

  /** A row sent without some of its fields: told as it is checked, like a reject. */
  fixing(source: SourceRecord, problems: readonly FieldProblem[]): void {
    const codes = problemCodes(problems);
    this.#options.emit(
      codes
        ? { type: 'fix', line: source.line, reason: fixReason(problems), codes }
        : { type: 'fix', line: source.line, reason: fixReason(problems) },
    );
  }

  /**
   * A contact that landed (or, in a dry run, would) without some of its fields: counted, and they
   * go to the fixes file. Not before it lands: a row the service refuses, or one left unsent when
   * the import stops, has no fix to keep (a resume sends it, and keeps its fix then).
   */
  #fix(source: SourceRecord, key: string, problems: readonly FieldProblem[]): void {
    this.stats.fixed++;
    this.#fixReasons.add(fixReason(problems), source.line);
    for (const { code } of problems) if (code) this.#problemCodes.add(code);
    this.#options.outputs?.fixes?.write(source, key, problems);
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
        if (row.fixes) this.#fix(row.source, row.key, row.fixes);
        this.#options.outputs?.undo?.landed(row.key, action, contact);
        this.#options.outputs?.checkpoint?.markLanded(row.source.row);
        break;
      }
      case 'rejected':
        this.#options.outputs?.undo?.rejected(outcome.row.key);
        this.reject(outcome.row.source, outcome.reason);
        return;
      case 'planned': {
        const { plan, row } = outcome;
        if (row.fixes) this.#fix(row.source, row.key, row.fixes);
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
   * A file that cannot be written (a full disk) leaves the import unfinished, with its checkpoint as
   * last written: see `writeFailure`.
   */
  async close(
    unfinished: boolean,
    interrupted: boolean,
    notes?: {
      multiValue: Map<string, number>;
      lostCharacters: number[];
      lostCharactersCount: number;
      placedByFile: Map<string, number>;
      emptyRows: number[];
    },
  ): Promise<ImportReport> {
    const { outputs } = this.#options;
    const failed = (error: unknown) => {
      this.#closeFailure ??= error instanceof Error ? error : new Error(String(error));
    };
    // Every file written before the checkpoint is told the import is complete (or removed).
    await Promise.all([outputs?.results?.flush(), outputs?.fixes?.flush(), outputs?.rejects.flush()]).catch(
      failed,
    );
    const stopped = unfinished || this.writeFailure !== undefined;
    if (outputs?.checkpoint) {
      // A checkpoint that cannot be written keeps the one written before: a resume goes on from it.
      if (stopped) await outputs.checkpoint.close().catch(failed);
      else await outputs.checkpoint.complete();
    }
    const rejects = await outputs?.rejects.close().catch(failed);
    const fixes = await outputs?.fixes?.close().catch(failed);
    await outputs?.settleEarlier().catch(failed);
    await outputs?.results?.close().catch(failed);
    const undo = outputs?.undo?.end(!stopped) ?? null;
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
      empty: { count: s.empty, lines: notes?.emptyRows ?? [] },
      unchanged: s.unchanged,
      durationMs,
      rowsPerSecond: durationMs > 0 ? Math.round((done * 1000) / durationMs) : done,
      requests: link.requests,
      throttled: link.throttled,
      dryRun: this.#options.dryRun,
      interrupted,
      rejectsFile: rejects?.path ?? null,
      fixed: s.fixed,
      fixesFile: fixes?.path ?? null,
      rejectReasons: this.#rejectReasons.summary(),
      fixReasons: this.#fixReasons.summary(),
      problemCodes: [...this.#problemCodes],
      multiValue: [...(notes?.multiValue ?? [])].map(([column, cells]) => ({ column, cells })),
      lostCharacters: { count: notes?.lostCharactersCount ?? 0, lines: notes?.lostCharacters ?? [] },
      repeatedKeys: this.#repeatedKeys,
      placedByFile: [...(notes?.placedByFile ?? [])]
        .map(([country, count]) => ({ country, count }))
        .sort((a, b) => b.count - a.count || a.country.localeCompare(b.country)),
      sectionsNotRead: [],
      sheetsNotRead: [],
      resultsFile: outputs?.results?.path ?? null,
      checkpointFile: stopped ? (outputs?.checkpoint?.path ?? null) : null,
      undo,
    };
  }
}

const fixReason = (problems: readonly FieldProblem[]) =>
  problems.map((p) => `${p.field}: ${p.reason}`).join('; ');

const LINES_KEPT = 5;
const PROBLEM_SEPARATOR = /; (?=[a-z_][\w.]*: )/;
const REASONS_KEPT = 100;

/** A row's own details in a reason: a quoted value, an email, a number (or its blank, `N`). */
const DETAIL_RE = /"(?:[^"\\]|\\.)*"|[^\s@]+@[^\s@;,)]+|\d+|\bN\b/g;
const blank = (detail: string) => (detail.startsWith('"') ? '"…"' : detail.includes('@') ? '…@…' : 'N');

/**
 * `said` with the details that `other` writes otherwise blanked, those both write kept (a hint's
 * example dates); undefined where the two differ in more than details.
 */
function blankDiffering(said: string, other: string): string | undefined {
  const a = said.split(new RegExp(`(${DETAIL_RE.source})`));
  const b = other.split(new RegExp(`(${DETAIL_RE.source})`));
  if (a.length !== b.length) return undefined;
  let merged = '';
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i] ?? '', b[i] ?? ''];
    if (i % 2 === 0 && x !== y) return undefined;
    merged += i % 2 === 0 || x === y ? x : blank(x);
  }
  return merged;
}

/**
 * Problems grouped by reason: each `; `-separated problem of a reason counts once, keyed by its
 * text with the row's own details (quoted values, emails, numbers) blanked, so `phonenumber: not
 * a valid number in US` from every row is one group. Past a hundred groups the rest are "other".
 */
class ReasonTally {
  readonly #groups = new Map<string, ReasonSummary>();

  add(reason: string, line: number): void {
    // Problems are `field: message`, joined by `; ` (a message may hold a `; ` of its own).
    for (const problem of reason.split(PROBLEM_SEPARATOR)) {
      let key = problem.replace(DETAIL_RE, blank);
      if (!this.#groups.has(key) && this.#groups.size >= REASONS_KEPT) key = 'other reasons';
      let group = this.#groups.get(key);
      if (!group) {
        // Said as it was while every row said the same (a hint's `1/0` stays), blanked once two differ.
        const reason = key === 'other reasons' ? key : problem;
        group = { reason, example: problem, count: 0, lines: [] };
        this.#groups.set(key, group);
      } else if (group.reason !== key && problem !== group.example) {
        group.reason = blankDiffering(group.reason, problem) ?? key;
      }
      group.count++;
      if (group.lines.length < LINES_KEPT && group.lines.at(-1) !== line) group.lines.push(line);
    }
  }

  /** Most frequent first. */
  summary(): ReasonSummary[] {
    return [...this.#groups.values()].sort((a, b) => b.count - a.count);
  }
}
