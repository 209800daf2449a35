// `contacts import <file|->`: the importer with progress on stderr, a summary, and the exit
// code scripts can act on (0 all landed, 8 some rejected, 130 interrupted).
import { resolve } from 'node:path';
import type { MapOverride } from '../../importer/column-targets.js';
import type { CsvDelimiter, ImportFormat } from '../../importer/format.js';
import type { ImportReport } from '../../importer/pipeline.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import {
  closingLines,
  createProgress,
  diffWriter,
  pathFromCwd,
  summaryLine,
  summaryRecord,
} from '../output/import-report.js';
import { plural } from '../output/plural.js';
import { writeRecord } from '../output/render.js';
import type { ImportCommandOptions } from './import-command.js';

export type { ImportCommandOptions };

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
  const importer = await import('../../importer/index.js');
  const { runImport, ImportStoppedError } = await import('../../importer/pipeline.js');
  const format: ImportFormat | undefined = opts.format ? importer.parseFormatOption(opts.format) : undefined;
  const delimiter = opts.delimiter === undefined ? undefined : DELIMITERS[opts.delimiter];
  if (opts.diff && !opts.dryRun)
    throw new UsageError('--diff goes with --dry-run: it shows what an import would change');
  if (opts.delimiter !== undefined && !delimiter) {
    throw new UsageError(`--delimiter ${opts.delimiter}: expected one of , ; tab`);
  }
  for (const [flag, value] of [
    ['--rejects', opts.rejects],
    ['--fixes', opts.fixes],
    ['--results', opts.results],
  ] as const) {
    if (value === '-') {
      const what = flag.slice(2);
      throw new UsageError(
        `${flag} -: the ${what} go to a file, not to stdout (it carries the summary): name a file, e.g. ${flag} ${what}.csv`,
      );
    }
  }
  const { combineMaps, parseMapFile, parseMapOption } = await import('../map-options.js');
  const flagMaps: MapOverride[] = [];
  for (const value of opts.map ?? []) {
    try {
      flagMaps.push(parseMapOption(value));
    } catch (error) {
      throw await attributeHint(ctx, error, value);
    }
  }
  const fileMaps: MapOverride[] = opts.mapFile
    ? parseMapFile(
        await (await import('node:fs/promises')).readFile(resolve(ctx.cwd, opts.mapFile), 'utf8'),
        opts.mapFile,
      )
    : [];
  const maps = combineMaps(fileMaps, flagMaps);
  const encoding = opts.encoding === undefined ? undefined : importer.parseEncodingOption(opts.encoding);
  const path = file === '-' ? '-' : resolve(ctx.cwd, file);
  const [client, agentId, outFormat, settings, service] = await Promise.all([
    ctx.client(),
    ctx.agent(),
    ctx.format(),
    ctx.settings(),
    ctx.service(),
  ]);
  if (settings.defaultCountry !== undefined) {
    const { isPhoneCountry } = await import('../../client/phone.js');
    if (!isPhoneCountry(settings.defaultCountry)) {
      throw new UsageError(
        `Unknown default country ${settings.defaultCountry}: no country has that code (use an ISO 3166 code such as GB, US or DE)`,
      );
    }
  }
  const { undoDir } = await import('../../util/data-dir.js');
  const { outputPathRefusal, protectedPaths } = await import('../output-paths.js');
  const protect = [
    ...(await protectedPaths(ctx)),
    // Every file the command reads is an input no output may replace.
    ...(opts.mapFile
      ? [{ path: resolve(ctx.cwd, opts.mapFile), what: 'the mapping file (--map-file)' }]
      : []),
  ];

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
      sheet: opts.sheet,
      encoding,
      defaultCountry: settings.defaultCountry,
      ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
      maps,
      concurrency: opts.concurrency,
      batchSize: opts.batchSize,
      rejectsPath: opts.rejects === undefined ? undefined : resolve(ctx.cwd, opts.rejects),
      resultsPath: opts.results === undefined ? undefined : resolve(ctx.cwd, opts.results),
      fixesPath: opts.fixes === undefined ? undefined : resolve(ctx.cwd, opts.fixes),
      dateOrder: opts.dateOrder,
      timeZone: settings.timeZone,
      strict: opts.strict,
      emptyStrings: opts.emptyStrings,
      resume: opts.resume,
      restart: opts.restart,
      dryRun: opts.dryRun,
      undo: opts.undo === false ? 'off' : opts.undoable ? 'full' : 'auto',
      undoDir: undoDir(ctx.env),
      service,
      protect,
      countTotal: true,
      signal: controller.signal,
      onEvent: progress.event,
    });
  } catch (err) {
    progress.stop();
    const { checkpointRefusal, importUsageError } = await import('../output/import-words.js');
    if (err instanceof importer.OutputPathError) {
      throw outputPathRefusal(ctx, err, {
        rejects: { flag: '--rejects', value: opts.rejects },
        fixes: { flag: '--fixes', value: opts.fixes },
        results: { flag: '--results', value: opts.results },
      });
    }
    if (err instanceof ImportStoppedError && err.cause instanceof importer.OutputWriteError) {
      // A full disk ends the import as Ctrl-C does: unfinished, its checkpoint kept, resumable.
      const r = err.report;
      ctx.io.failure(
        `${r.created + r.updated} rows landed, ${r.rejected} rejected before the import stopped.`,
      );
      if (r.rejectsFile) ctx.io.failure(`Rejected rows so far: ${pathFromCwd(ctx, r.rejectsFile)}`);
      if (r.fixesFile) ctx.io.failure(`Fields left out so far: ${pathFromCwd(ctx, r.fixesFile)}`);
      const { errno } = err.cause;
      const fix =
        errno === 'ENOSPC' || errno === 'EDQUOT'
          ? 'Free some space'
          : errno === 'EFBIG'
            ? 'Raise the file size limit (ulimit -f)'
            : 'Fix the cause';
      throw new CliError(err.cause.message, {
        exitCode: ExitCode.INTERRUPTED,
        hint: r.checkpointFile
          ? `${fix}, then run the same command with --resume to send the rest.`
          : `${fix}; rows read from stdin or a pipe cannot be resumed: import the rest from a file.`,
        cause: err.cause,
      });
    }
    if (err instanceof ImportStoppedError) {
      const r = err.report;
      const landed = r.created + r.updated;
      // A broken file is fixed by editing it, which changes it: the checkpoint no longer
      // matches, and re-importing it whole is the way on (upserts land the same rows again).
      const fileProblem = err.cause instanceof importer.ImportError;
      ctx.io.failure(
        (r.dryRun
          ? `${plural(r.rows, 'row')} checked before the dry run stopped; nothing was written.`
          : `${plural(landed, 'row')} landed, ${r.rejected} rejected before the import stopped.`) +
          (fileProblem
            ? landed > 0
              ? ' Fix the file, then import it again: rows that landed are updated to the same values.'
              : ''
            : r.checkpointFile
              ? ' Fix the cause, then run the same command with --resume to send the rest.'
              : ''),
      );
      if (r.rejectsFile) ctx.io.failure(`Rejected rows so far: ${pathFromCwd(ctx, r.rejectsFile)}`);
      if (r.fixesFile) ctx.io.failure(`Fields left out so far: ${pathFromCwd(ctx, r.fixesFile)}`);
      throw err.cause instanceof importer.ImportError ? importUsageError(err.cause) : err.cause;
    }
    if (err instanceof importer.CheckpointMismatchError) throw checkpointRefusal(err);
    // These are worded with their flags where every error is (../errors.ts).
    if (err instanceof importer.UnfinishedImportError || err instanceof importer.OutputWriteError) throw err;
    if (err instanceof importer.ImportError) {
      progress.sayContextOfError();
      throw importUsageError(err);
    }
    throw err;
  } finally {
    stopListening();
  }
  progress.stop();

  ctx.io.note(summaryLine(report));
  for (const line of closingLines(report, progress.hinted)) ctx.io.note(line);
  if (report.rejectsFile) {
    ctx.io.note(
      `Rejected rows: ${pathFromCwd(ctx, report.rejectsFile)} (fix them and import that file again).`,
    );
  }
  if (report.fixesFile) {
    // A resume appends to the fixes of the run it resumes, which may hold all of them.
    const which =
      report.fixed > 0
        ? `${report.fixed} ${report.fixed === 1 ? 'contact' : 'contacts'} that landed`
        : 'contacts that landed in the run resumed';
    ctx.io.note(
      `Fields left out of ${which}: ${pathFromCwd(ctx, report.fixesFile)} (correct them and import that file as is).`,
    );
  }
  if (report.resultsFile)
    ctx.io.note(`Results of the rows that landed: ${pathFromCwd(ctx, report.resultsFile)}.`);
  if (report.undo && !report.interrupted) {
    const how = ctx.commandLine(
      ['undo', report.resultsFile ? pathFromCwd(ctx, report.resultsFile) : report.undo.id],
      { '--agent': ctx.options.agent },
    );
    if (report.undo.full) ctx.io.note(`To take this import back: ${how}`);
    else if (report.created > 0)
      ctx.io.note(
        `To take this import back: ${how} (it deletes the ${plural(report.created, 'contact')} created; the ${report.updated} updated ${report.updated === 1 ? 'stays as it is, its' : 'stay as they are, their'} state before was not recorded: --undoable records it)`,
      );
    else
      ctx.io.note(
        `This import cannot be taken back: it created nothing, and the state before of the ${plural(report.updated, 'contact')} it updated was not recorded (--undoable records it).`,
      );
  }
  if (report.interrupted) {
    // Said even under --quiet: it is the one thing the user needs at this moment.
    ctx.io.failure(
      report.checkpointFile
        ? 'Run the same command with --resume to send the rest.'
        : 'Rows read from stdin or a pipe cannot be resumed: import the rest from a file.',
    );
  }
  // A person at a terminal has the sentence above; the record is for scripts (or -o table).
  if (ctx.options.output || !ctx.io.isTTY.stdout) {
    // After --diff's rows, one object a line: the summary is the stream's last line.
    const format = diff && outFormat === 'json' ? 'ndjson' : outFormat;
    await writeRecord(ctx.io.stdout, format, summaryRecord(report), ctx.io.table);
  }

  // The summary has said it all; what is left is the code a script acts on, decided in the CLI's
  // one exit-code map like every other outcome.
  if (report.interrupted) {
    throw new CliError('Import interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
  }
  if (report.rejected > 0) {
    throw new CliError(`${plural(report.rejected, 'row')} rejected`, {
      exitCode: ExitCode.PARTIAL,
      silent: true,
    });
  }
}

/**
 * `--map Plan=plan` where the agent has an attribute `plan`: the error says to write `attr.plan`.
 * Asked of the service only for a mapping that is wrong anyway.
 */
async function attributeHint(ctx: CommandContext, error: unknown, value: string): Promise<unknown> {
  const { MappingError } = await import('../../importer/errors.js');
  const target =
    error instanceof MappingError && error.detail?.code === 'unknown_target'
      ? error.detail.target
      : undefined;
  if (!target) return error;
  const [client, agentId] = await Promise.all([ctx.client(), ctx.agent()]);
  const definitions = await client.attributes.list({ agentId }).catch(() => []);
  const match = definitions.find((d) => d.name === target.toLowerCase());
  if (!match) return error;
  return new UsageError((error as Error).message, {
    hint: `${match.name} is a custom attribute${match.archived ? ' (archived)' : ''}: --map "${value.slice(0, value.lastIndexOf('='))}=attr.${match.name}".`,
    cause: error,
  });
}
