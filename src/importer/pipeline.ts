// The import pipeline, stage by stage: source (./stages/source.ts) -> rows (the records not yet
// landed) -> validate (./rows.ts) -> plan (./stages/row-planner.ts: lanes, in-file email conflicts) ->
// a sink (./stages/send-sink.ts, or ./stages/dry-run-sink.ts) -> report (./stages/report.ts).
// Every row either lands (and is checkpointed) or goes to the rejects file with its reason.
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
import { DEFAULT_BATCH_SIZE } from './defaults.js';
import { DryRunPlanner } from './dry-run-plan.js';
import { ImportError } from './errors.js';
import { nearlyRecognised } from './exports.js';
import { type CsvDelimiter, type ImportFormat, isTabular } from './format.js';
import { readAsExportTable } from './json-export.js';
import {
  type ColumnMapping,
  describeMapping,
  isGenericHeader,
  type MapOverride,
  resolveMapping,
  summarizeMapping,
} from './mapping.js';
import { checkImportOptions } from './options.js';
import type { OpenOutput } from './output-file.js';
import { createRowValidator, FileEvidence, type RowResult } from './rows.js';
import type { Cell, ImportSource, SourceRecord } from './sources/types.js';
import { DryRunSink } from './stages/dry-run-sink.js';
import { LookAlikeIds } from './stages/look-alike.js';
import { type ImportOutputs, openOutputs } from './stages/outputs.js';
import { type ImportEvent, type ImportReport, ImportTally } from './stages/report.js';
import { RowPlanner } from './stages/row-planner.js';
import { SendSink } from './stages/send-sink.js';
import type { ImportSink } from './stages/sink.js';
import {
  countForProgress,
  inputKind,
  openInputSource,
  readRecords,
  SAMPLE_MAX_CHARS,
  SAMPLE_ROWS,
  sampleRecords,
} from './stages/source.js';
import type { DateOrder } from './values.js';

export { DEFAULT_CONCURRENCY } from '../bulk/paced-run.js';
export type { ImportEvent, ImportReport, ImportStats } from './stages/report.js';
export type { ImportSink, RowOutcome } from './stages/sink.js';
export { DEFAULT_BATCH_SIZE };

/** Rows read before the first is validated, to learn what the file says of itself. */
const LOOK_AHEAD_ROWS = SAMPLE_ROWS;
/** How far reading ahead goes on while a date column's order is still open. */
const LOOK_AHEAD_MAX_ROWS = 100_000;
/**
 * The record text held ahead at most, whatever the row count: wide rows must not hold the file
 * in memory. Past it, a column still undecided stops the import (as at the row bound).
 */
export const LOOK_AHEAD_MAX_CHARS = SAMPLE_MAX_CHARS;

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
  /** CSV column overrides (`--map "Header=field"`). */
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
  /** Requests in flight at most (default 8); the scheduler halves it when the service asks for less. */
  concurrency?: number;
  /** Contacts per request (the batch form) at most; 1 sends one request per row. Default 1000. */
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
  override name = 'ImportStoppedError';
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
  if (kind === 'stdin' && options.resume)
    throw new ImportError('stdin cannot be resumed: import from a file to use --resume');
  if (kind === 'stream' && options.resume) {
    throw new ImportError(`${input} is not a regular file: it cannot be read again, so it cannot be resumed`);
  }
  if (options.timeZone !== undefined && canonicalTimeZone(options.timeZone) === undefined) {
    throw new ImportError(
      `Unknown time zone: ${options.timeZone} (expected an IANA name such as America/New_York, or UTC)`,
    );
  }

  // Both before anything is written, and at once: over a real link each is a round trip.
  const newestBefore = dryRun ? undefined : newestId(client, agentId, maxRetries);
  newestBefore?.catch(() => {}); // awaited below; an earlier failure must not leave it unhandled
  const definitions = await client.attributes.list({ agentId, maxRetries });
  const source = await openInputSource(
    input,
    {
      format: options.format,
      delimiter: options.delimiter,
      sheet: options.sheet,
      encoding: options.encoding,
      stdin: options.stdin,
    },
    options.signal,
  );
  // Everything that can refuse the import (mapping, the output paths) before a row is sent: the
  // input is closed when it does.
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    // A table's first rows are read before its columns are mapped: their values say what each
    // column holds, with the header's words.
    const sample =
      source.format === 'csv' || source.format === 'xlsx' ? await sampleRecords(source) : undefined;
    prepared = await prepare(options, source, sample, kind, definitions, dryRun, (header, example) =>
      emit({ type: 'note', message: localTimeNote(header, example) }),
    );
  } catch (error) {
    source.close();
    throw error;
  }
  const { validate, evidence, outputs, total, mapping } = prepared;
  const tally = new ImportTally({
    emit,
    outputs,
    total,
    progressIntervalMs: options.progressIntervalMs,
    dryRun,
  });
  const notes = source.notes ?? [];
  const checkpoint = outputs?.checkpoint;
  if (options.resume && checkpoint && !checkpoint.resumed) {
    // Said, so a finished import or a mistyped path is not sent again in full without a word.
    notes.push(
      `--resume: no unfinished import of ${source.name} to resume (no ${checkpoint.path}): importing every row`,
    );
  }
  if (checkpoint?.serviceUnrecorded) {
    const service = serviceName(options.service ?? client.baseUrl);
    notes.push(
      `--resume: the checkpoint ${checkpoint.path} does not say which service the run resumed imported into ` +
        `(an earlier version wrote it): taken to be this run's, ${service.startsWith('mock:') ? `the embedded mock (${service.slice(5)})` : service}`,
    );
  }
  let notesSaid = notes.length;
  emit({
    type: 'start',
    source: source.name,
    format: source.format,
    total,
    mapping: mapping ? describeMapping(mapping) : [],
    unmapped: mapping?.unmapped ?? [],
    resumed: outputs?.checkpoint?.resumed ?? false,
    // A vCard's columns are the importer's own: say how the cards are read instead.
    summary:
      source.format === 'vcard'
        ? 'Reading vCards: UID -> external_id (else the preferred EMAIL, else the TEL); FN, else N -> name; ' +
          'EMAIL (preferred) -> email; TEL (preferred, else mobile, else first) -> phonenumber; ' +
          'ADR country -> phone country'
        : mapping && summarizeMapping(mapping),
    keyFromEmail: mapping?.keyFromEmail,
    lookAlikes: mapping?.lookAlikes ?? [],
    // What reading the columns decided comes first: it is about the whole file.
    notes: [...(mapping?.decisions ?? []), ...notes],
    checkpointDiscarded: outputs?.checkpoint?.discarded ?? false,
    emptyStrings: options.emptyStrings ?? false,
    timeZone: prepared.timeZone,
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
  const planner = new RowPlanner({ serialize: !dryRun, keyFromEmail: mapping?.keyFromEmail !== undefined });
  const lookAlikes = new LookAlikeIds();

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
  let readFailure: { error: unknown } | undefined;
  let readToEnd = false;

  // Not async: a row that is rejected or skipped costs no promise, one sent costs the sink's own.
  const handle = (record: SourceRecord): Promise<void> | undefined => {
    const result: RowResult = validate(record);
    if (result.ok) {
      const alike = lookAlikes.check(result.input.external_id, record.line);
      if (alike) tally.notice(record.line, alike);
      if (result.notice) tally.notice(record.line, result.notice);
    }
    if (checkpoint?.hasLanded(record.row)) {
      // Landed in the run resumed: not sent again, but its email is held from here on.
      if (result.ok) planner.landedBefore(record, result.input);
      tally.skipped();
      return;
    }
    if (!result.ok) {
      tally.reject(record, result.reason);
      return;
    }
    const planned = planner.plan(record, result.input);
    if (!planned.ok) {
      tally.reject(record, planned.reason);
      return;
    }
    if (planned.repeats) {
      const { line, otherName } = planned.repeats;
      tally.repeatedKey(
        record.line,
        `has the key of line ${line} (external_id ${planned.row.key}): it ${dryRun ? 'would update' : 'updates'} that contact` +
          (otherName
            ? `, whose name there is ${JSON.stringify(otherName)} and here ${JSON.stringify(result.input.name)}`
            : ''),
      );
    }
    if (result.fixes) {
      tally.fixing(record, result.fixes);
      // Kept with the row: they go to the fixes file once it lands.
      planned.row.fixes = result.fixes;
    }
    return sink.accept(planned.row);
  };
  // The first rows are read before any is validated: what they say of the file (the order of its
  // slash dates, the countries of its international numbers) applies to every row, the first too.
  // While a date column is still undecided, reading ahead goes on.
  const ahead: SourceRecord[] | undefined = mapping ? [] : undefined;
  let aheadChars = 0;
  let orderUndecided = false;
  const releaseAhead = async (checkOrder = true) => {
    const undecided = evidence.undecided();
    if (checkOrder && undecided && !options.dateOrder) {
      orderUndecided = true;
      throw new ImportError(
        `${source.name}: column "${undecided.header}" has dates like ${undecided.example} that read both as M/D/YYYY and D/M/YYYY, ` +
          'and no date in it decides which: pass --date-order mdy (month first) or --date-order dmy (day first)',
      );
    }
    aheadChars = 0;
    for (const message of evidence.decisions()) emit({ type: 'note', message });
    for (const held of ahead!.splice(0)) {
      if (sink.failure || tally.writeFailure) break;
      const sending = handle(held);
      if (sending) await sending;
    }
  };
  let looking = ahead !== undefined;
  try {
    for await (const record of readRecords(source, options.signal)) {
      if (sink.failure || tally.writeFailure) break;
      tally.read();
      if (notes.length > notesSaid) {
        for (const message of notes.slice(notesSaid)) emit({ type: 'note', message });
        notesSaid = notes.length;
      }
      if (looking) {
        if (record.raw) evidence.observe(record.raw);
        ahead!.push(record);
        aheadChars += heldChars(record);
        if (
          aheadChars < LOOK_AHEAD_MAX_CHARS &&
          (ahead!.length < LOOK_AHEAD_ROWS || (evidence.pending && ahead!.length < LOOK_AHEAD_MAX_ROWS))
        )
          continue;
        looking = false;
        await releaseAhead();
        continue;
      }
      const sending = handle(record);
      if (sending) await sending;
    }
    if (looking) await releaseAhead();
    for (const message of notes.slice(notesSaid)) emit({ type: 'note', message });
    notesSaid = notes.length;
    readToEnd = !options.signal?.aborted;
  } catch (error) {
    // The input itself failed (a parse error): the rows read before it still land, then it is
    // reported. Those held ahead too, with what the rows read say of the file: a date column
    // they leave undecided reads as the rows do without it (its values go to the fixes file).
    readFailure = { error };
    if (ahead?.length && !orderUndecided) {
      try {
        await releaseAhead(false);
      } catch {
        // The read failure is what is reported; a sink failure is reported on its own.
      }
    }
  }
  await sink.finish();
  options.signal?.removeEventListener('abort', stopSending);
  const interrupted = Boolean(options.signal?.aborted) && (!readToEnd || dropped > 0);

  const fatal = sink.failure ?? tally.writeFailure ?? readFailure;
  const report = await tally.close(Boolean(fatal) || interrupted, interrupted, validate.notes);
  // A file that could not be written as the import closed stops it too: its checkpoint is kept.
  const failure = fatal ?? tally.writeFailure;
  if (failure) throw new ImportStoppedError(failure.error, report);
  return report;
}

/** Said once, at the first date-time without a zone when the import was given no time zone. */
function localTimeNote(header: string, example: string): string {
  return (
    `Column "${header}" has date-times without a zone (${example}): they are read as UTC. ` +
    'If the export wrote them in another zone, pass it, e.g. --time-zone America/New_York.'
  );
}

/** The text a held record keeps in memory (its cells), for the look-ahead's bound. */
function heldChars(record: SourceRecord): number {
  let n = 0;
  for (const cell of record.raw ?? []) n += cell?.length ?? 0;
  return n;
}

async function prepare(
  options: ImportOptions,
  source: ImportSource,
  sample: Cell[][] | undefined,
  kind: Awaited<ReturnType<typeof inputKind>>,
  definitions: Awaited<ReturnType<ContactsClient['attributes']['list']>>,
  dryRun: boolean,
  onLocalTime: (header: string, example: string) => void,
): Promise<{
  validate: ReturnType<typeof createRowValidator>;
  evidence: FileEvidence;
  outputs: ImportOutputs | undefined;
  total: number | undefined;
  mapping: ColumnMapping | undefined;
  /** The zone this file's date-times without one are read in, when it has such columns. */
  timeZone: string | undefined;
}> {
  let mapping: ColumnMapping | undefined;
  if (source.format === 'vcard' && options.maps?.length) {
    throw new ImportError('--map applies to columns; a vCard file fills the fields from its own properties');
  }
  // A JSON export the table knows (Zendesk's users) is read as one: its keys are columns.
  const tabular = isTabular(source.format);
  const json = tabular ? undefined : await readAsExportTable(source);
  if (tabular || json?.profile) {
    mapping = resolveMapping({
      header: source.header ?? [],
      definitions,
      overrides: options.maps,
      profile: json?.profile,
      sample,
    });
  }
  const keys = tabular ? source.header : json?.keys;
  if (keys && source.format !== 'vcard' && !mapping?.system && !options.maps?.length) {
    const near = nearlyRecognised(keys, isGenericHeader, !tabular);
    // Pushed, not replaced: the source adds to its own list as it reads.
    if (near) {
      source.notes ??= [];
      source.notes.push(near);
    }
  }
  if (!mapping && options.maps?.length) {
    throw new ImportError(
      '--map applies to CSV and workbook columns (and a recognised JSON export); JSON and NDJSON records use the contract field names',
    );
  }
  // The zone applies to date columns only: not to JSON records (the contract's own ISO
  // date-times), nor to this tool's own export (its times are UTC), nor to a file without dates.
  const dateAttributes = new Set(definitions.filter((d) => d.type === 'date').map((d) => d.name));
  const readsDates =
    mapping !== undefined &&
    !mapping.exact &&
    mapping.columns.some((targets) =>
      targets.some((t) => t.kind === 'attribute' && dateAttributes.has(t.name)),
    );
  const timeZone = readsDates ? options.timeZone : undefined;
  if (options.timeZone !== undefined && canonicalTimeZone(options.timeZone) !== 'UTC' && !readsDates) {
    const why = mapping?.exact
      ? 'this file is read as an export of this tool, whose date-times are UTC'
      : mapping
        ? undefined
        : "JSON records carry the contract's own date-times";
    if (why) {
      source.notes ??= [];
      source.notes.push(`--time-zone ${options.timeZone} is not applied: ${why}`);
    }
  }
  const evidence = new FileEvidence(mapping, definitions, {
    dateOrder: options.dateOrder,
    // Given a zone, even UTC, the user has said what such times are.
    onLocalTime: readsDates && options.timeZone === undefined ? onLocalTime : undefined,
  });
  const validate = createRowValidator({
    definitions,
    mapping,
    defaultCountry: options.defaultCountry,
    evidence,
    strict: options.strict,
    emptyStrings: options.emptyStrings,
    timeZone,
  });
  // A count is a pass of its own over the input: only a regular file can be read twice.
  // Counted for progress, and for the undo record: whether reading what the rows change costs
  // less than sending them depends on how many there are.
  const total =
    options.countTotal || (!dryRun && (options.undo ?? 'auto') === 'auto' && kind === 'file')
      ? await countForProgress(options.input, kind, source, options.encoding, options.sheet)
      : undefined;
  const outputs = dryRun
    ? undefined
    : await openOutputs({
        input: options.input,
        kind,
        source,
        agentId: options.agentId,
        service: serviceName(options.service ?? options.client.baseUrl),
        resume: options.resume ?? false,
        restart: options.restart ?? false,
        mapping,
        cwd: options.cwd,
        rejectsPath: options.rejectsPath,
        fixesPath: options.fixesPath,
        strict: options.strict,
        resultsPath: options.resultsPath,
        timeZone,
        defaultCountry: options.defaultCountry,
        dateOrder: options.dateOrder,
        undoDir: options.undoDir ?? undoDir(process.env),
        protect: options.protect,
        openFile: options.openFile,
      });
  return { validate, evidence, outputs, total, mapping, timeZone };
}

async function createSink(
  options: ImportOptions,
  kind: Awaited<ReturnType<typeof inputKind>>,
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
      onNote: (message) => emit({ type: 'note', message }),
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
