// What `contacts import` shows a person and a script: the progress line, the closing summary, the
// summary record and `--diff`'s per-row changes. The command decides; this module renders.
import { relative } from 'node:path';
import type { ImportEvent, ImportReport } from '../../importer/pipeline.js';
import type { CommandContext } from '../context.js';
import { visible } from './visible.js';

export function summaryRecord(r: ImportReport) {
  return {
    ...(r.dryRun ? { would_create: r.created, would_update: r.updated, unchanged: r.unchanged } : {}),
    rows: r.rows,
    created: r.created,
    updated: r.updated,
    rejected: r.rejected,
    skipped: r.skipped,
    dry_run: r.dryRun,
    interrupted: r.interrupted,
    duration_ms: r.durationMs,
    rows_per_second: r.rowsPerSecond,
    requests: r.requests,
    rate_limited: r.throttled,
    rejects_file: r.rejectsFile,
    results_file: r.resultsFile,
  };
}

export function display(ctx: CommandContext, file: string): string {
  const rel = relative(ctx.cwd, file);
  return rel.startsWith('..') ? file : rel;
}

/** The closing sentence: what happened to the rows, how long it took, at what rate. */
export function summaryLine(r: ImportReport): string {
  const seconds = `${(r.durationMs / 1000).toFixed(1)}s`;
  const earlier = r.skipped ? `, ${r.skipped} landed in an earlier run` : '';
  if (r.dryRun) {
    return `Checked ${r.rows} rows in ${seconds}: ${r.created} to create, ${r.updated} to update, ${r.unchanged} unchanged, ${r.rejected} rejected${earlier}.`;
  }
  const landed = r.created + r.updated;
  const detail = `${r.created} created, ${r.updated} updated, ${r.rejected} rejected${earlier}`;
  if (r.interrupted) {
    return `Interrupted after ${seconds}: ${landed} of the ${r.rows} rows read had landed (${detail}).`;
  }
  return `Imported ${r.rows} rows in ${seconds} (${r.rowsPerSecond} rows/s): ${detail}.`;
}

/**
 * Rows per second over the last few seconds, not since the start: after an outage the figure
 * says how fast rows land now.
 */
export class RateMeter {
  readonly #windowMs: number;
  #samples: { at: number; done: number }[] = [];
  constructor(windowMs = 5_000) {
    this.#windowMs = windowMs;
  }
  rate(done: number, now = Date.now()): number {
    this.#samples.push({ at: now, done });
    while (this.#samples.length > 1 && now - this.#samples[0]!.at > this.#windowMs) this.#samples.shift();
    const first = this.#samples[0]!;
    const seconds = (now - first.at) / 1000;
    return seconds <= 0 ? 0 : Math.round((done - first.done) / seconds);
  }
}

/**
 * One progress line: rows done (of the total, for a file), the current rate, the requests in
 * flight (what the link was found to take), rejects so far.
 */
export function progressLine(
  e: Extract<ImportEvent, { type: 'progress' }>,
  dryRun: boolean,
  rate: number,
): string {
  const { stats, total } = e;
  const done = stats.created + stats.updated + stats.rejected + stats.skipped + stats.unchanged;
  const of = total ? ` of ${total} (${Math.floor((done * 100) / Math.max(1, total))}%)` : '';
  const link = dryRun ? '' : `, ${e.inFlight} in flight`;
  return `${done}${of} rows ${dryRun ? 'checked' : 'done'}, ${rate} rows/s${link}, ${stats.rejected} rejected`;
}

/**
 * `--diff`: each row that would change, as it is planned: one JSON object a line with `-o ndjson`
 * (or `-o json`), otherwise a readable diff, `field: old -> new`.
 */
export function diffWriter(ctx: CommandContext, format: string) {
  const show = (v: unknown) => (v === null || v === undefined ? '(none)' : JSON.stringify(v));
  return (plan: Extract<ImportEvent, { type: 'plan' }>) => {
    const { line, external_id, action, changes } = plan;
    if (format === 'ndjson' || format === 'json') {
      ctx.io.stdout.write(`${JSON.stringify({ line, external_id, action, changes })}\n`);
      return;
    }
    const fields = Object.entries(changes).map(
      ([field, [old, next]]) => `  ${field}: ${show(old)} -> ${show(next)}`,
    );
    ctx.io.stdout.write(
      `${visible(`line ${line}  ${external_id}  ${action}`)}\n${fields.map((f) => visible(f)).join('\n')}\n`,
    );
  };
}

/** Columns named in the warning about unmapped ones; the rest are counted. */
const MAX_NAMED_COLUMNS = 10;

/** Which columns are ignored: the first few by name (each cut to a readable length) and a count. */
export function unmappedWarning(unmapped: readonly string[]): string {
  const named = unmapped
    .slice(0, MAX_NAMED_COLUMNS)
    .map((name) => (name.length > 40 ? `${name.slice(0, 39)}…` : name))
    .join(', ');
  const more = unmapped.length - MAX_NAMED_COLUMNS;
  return more > 0
    ? `Ignoring ${unmapped.length} columns that map to no field: ${named} and ${more} more`
    : `Ignoring columns that map to no field: ${named}`;
}

/** Notices said one by one; past these, only that there are more. */
const MAX_NOTICES = 10;

/** Progress on stderr: a spinner line on a terminal, plain lines every few seconds otherwise. */
export async function createProgress(
  ctx: CommandContext,
  dryRun: boolean,
  diff?: (plan: Extract<ImportEvent, { type: 'plan' }>) => void,
) {
  const spinner = ctx.io.isTTY.stderr ? await ctx.io.spinner('Reading…') : undefined;
  let lastLine = Date.now();
  let lastRetryLine = 0;
  let notices = 0;
  let current = '';
  let retry = '';
  const meter = new RateMeter();
  const line = (e: Extract<ImportEvent, { type: 'progress' }>) => {
    const s = e.stats;
    return progressLine(e, dryRun, meter.rate(s.created + s.updated + s.rejected));
  };
  return {
    event(e: ImportEvent) {
      switch (e.type) {
        case 'start':
          if (e.unmapped.length > 0) ctx.io.warn(unmappedWarning(e.unmapped));
          if (e.resumed) ctx.io.note('Resuming: rows that landed in the earlier run are skipped.');
          break;
        case 'progress':
          current = line(e);
          // A progress event means rows land again: a retry notice has had its day.
          retry = '';
          if (spinner) spinner.update(current);
          else if (Date.now() - lastLine >= 2000 && !ctx.io.quiet) {
            lastLine = Date.now();
            ctx.io.note(current);
          }
          break;
        case 'plan':
          diff?.(e);
          break;
        case 'notice':
          notices++;
          if (notices <= MAX_NOTICES) ctx.io.warn(`line ${e.line}: ${e.message}`);
          else if (notices === MAX_NOTICES + 1) ctx.io.warn('More notices like these are not shown.');
          break;
        case 'reject':
          // A dry run lists every reject; a real run keeps them in the rejects file.
          if (dryRun) ctx.io.note(`line ${e.line}: ${e.reason}`);
          break;
        case 'throttled':
          if (ctx.options.debug)
            ctx.io.note(`rate limited (429): now at most ${e.concurrency} requests in flight`);
          break;
        case 'batch-unsupported':
          ctx.io.warn(`The service does not accept the batch form (${e.reason}); sending single rows.`);
          break;
      }
    },
    /** A retry notice: on the one progress line on a terminal; at most a line every 5 s otherwise. */
    retrying(notice: string) {
      retry = notice;
      if (spinner) spinner.update(`${current || 'Sending…'} (${retry})`);
      else if (Date.now() - lastRetryLine >= 5000) {
        lastRetryLine = Date.now();
        ctx.io.note(notice);
      }
    },
    /** Ctrl-C: the spinner stops first, so the notice is a whole line of its own. */
    interrupted() {
      spinner?.stop();
      ctx.io.warn('Interrupted: letting the requests in flight finish (Ctrl-C again to quit at once)…');
    },
    stop() {
      spinner?.stop();
    },
  };
}
