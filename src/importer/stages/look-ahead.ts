// The look-ahead: a table's first rows are read before the first is validated, so that what they
// say of the file (the order of its slash dates, the countries of its international numbers)
// applies to every row, the first too. While a date column is still undecided, reading ahead
// goes on, within a bound of rows and of text held.
import { ImportError } from '../errors.js';
import type { FileEvidence } from '../file-evidence.js';
import { type EvidenceNote, localTimesNote } from '../notes.js';
import type { SourceRecord } from '../sources/types.js';
import { SAMPLE_MAX_CHARS, SAMPLE_ROWS } from './source.js';

/** Rows read before the first is validated, to learn what the file says of itself. */
const LOOK_AHEAD_ROWS = SAMPLE_ROWS;
/** How far reading ahead goes on while a date column's order is still open. */
const LOOK_AHEAD_MAX_ROWS = 100_000;
/**
 * The record text held ahead at most, whatever the row count: wide rows must not hold the file
 * in memory. Past it, a column still undecided stops the import (as at the row bound).
 */
export const LOOK_AHEAD_MAX_CHARS = SAMPLE_MAX_CHARS;

export class LookAhead {
  readonly #evidence: FileEvidence;
  /** The input's name, for the error of a date column left undecided. */
  readonly #file: string;
  readonly #say: (note: EvidenceNote) => void;
  readonly #held: SourceRecord[] = [];
  #chars = 0;
  #looking = true;
  /** The look-ahead ended on a date column it could not decide: its rows are not sent. */
  undecided = false;

  constructor(evidence: FileEvidence, file: string, say: (note: EvidenceNote) => void) {
    this.#evidence = evidence;
    this.#file = file;
    this.#say = say;
  }

  /** Still reading ahead: records go to `hold`, not to the validator. */
  get looking(): boolean {
    return this.#looking;
  }

  get held(): number {
    return this.#held.length;
  }

  /** Holds one record read ahead, and looks at what it says; true while more should be read. */
  hold(record: SourceRecord): boolean {
    if (record.raw) {
      const local = this.#evidence.observe(record.raw, record.row);
      if (local) this.#say(localTimesNote(local.column, local.example));
    }
    this.#held.push(record);
    this.#chars += heldChars(record);
    return (
      this.#chars < LOOK_AHEAD_MAX_CHARS &&
      (this.#held.length < LOOK_AHEAD_ROWS ||
        (this.#evidence.pending && this.#held.length < LOOK_AHEAD_MAX_ROWS))
    );
  }

  /**
   * Ends the look-ahead: tells what the rows decided of the date columns, and gives back the
   * records held, in file order. With `checkOrder`, a date column whose slash dates read both
   * ways and that no date decided stops the import (an ImportError, `date_order_undecided`);
   * without it (the input failed), the rows read go on as they would without the look-ahead.
   */
  release(checkOrder = true): SourceRecord[] {
    this.#looking = false;
    const undecided = checkOrder ? this.#evidence.undecided() : undefined;
    if (undecided) {
      this.undecided = true;
      throw new ImportError(
        `${this.#file}: column "${undecided.header}" has dates like ${undecided.example} that read both as M/D/YYYY and D/M/YYYY, ` +
          'and no date in it decides which',
        {
          detail: {
            code: 'date_order_undecided',
            file: this.#file,
            column: undecided.header,
            example: undecided.example,
          },
        },
      );
    }
    this.#chars = 0;
    for (const note of this.#evidence.decisions()) this.#say(note);
    return this.#held.splice(0);
  }
}

/** The text a held record keeps in memory (its cells), for the look-ahead's bound. */
function heldChars(record: SourceRecord): number {
  let n = 0;
  for (const cell of record.raw ?? []) n += cell?.length ?? 0;
  return n;
}
