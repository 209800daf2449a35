// `contacts import <file|->`: the importer with progress on stderr, a summary, and the exit
// code scripts can act on (0 all landed, 8 some rejected, 130 interrupted).
import { relative } from 'node:path';
import type { CsvDelimiter, ImportFormat } from '../../importer/format.js';
import type { MapOverride } from '../../importer/mapping.js';
import type { ImportEvent, ImportReport } from '../../importer/pipeline.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { writeRecord } from '../output/render.js';
import { visible } from '../output/visible.js';

export interface ImportCommandOptions {
  format?: string;
  delimiter?: string;
  encoding?: string;
  map?: string[];
  mapFile?: string;
  concurrency?: number;
  batchSize?: number;
  rejects?: string;
  results?: string;
  resume?: boolean;
  dryRun?: boolean;
  /** With --dry-run: list each row that would change, field by field. */
  diff?: boolean;
}

const DELIMITERS: Record<string, CsvDelimiter> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  tab: '\t',
  '\\t': '\t',
  '\t': '\t',
};

export async function importFile(ctx: CommandContext, file: string, opts: ImportCommandOptions) {
  // An import allocates a few short-lived objects a row, millions in all. V8 answers that by
  // growing its young generation to 16 MiB semi-spaces and letting its old generation double
  // between collections: together some 80 MB of resident memory at a million rows, for a few
  // percent of speed. The process is ours: the young generation keeps its starting size and the
  // old one grows by half (bench/README.md has the figures). Both are read as the heap grows.
  const v8 = await import('node:v8');
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString('--heap-growing-percent=50');
  const importer = await import('../../importer/index.js');
  const { runImport, ImportStoppedError } = await import('../../importer/pipeline.js');
  const format: ImportFormat | undefined = opts.format ? importer.parseFormatOption(opts.format) : undefined;
  const delimiter = opts.delimiter === undefined ? undefined : DELIMITERS[opts.delimiter];
  if (opts.diff && !opts.dryRun)
    throw new UsageError('--diff goes with --dry-run: it shows what an import would change');
  if (opts.delimiter !== undefined && !delimiter) {
    throw new UsageError(`--delimiter ${opts.delimiter}: expected one of , ; tab`);
  }
  const flagMaps: MapOverride[] = (opts.map ?? []).map(importer.parseMapOption);
  const fileMaps: MapOverride[] = opts.mapFile
    ? importer.parseMapFile(
        await (await import('node:fs/promises')).readFile(
          (await import('node:path')).resolve(ctx.cwd, opts.mapFile),
          'utf8',
        ),
        opts.mapFile,
      )
    : [];
  const maps = importer.combineMaps(fileMaps, flagMaps);
  const encoding = opts.encoding === undefined ? undefined : importer.parseEncodingOption(opts.encoding);
  const path = file === '-' ? '-' : (await import('node:path')).resolve(ctx.cwd, file);
  const [client, agentId, outFormat, settings] = await Promise.all([
    ctx.client(),
    ctx.agent(),
    ctx.format(),
    ctx.settings(),
  ]);

  const controller = new AbortController();
  const diff = opts.diff ? diffWriter(ctx, outFormat) : undefined;
  const progress = await createProgress(ctx, opts.dryRun ?? false, diff);
  const stopListening = ctx.onInterrupt(() => {
    progress.interrupted();
    controller.abort();
  });
  ctx.reportRetriesTo(progress.retrying);

  let report: ImportReport;
  try {
    report = await runImport({
      client,
      agentId,
      input: path,
      stdin: ctx.io.stdin,
      cwd: ctx.cwd,
      format,
      delimiter,
      encoding,
      defaultCountry: settings.defaultCountry,
      ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
      maps,
      concurrency: opts.concurrency,
      batchSize: opts.batchSize,
      rejectsPath:
        opts.rejects === undefined ? undefined : (await import('node:path')).resolve(ctx.cwd, opts.rejects),
      resultsPath:
        opts.results === undefined ? undefined : (await import('node:path')).resolve(ctx.cwd, opts.results),
      resume: opts.resume,
      dryRun: opts.dryRun,
      countTotal: true,
      signal: controller.signal,
      onEvent: progress.event,
    });
  } catch (err) {
    progress.stop();
    if (err instanceof ImportStoppedError) {
      const r = err.report;
      const landed = r.created + r.updated;
      // A broken file is fixed by editing it, which changes it: the checkpoint no longer
      // matches, and re-importing it whole is the way on (upserts land the same rows again).
      const fileProblem = err.cause instanceof importer.ImportError;
      ctx.io.warn(
        `${landed} rows landed, ${r.rejected} rejected before the import stopped.` +
          (fileProblem
            ? landed > 0
              ? ' Fix the file, then import it again: rows that landed are updated to the same values.'
              : ''
            : r.checkpointFile
              ? ' Fix the cause, then run the same command with --resume to send the rest.'
              : ''),
      );
      if (r.rejectsFile) ctx.io.warn(`Rejected rows so far: ${display(ctx, r.rejectsFile)}`);
      throw err.cause instanceof importer.ImportError
        ? new UsageError(err.cause.message, { cause: err.cause })
        : err.cause;
    }
    if (err instanceof importer.ImportError) throw new UsageError(err.message, { cause: err });
    throw err;
  } finally {
    stopListening();
  }
  progress.stop();

  ctx.io.note(summaryLine(report));
  if (report.rejectsFile) {
    ctx.io.note(`Rejected rows: ${display(ctx, report.rejectsFile)} (fix them and import that file again).`);
  }
  if (report.resultsFile)
    ctx.io.note(`Results of the rows that landed: ${display(ctx, report.resultsFile)}.`);
  if (report.interrupted) {
    // Said even under --quiet: it is the one thing the user needs at this moment.
    ctx.io.warn(
      report.checkpointFile
        ? 'Run the same command with --resume to send the rest.'
        : 'Rows read from stdin or a pipe cannot be resumed: import the rest from a file.',
    );
  }
  // A person at a terminal has the sentence above; the record is for scripts (or -o table).
  if (ctx.options.output || !ctx.io.isTTY.stdout) {
    await writeRecord(ctx.io.stdout, outFormat, summaryRecord(report), ctx.io.table);
  }

  // The summary has said it all; what is left is the code a script acts on, decided in the CLI's
  // one exit-code map like every other outcome.
  if (report.interrupted) {
    throw new CliError('Import interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
  }
  if (report.rejected > 0) {
    throw new CliError(`${report.rejected} rows were rejected`, { exitCode: ExitCode.PARTIAL, silent: true });
  }
}

function summaryRecord(r: ImportReport) {
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

function display(ctx: CommandContext, file: string): string {
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

/** Progress on stderr: a spinner line on a terminal, plain lines every few seconds otherwise. */
/**
 * `--diff`: each row that would change, as it is planned: one JSON object a line with `-o ndjson`
 * (or `-o json`), otherwise a readable diff, `field: old -> new`.
 */
function diffWriter(ctx: CommandContext, format: string) {
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

async function createProgress(
  ctx: CommandContext,
  dryRun: boolean,
  diff?: (plan: Extract<ImportEvent, { type: 'plan' }>) => void,
) {
  const spinner = ctx.io.isTTY.stderr ? await ctx.io.spinner('Reading…') : undefined;
  let lastLine = Date.now();
  let lastRetryLine = 0;
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
          if (e.unmapped.length > 0)
            ctx.io.warn(`Ignoring columns that map to no field: ${e.unmapped.join(', ')}`);
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
