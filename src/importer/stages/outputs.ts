// The files an import writes beside its requests: the resume checkpoint, the rejects, fixes and
// results files. Every path is checked by the one output-path rule before any is opened and
// before anything is sent, so a rejects path in a missing directory (or naming the input, the
// config file, another output) stops the import at once with a message naming it, not at the
// first reject with half the rows sent. The three files of records are written the one way
// (../output-file.ts); the checkpoint records how long the fixes and results files were when it
// claimed its rows, and a resume appends to them from there.

import { constants } from 'node:fs';
import { copyFile, open, realpath, rm, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { UndoRecorder } from '../../undo/recorder.js';
import { checkOutputPaths, type PlannedOutput, type ProtectedPath } from '../../util/output-path.js';
import { removeStaleTemps } from '../../util/write-file-atomic.js';
import { defaultCheckpointPath, ImportCheckpoint, importSettings, type OutputMark } from '../checkpoint.js';
import { ImportError } from '../errors.js';
import { FixesWriter } from '../fixes.js';
import { defaultFixesPath, defaultRejectsPath, isTabular } from '../format.js';
import type { ColumnMapping } from '../mapping.js';
import { mappingRecord } from '../mapping-description.js';
import type { ResumeNote } from '../notes.js';
import type { OpenOutput } from '../output-file.js';
import { createRejectsWriter, isRejectsFile, type RejectsWriter } from '../rejects.js';
import { ResultsWriter, resultsFormat } from '../results.js';
import type { ImportSource } from '../sources/types.js';
import type { InputKind } from './source.js';

export interface ImportOutputs {
  /** Regular files only: a pipe cannot be read again, so there is nothing to resume. */
  checkpoint: ImportCheckpoint | undefined;
  rejects: RejectsWriter;
  /** The fields left out of contacts that landed; with `strict`, none (such rows are rejects). */
  fixes: FixesWriter | undefined;
  results: ResultsWriter | undefined;
  /** The undo record, once the import has read what it needs (set by the pipeline). */
  undo?: UndoRecorder | undefined;
  /**
   * The first write that failed (a full disk) of any of these files: the import stops, and a
   * resume goes on from the checkpoint as it was last written.
   */
  failure: Error | undefined;
  /** Told of that failure when it happens (set by the pipeline, to stop sending). */
  onFailure?: ((error: Error) => void) | undefined;
  /**
   * Once the rejects and fixes files are closed: the copy of an earlier run's file (see
   * `keepEarlier`) is removed where the file is as it was, and said otherwise.
   */
  settleEarlier(): Promise<void>;
}

export interface OutputsOptions {
  input: string;
  kind: InputKind;
  source: ImportSource;
  agentId: string;
  /** The service written to (`serviceName()`): a resume elsewhere is refused. */
  service?: string | undefined;
  resume: boolean;
  /** Discard the checkpoint of an unfinished import of the input (else it refuses the run). */
  restart?: boolean | undefined;
  mapping: ColumnMapping | undefined;
  cwd?: string | undefined;
  rejectsPath?: string | undefined;
  fixesPath?: string | undefined;
  /** Unreadable fields reject their row: no fixes file. */
  strict?: boolean | undefined;
  resultsPath?: string | undefined;
  /** The zone date-times without one are read in: a resume must read them in the same. */
  timeZone?: string | undefined;
  /** What places national numbers and reads open slash dates: a resume must use the same. */
  defaultCountry?: string | undefined;
  dateOrder?: string | undefined;
  /** Where undo records are kept: no output may be written there. */
  undoDir?: string | undefined;
  /** Files no output may replace besides the input (the config file, a database). */
  protect?: readonly ProtectedPath[] | undefined;
  /** Opens the files of records (tests: a disk that fills up). */
  openFile?: OpenOutput | undefined;
  /** Told what a resume finds of the files the run resumed wrote. */
  onNote?: ((note: ResumeNote) => void) | undefined;
  /** A rejected row's cell as the run read it where its text alone would not say (see RejectsWriter). */
  asRead?: ((index: number, cell: string) => string | undefined) | undefined;
}

export async function openOutputs(options: OutputsOptions): Promise<ImportOutputs> {
  const { input, kind, source } = options;
  const checkpointPath = kind === 'file' ? defaultCheckpointPath(input) : undefined;
  const rejectsPath = options.rejectsPath ?? defaultRejectsPath(input, source.format, options.cwd);
  const fixesPath = options.strict
    ? undefined
    : (options.fixesPath ?? defaultFixesPath(input, source.format, options.cwd));
  if (options.resultsPath) resultsFormat(options.resultsPath);
  // One rule for all of them (../../util/output-path.ts), each against the others too.
  const planned: PlannedOutput[] = [];
  if (checkpointPath) {
    planned.push({
      output: 'checkpoint',
      what: 'the resume checkpoint',
      path: checkpointPath,
      hint: '(it sits beside the input: import a copy from a directory you can write to)',
    });
  }
  // The files of records are written in place: an existing one must itself be writable.
  planned.push({ output: 'rejects', what: 'the rejects file', path: rejectsPath, inPlace: true });
  if (fixesPath) planned.push({ output: 'fixes', what: 'the fixes file', path: fixesPath, inPlace: true });
  if (options.resultsPath) {
    planned.push({ output: 'results', what: 'the results file', path: options.resultsPath, inPlace: true });
  }
  await checkOutputPaths(planned, [
    ...(kind === 'stdin' ? [] : [{ path: input, what: 'the input' }]),
    ...(options.undoDir
      ? [{ path: options.undoDir, what: 'the undo records directory', directory: true }]
      : []),
    ...(options.protect ?? []),
  ]);

  // A file at the rejects or fixes path that this tool did not write is refused before anything else.
  await earlierFile(rejectsPath, 'rejects');
  if (fixesPath) await earlierFile(fixesPath, 'fixes');

  let results: ResultsWriter | undefined;
  let fixes: FixesWriter | undefined;
  const outputs = { failure: undefined } as ImportOutputs;
  const failed = (error: unknown) => {
    if (outputs.failure) return;
    outputs.failure = error instanceof Error ? error : new Error(String(error));
    outputs.onFailure?.(outputs.failure);
  };
  const checkpoint = checkpointPath
    ? await ImportCheckpoint.open({
        input,
        agentId: options.agentId,
        service: options.service,
        resume: options.resume,
        restart: options.restart,
        consumed: source.consumed,
        settings: importSettings({
          format: source.format,
          delimiter: source.delimiter,
          sheet: source.sheet,
          mapping: options.mapping && mappingRecord(options.mapping),
          defaultCountry: options.defaultCountry,
          dateOrder: options.dateOrder,
          timeZone: options.timeZone,
        }),
        // What the checkpoint claims must already be in the results and fixes files and the undo
        // record (the service, the embedded mock too, commits a write before it answers).
        beforeWrite: async () => {
          outputs.undo?.flush();
          // Not needed by the checkpoint (every run writes the rejects anew): for a user who looks.
          rejects.flush().catch(() => {});
          await Promise.all([results?.flush(), fixes?.flush()]);
        },
        outputs: () => {
          const marks: Record<string, OutputMark> = {};
          if (results) marks.results = { path: resolve(results.path), bytes: results.length };
          if (fixes) marks.fixes = { path: resolve(fixes.path), bytes: fixes.length };
          return marks;
        },
        onFailure: failed,
      })
    : undefined;
  // What a run killed before it could clean up left: its own files only, never another's in use.
  for (const path of [checkpointPath, rejectsPath, fixesPath]) if (path) await removeStaleTemps(path);
  const note = options.onNote ?? (() => {});
  /** What a resume keeps of one file, said when it is not all the run resumed wrote. */
  const resumeOutput = (output: 'results' | 'fixes', path: string) => {
    const { keep, elsewhere } = checkpoint?.resumeOutput(output, path) ?? { keep: 0 };
    if (elsewhere)
      note({
        code: 'resume_output_moved',
        message: `The run resumed wrote its ${output} to ${elsewhere}; this run writes its own to ${path}`,
        output,
        was: elsewhere,
        path,
      });
    return keep;
  };
  const short = (output: 'results' | 'fixes', path: string) =>
    note({
      code: 'resume_output_short',
      message: `The ${output} file ${path} holds less than the run resumed wrote to it (moved or cut since): records of that run are missing from it`,
      output,
      path,
    });
  if (options.resultsPath) {
    // A resumed import adds the rows it lands to the results of the run it resumes.
    results = await ResultsWriter.open(options.resultsPath, {
      keep: resumeOutput('results', options.resultsPath),
      onFailure: failed,
      openFile: options.openFile,
    });
    if (results.short) short('results', options.resultsPath);
  }
  // The rejects (written anew by every run, a resume too) and a new run's fixes replace an
  // earlier run's file, which the user may be mending: it is kept aside, never overwritten.
  const earlier: Earlier[] = [];
  for (const [output, path] of [
    ['rejects', rejectsPath],
    ['fixes', checkpoint?.resumed ? undefined : fixesPath],
  ] as const) {
    const kept = path && (await keepEarlier(path, output));
    if (kept) earlier.push({ output, ...kept });
  }
  outputs.settleEarlier = () => settleEarlier(earlier, note);
  const rejects = createRejectsWriter({
    path: rejectsPath,
    // A workbook's and a vCard file's rejects are CSV rows under the same header.
    format: isTabular(source.format) ? 'csv' : source.format,
    header: source.header,
    delimiter: source.delimiter,
    bom: source.bom,
    input: kind === 'stdin' ? undefined : input,
    onFailure: failed,
    openFile: options.openFile,
    asRead: options.asRead,
  });
  if (fixesPath) {
    // A resumed import adds the fixes of the rows it lands to those of the run it resumes.
    fixes = new FixesWriter({
      path: fixesPath,
      // Read back like the rejects: CSV rows (with a .tsv's own delimiter), whatever the input was.
      format: isTabular(source.format) ? 'csv' : source.format,
      delimiter: source.delimiter,
      // A JSON export's fixes are JSON records by the contract's names, which import as they are.
      mapping: isTabular(source.format) ? options.mapping : undefined,
      bom: source.bom,
      input: kind === 'stdin' ? undefined : input,
      keep: resumeOutput('fixes', fixesPath),
      onFailure: failed,
      openFile: options.openFile,
    });
    await fixes.open();
    if (fixes.short) short('fixes', fixesPath);
  }
  return Object.assign(outputs, { checkpoint, rejects, fixes, results });
}

interface Earlier {
  output: 'rejects' | 'fixes';
  /** The file (a link's target, where the path is a link), and where its earlier bytes are kept. */
  file: string;
  kept: string;
}

/**
 * An earlier run's rejects or fixes file at `path` (a link's target, where it is one) is copied to
 * the first free `<name>.<n>.<ext>` beside it before this run writes its own there: a run never
 * overwrites a file its user may be mending without a copy. A file there that this tool did not
 * write (your notes) is refused: the run would overwrite it.
 */
async function keepEarlier(
  path: string,
  output: 'rejects' | 'fixes',
): Promise<{ file: string; kept: string } | undefined> {
  const file = await earlierFile(path, output);
  if (!file) return undefined;
  const ext = extname(file);
  const stem = file.slice(0, file.length - ext.length);
  for (let n = 1; ; n++) {
    const kept = `${stem}.${n}${ext}`;
    try {
      // Never over a file of that name, even one made since the look.
      await copyFile(file, kept, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    return { file, kept };
  }
}

/** The file of an earlier run at `path` (a link's target), if one is there; another file is refused. */
async function earlierFile(path: string, output: 'rejects' | 'fixes'): Promise<string | undefined> {
  const file = await realpath(path).catch(() => undefined);
  const size = file ? await stat(file).then((s) => (s.isFile() ? s.size : 0)) : 0;
  if (!file || size === 0) return undefined;
  if (await isRejectsFile(file)) return file;
  throw new ImportError(
    `${path} exists and is no ${output} file of this tool (its header does not end with the _line and _error ` +
      'columns): the import would overwrite it',
    { detail: { code: 'output_not_ours', path, output } },
  );
}

/**
 * Each earlier file kept aside: removed where the file is as it was (this run wrote the same, or
 * stopped before writing any); else said.
 */
async function settleEarlier(earlier: readonly Earlier[], note: (note: ResumeNote) => void): Promise<void> {
  for (const { output, file, kept } of earlier) {
    if (await sameBytes(file, kept)) {
      await rm(kept, { force: true });
      continue;
    }
    const written = await stat(file).then(
      () => true,
      () => false,
    );
    note({
      code: 'earlier_output_kept',
      message:
        `The ${output} file of an earlier run is kept as ${kept} (this run ${written ? 'wrote another' : 'wrote none'}): ` +
        'if you mended it, import that file to send what you changed',
      output,
      path: file,
      kept,
    });
  }
}

/** Whether two files hold the same bytes, read a block at a time (a rejects file may be large). */
async function sameBytes(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([
    open(a, 'r').catch(() => undefined),
    open(b, 'r').catch(() => undefined),
  ]);
  try {
    if (!x || !y || (await x.stat()).size !== (await y.stat()).size) return false;
    const bx = Buffer.alloc(64 * 1024);
    const by = Buffer.alloc(64 * 1024);
    for (;;) {
      const [rx, ry] = await Promise.all([x.read(bx, 0, bx.length), y.read(by, 0, by.length)]);
      if (rx.bytesRead !== ry.bytesRead) return false;
      if (rx.bytesRead === 0) return true;
      if (!bx.subarray(0, rx.bytesRead).equals(by.subarray(0, ry.bytesRead))) return false;
    }
  } finally {
    await Promise.all([x?.close(), y?.close()]);
  }
}
