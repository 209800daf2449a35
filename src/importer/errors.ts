// Errors the importer throws before or while reading a file; per-row problems are rejects, not errors.
import { ContactsError } from '../core/error.js';

/** Base of every importer error: the import cannot go on (or cannot start). */
export class ImportError extends ContactsError {
  override name = 'ImportError';
}

/** The input cannot be read as its format: a broken quote, truncated JSON. Rows before it were read. */
export class SourceParseError extends ImportError {
  override name = 'SourceParseError';
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
  override name = 'MappingError';
  /** The target no field has (`plan` in `--map Plan=plan`), for a caller that can say more. */
  readonly unknownTarget: string | undefined;
  constructor(message: string, options: { unknownTarget?: string } = {}) {
    super(message);
    this.unknownTarget = options.unknownTarget;
  }
}

/** `--resume` against a checkpoint written for another file, another version of it, or another agent. */
export class CheckpointMismatchError extends ImportError {
  override name = 'CheckpointMismatchError';
  readonly path: string;
  readonly reasons: string[];
  constructor(path: string, reasons: string[]) {
    super(
      `The checkpoint ${path} cannot be resumed by this run (${reasons.join('; ')}). ` +
        'Run without --resume to start over instead.',
    );
    this.path = path;
    this.reasons = reasons;
  }
}
