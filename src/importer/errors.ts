// Errors the importer throws before or while reading a file; per-row problems are rejects, not errors.
import { ContactsError } from '../core/error.js';

// A refused output path (rejects, fixes, results, checkpoint) is the one rule's own error.
export { type OutputPathCode, OutputPathError, type ProtectedPath } from '../util/output-path.js';

/**
 * What an importer error is about, as data: its `code` and what it names. The message says it in
 * the library's words, with no option or flag of any caller; a caller that words it its own way
 * (the CLI names its flags) reads this instead, as openai-node's APIError carries `code` and
 * `param` beside its message.
 */
export type ImportErrorDetail =
  /** `resume` of an input that cannot be read again. */
  | { code: 'not_resumable'; input: string; kind: 'stdin' | 'stream' }
  /** A time zone that is no IANA name. */
  | { code: 'unknown_time_zone'; timeZone: string }
  /** A date column whose slash dates read both ways, and no date of it, nor a date order, decides. */
  | { code: 'date_order_undecided'; file: string; column: string; example: string }
  /** Column overrides for an input that has no columns to override (JSON records, vCards). */
  | { code: 'map_not_applicable'; format: string }
  /** A sheet named for an input that is no workbook. */
  | { code: 'sheet_not_workbook'; file: string; format: string }
  /** A table with no header row: the row read as one holds a contact's email or phone number. */
  | { code: 'no_header'; file: string; line: number }
  /** A file named as a workbook that is no zip archive (a CSV with an .xlsx name?). */
  | { code: 'not_a_workbook'; file: string }
  /**
   * The bytes are not UTF-8: `encoding` (a TextDecoder label) is the one they look like (`looks`),
   * or the one most files of that kind are in.
   */
  | { code: 'not_utf8'; file: string; encoding: string; looks: boolean }
  /** A results path whose extension names no format (.csv, .ndjson). */
  | { code: 'results_extension'; path: string }
  /** An override naming no column of the header. */
  | { code: 'map_no_column'; header: string; columns: string[]; suggestion: string }
  /** Two overrides give one target two columns. */
  | { code: 'map_duplicate_target'; target: string }
  /** An override's target no field has (`plan` for `attr.plan`). */
  | { code: 'unknown_target'; target: string; suggestion: string }
  /** A column (`column`) or an override (`override`, its header) naming an attribute the agent lacks. */
  | {
      code: 'attribute_not_defined';
      attribute: string;
      defined: string[];
      column?: string | undefined;
      override?: string | undefined;
    }
  /** No column fills external_id and no email column can: `notKeys` says why a column cannot. */
  | { code: 'no_key_column'; columns: string[]; notKeys: { column: string; why: string }[] }
  /** A resume of an import that `contacts undo` took back since. */
  | { code: 'resume_undone'; undoneAt: string }
  /** The undo record cannot be kept in its directory. */
  | { code: 'undo_dir_unwritable'; dir: string; reason: string }
  /** A file at the rejects or fixes path that this tool did not write: the import would overwrite it. */
  | { code: 'output_not_ours'; path: string; output: 'rejects' | 'fixes' };

export type ImportErrorCode = ImportErrorDetail['code'];

/** Base of every importer error: the import cannot go on (or cannot start). */
export class ImportError extends ContactsError {
  /** What the error is about (`detail.code`), for a caller that words it itself; else undefined. */
  readonly code: string | undefined;
  readonly detail: ImportErrorDetail | undefined;
  constructor(message: string, options: { cause?: unknown; detail?: ImportErrorDetail | undefined } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options.detail;
    this.code = options.detail?.code;
  }
}

/** The input cannot be read as its format: a broken quote, truncated JSON. Rows before it were read. */
export class SourceParseError extends ImportError {
  readonly file: string;
  readonly line: number;
  /** 1-based CSV column (field) when known. */
  readonly column: number | undefined;
  /** What went wrong, without the location (the message has both). */
  readonly reason: string;

  constructor(init: {
    file: string;
    line: number;
    column?: number;
    reason: string;
    cause?: unknown;
    detail?: ImportErrorDetail;
  }) {
    const where =
      init.column === undefined ? `line ${init.line}` : `line ${init.line}, column ${init.column}`;
    super(`${init.file}: ${where}: ${init.reason}`, { cause: init.cause, detail: init.detail });
    this.file = init.file;
    this.line = init.line;
    this.column = init.column;
    this.reason = init.reason;
  }
}

/**
 * The columns cannot be mapped: an override naming no column or an unknown target, no
 * external_id column, an undefined attribute.
 */
export class MappingError extends ImportError {}

/**
 * One way a resume differs from the run it resumes, with `reason` in the library's words and
 * what differs as data: how to resume as that run did (the same service, the same options) is
 * the caller's to say, by its own names for them.
 */
export type CheckpointMismatch = { reason: string } & (
  | { code: 'unreadable' }
  | { code: 'agent'; was: string; now: string }
  /** The services (`serviceName()`: a base URL, or `mock:<data file>`). */
  | { code: 'service'; was: string; now: string }
  | { code: 'size'; was: number; now: number }
  /** The bytes the run resumed had read changed since. */
  | { code: 'content'; bytes: number }
  /** A reading option (`defaultCountry`, `dateOrder`); null: none given. */
  | { code: 'option'; option: 'defaultCountry' | 'dateOrder'; was: string | null; now: string | null }
  /** The zones date-times without one were read in (`UTC` when none was given). */
  | { code: 'time_zone'; was: string; now: string }
  /** Other import options (format, delimiter, sheet, column mapping); none named when unreadable. */
  | { code: 'settings'; changed: string[] }
);

/**
 * A resume against a checkpoint written for another file, another version of it, or another agent.
 * The way on is to restart (the `restart` option): the caller words it.
 */
export class CheckpointMismatchError extends ImportError {
  override readonly code = 'checkpoint_mismatch';
  readonly path: string;
  readonly mismatches: CheckpointMismatch[];
  /** Each mismatch's reason. */
  readonly reasons: string[];
  constructor(path: string, mismatches: CheckpointMismatch[]) {
    const reasons = mismatches.map((m) => m.reason);
    super(`The checkpoint ${path} cannot be resumed by this run (${reasons.join('; ')})`);
    this.path = path;
    this.mismatches = mismatches;
    this.reasons = reasons;
  }
}

/**
 * The input has the checkpoint of an import that did not finish, and the run was told neither to
 * resume it nor to restart: nothing was written or sent, the checkpoint is as it was. The caller
 * words the two ways on (the `resume` and `restart` options).
 */
export class UnfinishedImportError extends ImportError {
  override readonly code = 'unfinished_import';
  /** The checkpoint file. */
  readonly path: string;
  readonly input: string;
  /** Rows the unfinished import landed, when its checkpoint could be read. */
  readonly landed: number | undefined;
  /** When its checkpoint was last written (ISO 8601), when it could be read. */
  readonly updatedAt: string | undefined;
  constructor(init: { path: string; input: string; landed?: number; updatedAt?: string }) {
    const landed =
      init.landed === undefined ? '' : `, ${init.landed} ${init.landed === 1 ? 'row' : 'rows'} landed`;
    const when = init.updatedAt === undefined ? '' : `, last at ${init.updatedAt}`;
    super(
      `An earlier import of ${init.input} did not finish (checkpoint ${init.path}${landed}${when}): ` +
        'resume it or restart from the first row',
    );
    this.path = init.path;
    this.input = init.input;
    this.landed = init.landed;
    this.updatedAt = init.updatedAt;
  }
}

/** What a failed write means, by its code; other codes are said by the error's own message. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file size limit was reached',
  EIO: 'the disk reported an I/O error',
};

/**
 * A file the import keeps (its rejects, fixes or results file, its checkpoint) could not be
 * written: a full disk, a file size limit. The import stops as an interrupted one does, with its
 * checkpoint as it was last written, so that a resume once the cause is gone goes on exactly where
 * the checkpoint says. The caller words the way on.
 */
export class OutputWriteError extends ImportError {
  override readonly code = 'output_write_failed';
  /** The file that could not be written. */
  readonly file: string;
  /** The system's code: ENOSPC, EFBIG, EDQUOT, EIO... */
  readonly errno: string | undefined;
  /** `what` names the file's role: "the rejects file". */
  constructor(what: string, file: string, cause: unknown) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    const known = errno === undefined ? undefined : WRITE_FAILURES[errno];
    const why = known ? `${known} (${errno})` : cause instanceof Error ? cause.message : String(cause);
    super(`Cannot write ${what} ${file}: ${why}`, { cause });
    this.file = file;
    this.errno = errno;
  }
}
