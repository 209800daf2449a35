// The import pipeline, in one direction: the source is opened (./stages/source.ts), the plan
// decides how its records are read (./plan.ts), the outputs are opened (./stages/outputs.ts),
// then a loop reads, validates and sends each row (./stages/row-loop.ts) to a sink
// (./stages/send-sink.ts, or ./stages/dry-run-sink.ts), and the tally reports (./stages/report.ts).
// Every row either lands (and is checkpointed) or goes to the rejects file with its reason; what
// the import says besides is told as events (notes), never polled.
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRIES } from '../bulk/paced-run.js';
import { Scheduler } from '../bulk/scheduler.js';
import type { ContactsClient } from '../client/client.js';
import { serviceName } from '../undo/record.js';
import { type UndoChoice, UndoRecorder } from '../undo/recorder.js';
import { undoDir } from '../util/data-dir.js';
import type { ProtectedPath } from '../util/output-path.js';
import { canonicalTimeZone } from '../util/time-zone.js';
import type { MapOverride } from './column-targets.js';
import { DEFAULT_BATCH_SIZE } from './defaults.js';
import { DryRunPlanner } from './dry-run-plan.js';
import { ImportError } from './errors.js';
import { FileEvidence } from './file-evidence.js';
import type { CsvDelimiter, ImportFormat } from './format.js';
import { describeMapping } from './mapping-description.js';
import { type ImportNote, NoteChannel, type ResumeNote } from './notes.js';
import { checkImportOptions } from './options.js';
import type { OpenOutput } from './output-file.js';
import { type ImportPlan, planImport } from './plan.js';
import { createRowValidator } from './row-validator.js';
import type { ImportSource } from './sources/types.js';
import { DryRunSink } from './stages/dry-run-sink.js';
import { LookAhead } from './stages/look-ahead.js';
import { type ImportOutputs, type OutputsOptions, openOutputs } from './stages/outputs.js';
import { type ImportEvent, type ImportReport, ImportTally } from './stages/report.js';
import { runRows } from './stages/row-loop.js';
import { SendSink } from './stages/send-sink.js';
import type { ImportSink } from './stages/sink.js';
import { countForProgress, type InputKind, inputKind, openInputSource } from './stages/source.js';
import { cleanCell, type DateOrder } from './values.js';

export { DEFAULT_CONCURRENCY } from '../bulk/paced-run.js';
export type { ImportNote } from './notes.js';
export type { ImportPlan, KeyRule, Reading } from './plan.js';
export { LOOK_AHEAD_MAX_CHARS } from './stages/look-ahead.js';
export type { ImportEvent, ImportReport, ImportStats } from './stages/report.js';
export type { ImportSink, RowOutcome } from './stages/sink.js';
export { DEFAULT_BATCH_SIZE };

export interface ImportOptions {
  client: ContactsClient;
  agentId: string;
  /** A file path, or `-` for stdin. */
  input: string;
  stdin?: NodeJS.ReadableStream;
  cwd?: string;
  format?: ImportFormat;
  delimiter?: CsvDelimiter;
  /** Workbooks: the sheet to import, by name; default the first. */
  sheet?: string;
  /** ISO country code for national phone numbers; every number is sent in E.164. */
  defaultCountry?: string;
  /** A TextDecoder label for the input's bytes; default UTF-8 (checked), or UTF-16 by its BOM. */
  encoding?: string;
  /** Column overrides of a table (a CSV, a workbook, a known tool's JSON export): what a column fills. */
  maps?: MapOverride[];
  /** How slash dates (`3/4/2024`) read when a column's values do not decide it. */
  dateOrder?: DateOrder;
  /**
   * The IANA zone (`America/New_York`) whose wall clock a CSV or workbook date-time without a
   * zone is read in; default UTC. Stored in UTC either way.
   */
  timeZone?: string;
  /** A field that cannot be read rejects its whole row, instead of going to the fixes file. */
  strict?: boolean;
  /** A quoted empty cell (`""`) is the empty string (clears a name or text attribute), as before. */
  emptyStrings?: boolean;
  /** Where the fields left out of contacts that landed go (default: <file>.fixes.<ext>). */
  fixesPath?: string;
  /** Requests in flight at most (default `DEFAULT_CONCURRENCY`); the scheduler halves it when the service asks for less. */
  concurrency?: number;
  /** Contacts per request (the batch form) at most; 1 sends one request per row. Default `DEFAULT_BATCH_SIZE`. */
  batchSize?: number;
  /** Read and check everything, report what would happen, write nothing. */
  dryRun?: boolean;
  /** Skip the rows an earlier, interrupted run of the same file landed. */
  resume?: boolean;
  /**
   * Discard the checkpoint of an earlier, unfinished run of the same file and import every row.
   * Without it or `resume`, such a checkpoint refuses the run (UnfinishedImportError): nothing is
   * sent or written, the checkpoint is kept. A dry run neither refuses nor touches it.
   */
  restart?: boolean;
  rejectsPath?: string;
  /** One record per landed row (line, external_id, id, action), CSV or NDJSON by extension. */
  resultsPath?: string;
  /** Retries per request (5xx, 429, connection failures) before the import stops. */
  maxRetries?: number;
  /** Count the file's rows first (regular files only), so progress can show a total. */
  countTotal?: boolean;
  /** Ctrl-C: stop reading at once, let requests in flight finish, keep the checkpoint. */
  signal?: AbortSignal;
  onEvent?: (event: ImportEvent) => void;
  /** Milliseconds between progress events. */
  progressIntervalMs?: number;
  /**
   * What the import records so that `undoImport()` can take it back (its report's `undo`):
   * 'auto' (default) the state before of every contact it changes, when reading those costs no
   * more requests than the import sends (else only what it creates, and it says so); 'full'
   * always; 'off' nothing.
   */
  undo?: UndoChoice;
  /** Where undo records are kept; default the tool's data directory (`dataDir()`). */
  undoDir?: string;
  /**
   * The service as the undo record and the checkpoint name it (an undo or a resume elsewhere is
   * refused): `mock:<data file>` for an embedded mock, whose base URL changes each run; default the
   * base URL.
   */
  service?: string;
  /**
   * Files no output may replace, besides the input and the undo records, which are always kept
   * (the CLI names its config file and the mock's database). A path that would is refused with
   * an `OutputPathError` before anything is sent.
   */
  protect?: readonly ProtectedPath[];
  /** Opens the rejects, fixes and results files (tests: a disk that fills up). */
  openFile?: OpenOutput;
}

/** An import that stopped on an error it cannot isolate to a row (auth, service down, network). */
export class ImportStoppedError extends ImportError {
  readonly report: ImportReport;
  constructor(cause: unknown, report: ImportReport) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Import stopped: ${reason}`, { cause });
    this.report = report;
  }
}

export async function runImport(options: ImportOptions): Promise<ImportReport> {
  checkImportOptions(options);
  const { client, agentId, input } = options;
  const dryRun = options.dryRun ?? false;
  const maxRetries = options.maxRetries ?? DEFAULT_RETRIES;
  const emit = options.onEvent ?? (() => {});
  const kind = await inputKind(input);
  checkOptions(options, kind);

  // Both before anything is written, and at once: over a real link each is a round trip.
  const newestBefore = dryRun ? undefined : newestId(client, agentId, maxRetries);
  newestBefore?.catch(() => {}); // awaited below; an earlier failure must not leave it unhandled
  const definitions = await client.attributes.list({ agentId, maxRetries });
  // What the import says of the file and of itself: held until it starts, then told as it comes.
  const notes = new NoteChannel((note) => emit({ type: 'note', ...note }));
  // Said as they come, and counted in the report: a script reads what was not imported there.
  const sectionsNotRead: ImportReport['sectionsNotRead'] = [];
  let sheetsNotRead: string[] = [];
  const say = (note: ImportNote) => {
    if (note.code === 'section_not_read') sectionsNotRead.push({ lines: note.lines, title: note.title });
    if (note.code === 'sheets_not_read') sheetsNotRead = note.others;
    notes.say(note);
  };
  // What was said of the input may be why it failed (the workbook's other sheets, an encoding):
  // said before the error.
  const sayHeld = () => {
    for (const note of notes.start()) emit({ type: 'note', ...note });
  };
  let source: Awaited<ReturnType<typeof openInputSource>>;
  try {
    source = await openInputSource(
      input,
      {
        format: options.format,
        delimiter: options.delimiter,
        sheet: options.sheet,
        encoding: options.encoding,
        stdin: options.stdin,
        onNote: say,
      },
      options.signal,
    );
  } catch (error) {
    sayHeld();
    throw error;
  }
  // Everything that can refuse the import (the plan, the output paths) before a row is sent: the
  // input is closed when it does.
  let plan: ImportPlan;
  let total: number | undefined;
  let outputs: ImportOutputs | undefined;
  let evidence: FileEvidence;
  try {
    plan = await planImport(source, {
      definitions,
      maps: options.maps,
      timeZone: options.timeZone,
      dateOrder: options.dateOrder,
      defaultCountry: options.defaultCountry,
      strict: options.strict,
      emptyStrings: options.emptyStrings,
      onNote: say,
    });
    // A count is a pass of its own over the input: only a regular file can be read twice.
    // Counted for progress, and for the undo record: whether reading what the rows change costs
    // less than sending them depends on how many there are.
    total =
      options.countTotal || (!dryRun && (options.undo ?? 'auto') === 'auto' && kind === 'file')
        ? await countForProgress(input, kind, source, options.encoding, options.sheet)
        : undefined;
    // What the file says of itself, read ahead of the first row (a table's), then as rows are read.
    evidence = new FileEvidence(plan.mapping, definitions, {
      dateOrder: plan.dateOrder,
      watchLocalTimes: plan.watchLocalTimes,
      workbook: plan.format === 'xlsx',
    });
    outputs = dryRun
      ? undefined
      : await openOutputs(outputsOptions(options, kind, source, plan, say, evidence));
  } catch (error) {
    source.close();
    sayHeld();
    throw error;
  }
  const { mapping } = plan;
  const tally = new ImportTally({
    emit,
    outputs,
    total,
    progressIntervalMs: options.progressIntervalMs,
    dryRun,
  });
  const checkpoint = outputs?.checkpoint;
  if (options.resume && checkpoint && !checkpoint.resumed) {
    // Said, so a finished import or a mistyped path is not sent again in full without a word.
    say({
      code: 'resume_nothing',
      message: `No unfinished import of ${source.name} to resume (no ${checkpoint.path}): importing every row`,
      input: source.name,
      checkpoint: checkpoint.path,
    });
  }
  if (checkpoint?.serviceUnrecorded) {
    const service = serviceName(options.service ?? client.baseUrl);
    say({
      code: 'resume_service_unrecorded',
      message:
        `The checkpoint ${checkpoint.path} does not say which service the run resumed imported into ` +
        `(an earlier version wrote it): taken to be this run's, ${service.startsWith('mock:') ? `the embedded mock (${service.slice(5)})` : service}`,
      checkpoint: checkpoint.path,
      service,
    });
  }
  emit({
    type: 'start',
    source: source.name,
    format: source.format,
    total,
    plan,
    mapping: mapping ? describeMapping(mapping) : [],
    unmapped: mapping?.unmapped ?? [],
    unmappedTypes: Object.fromEntries(mapping?.unmappedTypes ?? []),
    resumed: checkpoint?.resumed ?? false,
    keyFromEmail: mapping?.keyFromEmail,
    lookAlikes: mapping?.lookAlikes ?? [],
    // What reading the columns decided comes first: it is about the whole file.
    notes: [
      ...(mapping?.decisions ?? []).map((message) => ({ code: 'column_decision' as const, message })),
      ...notes.start(),
    ],
    checkpointDiscarded: checkpoint?.discarded ?? false,
    emptyStrings: plan.emptyStrings,
    timeZone: plan.timeZone,
  });

  let sink: ImportSink;
  try {
    sink = await createSink(options, kind, newestBefore, maxRetries, total, emit, outputs, (outcome) =>
      tally.outcome(outcome),
    );
  } catch (error) {
    source.close();
    await tally.close(true, false);
    throw error;
  }
  tally.watch(() => sink.link);

  const validate = createRowValidator({
    definitions,
    mapping,
    defaultCountry: plan.defaultCountry,
    evidence,
    strict: plan.strict,
    emptyStrings: plan.emptyStrings,
    timeZone: plan.timeZone,
  });

  // Ctrl-C: reading stops at once (readRecords), and so does sending, also once reading is done
  // and the rows read are on their way: rows not sent are left to a resume.
  let dropped = 0;
  const stopSending = () => {
    dropped = sink.stop();
  };
  options.signal?.addEventListener('abort', stopSending, { once: true });
  // A file that cannot be written (a full disk) stops sending as Ctrl-C does: what is sent from
  // then on could not be checkpointed.
  if (outputs) outputs.onFailure = stopSending;
  if (outputs?.failure) stopSending();
  const { readFailure, readToEnd } = await runRows({
    plan,
    source,
    signal: options.signal,
    validate,
    lookAhead: mapping ? new LookAhead(evidence, source.name, say) : undefined,
    landed: checkpoint && ((row) => checkpoint.hasLanded(row)),
    sink,
    tally,
    say,
    dryRun,
  });
  await sink.finish();
  options.signal?.removeEventListener('abort', stopSending);
  const interrupted = Boolean(options.signal?.aborted) && (!readToEnd || dropped > 0);

  const fatal = sink.failure ?? tally.writeFailure ?? readFailure;
  const report = await tally.close(Boolean(fatal) || interrupted, interrupted, validate.notes);
  report.sectionsNotRead = sectionsNotRead;
  report.sheetsNotRead = sheetsNotRead;
  // A file that could not be written as the import closed stops it too: its checkpoint is kept.
  const failure = fatal ?? tally.writeFailure;
  if (failure) throw new ImportStoppedError(failure.error, report);
  return report;
}

/** The options that refuse the import before anything is read. */
function checkOptions(options: ImportOptions, kind: InputKind): void {
  if (kind !== 'file' && options.resume) {
    throw new ImportError(
      kind === 'stdin'
        ? 'stdin cannot be resumed: import from a file to resume'
        : `${options.input} is not a regular file: it cannot be read again, so it cannot be resumed`,
      { detail: { code: 'not_resumable', input: options.input, kind } },
    );
  }
  if (options.timeZone !== undefined && canonicalTimeZone(options.timeZone) === undefined) {
    throw new ImportError(
      `Unknown time zone: ${options.timeZone} (expected an IANA name such as America/New_York, or UTC)`,
      { detail: { code: 'unknown_time_zone', timeZone: options.timeZone } },
    );
  }
}

function outputsOptions(
  options: ImportOptions,
  kind: InputKind,
  source: ImportSource,
  plan: ImportPlan,
  onNote: (note: ResumeNote) => void,
  evidence: FileEvidence,
): OutputsOptions {
  return {
    input: options.input,
    kind,
    source,
    agentId: options.agentId,
    service: serviceName(options.service ?? options.client.baseUrl),
    resume: options.resume ?? false,
    restart: options.restart ?? false,
    mapping: plan.mapping,
    cwd: options.cwd,
    rejectsPath: options.rejectsPath,
    fixesPath: options.fixesPath,
    strict: plan.strict,
    resultsPath: options.resultsPath,
    timeZone: plan.timeZone,
    defaultCountry: plan.defaultCountry,
    dateOrder: plan.dateOrder,
    undoDir: options.undoDir ?? undoDir(process.env),
    protect: options.protect,
    openFile: options.openFile,
    onNote,
    asRead: (index, cell) => evidence.isoDate(index, cleanCell(cell), plan.timeZone),
  };
}

async function createSink(
  options: ImportOptions,
  kind: InputKind,
  /** The agent's newest contact id before the run; undefined for a dry run. */
  newestBefore: Promise<string> | undefined,
  maxRetries: number,
  total: number | undefined,
  emit: (event: ImportEvent) => void,
  outputs: ImportOutputs | undefined,
  onOutcome: ConstructorParameters<typeof DryRunSink>[1],
): Promise<ImportSink> {
  const { client, agentId } = options;
  if (newestBefore === undefined || outputs === undefined) {
    // Which external_ids exist now, and which the file has created so far.
    const planner = new DryRunPlanner(client, agentId, maxRetries);
    await planner.start(total);
    return new DryRunSink(planner, onOutcome);
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const choice = options.undo ?? 'auto';
  if (choice !== 'off') {
    const resultsPath = outputs.results?.path;
    const recorder = await UndoRecorder.start({
      client,
      agentId,
      maxRetries,
      dir: options.undoDir ?? undoDir(process.env),
      service: serviceName(options.service ?? client.baseUrl),
      input: kind === 'stdin' ? '-' : resolve(options.cwd ?? process.cwd(), options.input),
      results: resultsPath ? await realpath(resolve(options.cwd ?? process.cwd(), resultsPath)) : null,
      choice,
      rows: total === undefined ? undefined : total - (outputs.checkpoint?.landedCount ?? 0),
      batchSize,
      resumeRecord: outputs.checkpoint?.resumed ? (outputs.checkpoint.undoRecord ?? null) : undefined,
      onNote: (note) => emit({ type: 'note', ...note }),
    });
    outputs.undo = recorder;
    if (outputs.checkpoint) outputs.checkpoint.undoRecord = recorder.record.path;
  }
  const recorder = outputs.undo;
  return new SendSink({
    client,
    agentId,
    maxRetries,
    beforeSend: recorder && ((rows) => recorder.beforeSend(rows)),
    batchSize,
    scheduler: new Scheduler({ max: options.concurrency ?? DEFAULT_CONCURRENCY }),
    mayPause: kind !== 'file',
    onOutcome,
    emit,
    newestIdBefore: await newestBefore,
  });
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
