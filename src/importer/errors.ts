// Errors the importer throws before or while reading a file; per-row problems are rejects, not errors.
import { ContactsError } from '../core/error.js';

// A refused output path (rejects, fixes, results, checkpoint) is the one rule's own error.
export { type OutputPathCode, OutputPathError, type ProtectedPath } from '../util/output-path.js';

/** Base of every importer error: the import cannot go on (or cannot start). */
export class ImportError extends ContactsError {}

/** The input cannot be read as its format: a broken quote, truncated JSON. Rows before it were read. */
export class SourceParseError extends ImportError {
  readonly file: string;
  readonly line: number;
  /** 1-based CSV column (field) when known. */
  readonly column: number | undefined;
  /** What went wrong, without the location (the message has both). */
  readonly reason: string;

  constructor(init: { file: string; line: number; column?: number; reason: string; cause?: unknown }) {
    const where =
      init.column === undefined ? `line ${init.line}` : `line ${init.line}, column ${init.column}`;
    super(`${init.file}: ${where}: ${init.reason}`, { cause: init.cause });
    this.file = init.file;
    this.line = init.line;
    this.column = init.column;
    this.reason = init.reason;
  }
}

/** The columns cannot be mapped: a bad `--map`, no external_id column, an undefined attribute. */
export class MappingError extends ImportError {
  /** The target no field has (`plan` in `--map Plan=plan`), for a caller that can say more. */
  readonly unknownTarget: string | undefined;
  constructor(message: string, options: { unknownTarget?: string } = {}) {
    super(message);
    this.unknownTarget = options.unknownTarget;
  }
}

/**
 * A resume against a checkpoint written for another file, another version of it, or another agent.
 * The way on is to restart (the `restart` option): the caller words it.
 */
export class CheckpointMismatchError extends ImportError {
  readonly code = 'checkpoint_mismatch';
  readonly path: string;
  readonly reasons: string[];
  constructor(path: string, reasons: string[]) {
    super(`The checkpoint ${path} cannot be resumed by this run (${reasons.join('; ')})`);
    this.path = path;
    this.reasons = reasons;
  }
}

/**
 * The input has the checkpoint of an import that did not finish, and the run was told neither to
 * resume it nor to restart: nothing was written or sent, the checkpoint is as it was. The caller
 * words the two ways on (the `resume` and `restart` options).
 */
export class UnfinishedImportError extends ImportError {
  readonly code = 'unfinished_import';
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
  readonly code = 'output_write_failed';
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
