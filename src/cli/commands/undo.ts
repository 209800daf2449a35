// `contacts undo [RESULTS|ID]`: takes an import back from its undo record (src/undo/), with its
// plan on --dry-run, a question at a terminal (--yes off one), progress on stderr and the exit code
// scripts act on (0 done or nothing to do, 8 some contacts failed, 130 interrupted).
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { RECORD_ID_PATTERN, type UndoRecordSummary } from '../../undo/record.js';
import type { KeptReason, UndoReport, UndoStep } from '../../undo/undo.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { pathFromCwd } from '../output/import-report.js';
import { plural } from '../output/plural.js';
import { writeRecord, writeRecords } from '../output/render.js';
import { visible } from '../output/visible.js';
import { confirm } from '../prompt.js';
import type { UndoCommandOptions } from './undo-command.js';

/** Off a terminal, a progress line at most this often (as an import's). */
const PROGRESS_LINE_MS = 2000;

/** Kept contacts named one a line before the question; the rest are counted. */
const KEPT_SHOWN = 50;

const KEPT_SHORT: Record<KeptReason, string> = {
  changed: 'changed since the import',
  deleted: 'deleted since',
  remade: 'deleted and made again since',
  'not-recorded': 'updated without a record of their state before',
  unanswered: 'written without an answer',
  existed: 'made by someone else while the import ran',
  'changed-during': 'changed by someone else while the import ran',
};

const KEPT: Record<KeptReason, string> = {
  changed: 'changed since the import',
  deleted: 'deleted since the import',
  remade: 'deleted and made again since the import',
  'not-recorded': 'updated by the import, whose state before was not recorded',
  unanswered: 'its write was never answered, and it does not hold what the write would have made',
  existed: 'it was made by someone else while the import ran',
  'changed-during': 'changed by someone else while the import ran (its state before is not known)',
};

export async function undo(ctx: CommandContext, target: string | undefined, opts: UndoCommandOptions) {
  const [{ undoDir }, { findUndoRecord, undoImport, UndoStoppedError }, { listUndoRecords }] =
    await Promise.all([
      import('../../util/data-dir.js'),
      import('../../undo/undo.js'),
      import('../../undo/record.js'),
    ]);
  const dir = undoDir(ctx.env);
  const [agentId, format] = await Promise.all([ctx.agent(), ctx.format()]);
  if (opts.list) {
    if (target !== undefined) throw new UsageError('--list takes no import: it lists them all');
    const records = await listUndoRecords(dir, agentId);
    if (records.length === 0)
      await ctx.noteAboutAgent(
        (why) => `No import of agent ${agentId}${why} to take back (records are kept in ${dir}).`,
      );
    if (format === 'table') {
      if (records.length > 0)
        await writeRecords(
          ctx.io.stdout,
          format,
          records.map((r) => listed(ctx, r)),
          { ...ctx.io.table, columns: ['id', 'time', 'file', 'created', 'updated', 'service', 'state'] },
        );
      return;
    }
    // For scripts: the record's own fields, times in ISO 8601 (UTC).
    await writeRecords(
      ctx.io.stdout,
      format,
      records.map((r) => ({
        id: r.id,
        started_at: r.startedAt,
        finished_at: r.finishedAt,
        input: r.input,
        results: r.results,
        created: r.created,
        updated: r.updated,
        full: r.full,
        service: r.service,
        status: r.status,
        undone_at: r.undoneAt,
      })),
      {
        columns: [
          'id',
          'started_at',
          'finished_at',
          'input',
          'results',
          'created',
          'updated',
          'full',
          'service',
          'status',
          'undone_at',
        ],
      },
    );
    return;
  }

  const service = await ctx.service();
  const record = await chooseRecord(ctx, dir, target, { agentId, service, findUndoRecord, listUndoRecords });
  const dryRun = opts.dryRun ?? false;
  const what = `the import of ${inputName(ctx, record)} (${record.id}, ${localTime(record.startedAt)})`;
  // Undo with nothing named takes the most recent import back, once: run again, it reads that
  // import again, and does not go on to the one before (a retried script would take back more
  // than it meant to), but names it.
  const undoneAt = target === undefined ? record.undoneAt : null;
  if (undoneAt !== null)
    ctx.io.note(`The most recent import, ${what}, was taken back at ${localTime(undoneAt)}.`);
  if (!dryRun && !opts.yes) {
    ctx.mayPrompt(`Undo ${what}?`, {
      flag: '--yes',
      hint: `${ctx.commandLine(['undo', ...(target ? [target] : []), '--yes'], { '--agent': ctx.options.agent })} (or --dry-run to see the plan first)`,
    });
    if (!ctx.io.isTTY.stdin || !ctx.io.isTTY.stderr) {
      throw new UsageError(`Refusing to undo ${what} without confirmation`, {
        hint: 'Not on a terminal: pass --yes to undo without asking (or --dry-run to see the plan).',
      });
    }
  }

  const client = await ctx.client();
  const controller = new AbortController();
  const stop = ctx.onInterrupt(() => controller.abort());
  const scripted = Boolean(ctx.options.output) || !ctx.io.isTTY.stdout;
  let spinner = dryRun
    ? undefined
    : await ctx.io.spinner(
        `Reading the ${plural(record.created + record.updated, 'contact')} of ${record.id}…`,
      );
  // Said once the plan is made (not under the spinner), before the question.
  const kept: string[] = [];
  let keptMore = 0;
  const keptBy = new Map<KeptReason, number>();
  let lastLine = Date.now();
  const sayKept = () => {
    for (const line of kept.splice(0)) ctx.io.warn(line);
    if (keptMore > 0) ctx.io.warn(`kept: ${keptMore} more (contacts undo --dry-run lists every one)`);
    keptMore = 0;
  };
  let report: UndoReport;
  try {
    const { maxRetries } = await ctx.settings();
    report = await undoImport({
      client,
      agentId,
      record: record.path,
      service,
      dryRun,
      // --max-retries (else the bulk commands' default, not a single call's).
      ...(maxRetries === undefined ? {} : { maxRetries }),
      signal: controller.signal,
      confirm: async (plan) => {
        spinner?.stop();
        sayKept();
        const go =
          opts.yes ||
          (await confirm(
            `Undo ${what}? It deletes ${plural(plan.toDelete, 'contact')} and restores ${plan.toRestore}` +
              (plan.kept ? `; the ${plan.kept} listed are kept as they are` : '') +
              '.',
            ctx.io,
          ));
        if (go) spinner = await ctx.io.spinner(`Undoing ${record.id}…`);
        return go;
      },
      onEvent: (event) => {
        if (event.type === 'step') {
          if (dryRun) showPlanned(ctx, format, event.step);
          if (event.step.action === 'kept')
            keptBy.set(event.step.reason, (keptBy.get(event.step.reason) ?? 0) + 1);
          if (dryRun) return;
          if (event.step.action === 'kept') {
            if (kept.length < KEPT_SHOWN) kept.push(keptLine(event.step));
            else keptMore++;
          }
        } else if (event.type === 'failed') ctx.io.failure(visible(`${event.external_id}: ${event.reason}`));
        else if (event.type === 'progress') {
          const line = `${event.done} of ${event.total} done`;
          spinner?.update(line);
          // Off a terminal (a CI log), a line every few seconds instead.
          if (!ctx.io.isTTY.stderr && Date.now() - lastLine >= PROGRESS_LINE_MS) {
            lastLine = Date.now();
            ctx.io.note(line);
          }
        }
      },
    });
  } catch (error) {
    spinner?.stop();
    if (error instanceof UndoStoppedError) {
      const r = error.report;
      ctx.io.failure(
        `${r.deleted} deleted, ${r.restored} restored before it stopped; run it again to finish.`,
      );
      throw error.cause;
    }
    throw error;
  } finally {
    stop();
  }
  spinner?.stop();
  sayKept();
  ctx.io.note(summary(report, what, keptBy));
  if (undoneAt !== null) {
    const before = (await listUndoRecords(dir, agentId)).find(
      (r) => r.service === record.service && r.undoneAt === null && r.startedAt < record.startedAt,
    );
    if (before)
      ctx.io.note(
        `The import before it, of ${inputName(ctx, before)} (${localTime(before.startedAt)}): ${ctx.commandLine(['undo', before.id], { '--agent': ctx.options.agent })}`,
      );
  }
  if (scripted && !dryRun) {
    await writeRecord(ctx.io.stdout, format, {
      import: record.id,
      deleted: report.deleted,
      restored: report.restored,
      already_done: report.alreadyDone,
      kept: report.kept,
      failed: report.failed,
      interrupted: report.interrupted,
    });
  }
  if (report.interrupted)
    throw new CliError('Undo interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
  if (report.failed > 0 && !report.dryRun)
    throw new CliError(`${report.failed} failed`, { exitCode: ExitCode.PARTIAL, silent: true });
}

/** The record named by `target` (a results file or an id), else the agent's newest for this service. */
async function chooseRecord(
  ctx: CommandContext,
  dir: string,
  target: string | undefined,
  find: {
    agentId: string;
    service: string;
    findUndoRecord: typeof import('../../undo/undo.js').findUndoRecord;
    listUndoRecords: typeof import('../../undo/record.js').listUndoRecords;
  },
): Promise<UndoRecordSummary> {
  const { agentId, service } = find;
  if (target !== undefined && RECORD_ID_PATTERN.test(target)) {
    const found = await find.findUndoRecord(dir, { agentId, service, id: target });
    if (!found)
      throw new UsageError(`No import ${target} to take back`, { hint: 'contacts undo --list shows them.' });
    return found;
  }
  if (target !== undefined) {
    const path = resolve(ctx.cwd, target);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile())
      throw new UsageError(
        `${target}: no such file (expected an import's --results file, or an id from contacts undo --list)`,
      );
    const found = await find.findUndoRecord(dir, { agentId, service, results: await realpath(path) });
    if (!found) {
      throw new UsageError(`No undo record names ${target} as its results file`, {
        hint:
          'It was imported with --no-undo, from another machine or data directory, or more than 20 imports of its agent ago. ' +
          `${ctx.commandLine(['delete', '--from', target])} deletes the contacts it says were created.`,
      });
    }
    return found;
  }
  const found = await find.findUndoRecord(dir, { agentId, service });
  if (found) return found;
  const elsewhere = (await find.listUndoRecords(dir, agentId))[0];
  throw new UsageError(`No import of agent ${agentId} into ${serviceName(service)} to take back`, {
    hint: elsewhere
      ? `The most recent import of agent ${agentId} went to ${serviceName(elsewhere.service)}: run contacts undo against that service.`
      : `Imports are recorded in ${dir} (contacts undo --list).`,
  });
}

function listed(ctx: CommandContext, r: UndoRecordSummary) {
  const state = r.undoneAt
    ? `undone ${localTime(r.undoneAt)}`
    : r.status === 'finished'
      ? r.full
        ? 'can be undone'
        : 'created contacts only'
      : 'interrupted';
  return {
    id: r.id,
    time: localTime(r.startedAt),
    file: inputName(ctx, r),
    created: r.created,
    updated: r.updated,
    service: serviceName(r.service),
    state,
  };
}

function serviceName(service: string): string {
  return service.startsWith('mock:') ? `the embedded mock (${service.slice(5)})` : service;
}

const inputName = (ctx: CommandContext, r: UndoRecordSummary) =>
  r.input === '-' ? 'stdin' : pathFromCwd(ctx, r.input);

function localTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const show = (v: unknown) => (v === null || v === undefined ? '(empty)' : JSON.stringify(v));

function fields(
  changes: Record<string, [unknown, unknown]>,
  how: (was: unknown, is: unknown) => string,
): string {
  return Object.entries(changes)
    .map(([field, [was, is]]) => `${field} ${how(was, is)}`)
    .join('; ');
}

function keptLine(step: Extract<UndoStep, { action: 'kept' }>): string {
  const differ = fields(step.changes, (left, now) => `(the import left ${show(left)}, now ${show(now)})`);
  return visible(`kept: ${step.external_id}: ${KEPT[step.reason]}${differ ? `: ${differ}` : ''}`);
}

function showPlanned(ctx: CommandContext, format: string, step: UndoStep): void {
  if (format === 'json' || format === 'ndjson') {
    ctx.io.stdout.write(`${JSON.stringify(step)}\n`);
    return;
  }
  const line =
    step.action === 'delete'
      ? `would delete ${step.external_id} (${step.id})`
      : step.action === 'restore'
        ? `would restore ${step.external_id}: ${fields(step.changes, (now, was) => `${show(now)} -> ${show(was)}`)}`
        : keptLine(step);
  ctx.io.stdout.write(`${visible(line)}\n`);
}

function summary(r: UndoReport, what: string, keptBy: ReadonlyMap<KeptReason, number>): string {
  const kept =
    keptBy.size === 0
      ? ''
      : ` Kept as they are: ${[...keptBy].map(([reason, n]) => `${n} ${KEPT_SHORT[reason]}`).join(', ')}.`;
  const done = r.alreadyDone ? ` ${r.alreadyDone} already gone or as they were.` : '';
  if (r.dryRun) {
    const whole = r.failed ? ` ${r.failed} cannot be restored whole (above).` : '';
    if (r.toDelete + r.toRestore === 0) return `Nothing to undo of ${what}.${done}${whole}${kept}`;
    return `Would delete ${r.toDelete} and restore ${r.toRestore} of ${what}.${done}${whole}${kept} Nothing was changed.`;
  }
  if (r.toDelete + r.toRestore === 0) return `Nothing to undo of ${what}.${done}${kept}`;
  const failed = r.failed ? `, ${r.failed} failed (above)` : '';
  const how = `${r.deleted} deleted, ${r.restored} restored${failed}`;
  const took = `${(r.durationMs / 1000).toFixed(1)}s`;
  if (r.interrupted) return `Interrupted after ${took}: ${how}. Run the same command again to finish.${kept}`;
  if (r.deleted + r.restored === 0)
    return `Nothing was undone of ${what}: ${r.failed} failed (above).${kept}`;
  return `Took back ${what} in ${took}: ${how}.${done}${kept}`;
}
