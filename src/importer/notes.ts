// What an import says of the file and of itself besides its rows (an encoding it guessed, rows it
// skipped, what the values of a column decided, what a resume found): each note a code, the data
// it is about and a message in the library's words. They reach the caller as events (a `note`
// event; those said before the first row, in the `start` event), never as a list to poll. The
// CLI says them in its own words, with the flags that change them (src/cli/output/import-words.ts).
import type { UndoNote } from '../undo/recorder.js';

export type { UndoNote } from '../undo/recorder.js';

/** What reading the input decided on its own. */
export type SourceNote =
  /** No BOM and no encoding given, and the bytes are not UTF-8: read in the one they look like. */
  | { code: 'encoding_guessed'; message: string; file: string; encoding: string }
  /** A file named as text (`.csv`) that is an Excel workbook: read as one. */
  | { code: 'workbook_misnamed'; message: string; file: string }
  /** A file named as a format the importer has no reader for (`.xls`) that is text: read as CSV. */
  | { code: 'text_misnamed'; message: string; file: string }
  /** Rows that are no contacts, skipped: lines before the header, a repeated header, a footer. */
  | { code: 'rows_skipped'; message: string }
  /**
   * The rest of a report from a title and a header of its own on (Teams' `3. In-Meeting
   * Activities`): another table, not read. `lines`: its first and last line.
   */
  | { code: 'section_not_read'; message: string; lines: [number, number]; title: string }
  /** A workbook's row of formulas saved without their results (read as empty cells), once. */
  | { code: 'formulas_uncomputed'; message: string; sheet: string; row: number }
  /** No sheet named: the first visible one holding a value is read; these others hold values too. */
  | { code: 'sheets_not_read'; message: string; file: string; sheet: string; others: string[] }
  /** How a vCard without UID is keyed (by its email, or its number). */
  | { code: 'vcard_key'; message: string; by: 'email' | 'phone' }
  /**
   * The first card holding ORG, BDAY, NOTE or TITLE: it fills the custom attribute company,
   * birthday, note or title where the agent defines one.
   */
  | { code: 'vcard_attribute'; message: string; property: string; attribute: string }
  /** Once the cards are read: how many held what no field reads, by property (`EMAIL`: a second one). */
  | { code: 'vcard_unread'; message: string; properties: Record<string, number> }
  /** JSON read as a table: fields first seen after the records that made its columns, or past their bound. */
  | { code: 'json_fields_unread'; message: string; fields: string[]; line?: number };

/** What planning the import decided of its columns and options. */
export type PlanNote =
  /** What the values of the columns decided: a role a header word did not say, a key column. */
  | { code: 'column_decision'; message: string }
  /** The header (or a JSON record's keys) of a known export, but for one column (key). */
  | {
      code: 'export_nearly_recognised';
      message: string;
      /** The export's name: `HubSpot contacts export`. */
      export: string;
      missing: string;
      /** A JSON record's keys, not a header. */
      json: boolean;
    }
  /** A time zone given for a file whose date-times it does not apply to. */
  | { code: 'time_zone_not_applied'; message: string; timeZone: string; reason: string };

/** What the rows said of the whole file as they were read. */
export type EvidenceNote =
  /** The first date-time without a zone, read as UTC (no time zone was given). */
  | { code: 'local_times'; message: string; column: string; example: string }
  /** A date column whose slash dates read both ways, until one read one way only. */
  | { code: 'date_order_decided'; message: string; column: string; order: 'mdy' | 'dmy' }
  /** A number such as `1,200` that reads two ways, read by the decimal mark the file's numbers show. */
  | { code: 'decimal_mark_decided'; message: string; column: string; mark: ',' | '.' }
  /** The first name written "Last, First" (`Hopper, Grace`), read in the order said (`Grace Hopper`). */
  | { code: 'names_reordered'; message: string; column: string; example: string; read: string };

/** What a resume found of the run it resumes. */
export type ResumeNote =
  /** Told to resume, but no unfinished import of the input: every row is imported. */
  | { code: 'resume_nothing'; message: string; input: string; checkpoint: string }
  /** The checkpoint, of an earlier version, does not name its service: taken to be this run's. */
  | { code: 'resume_service_unrecorded'; message: string; checkpoint: string; service: string }
  /** The run resumed wrote its results or fixes elsewhere: this run writes its own. */
  | { code: 'resume_output_moved'; message: string; output: 'results' | 'fixes'; was: string; path: string }
  /** A results or fixes file holds less than the run resumed wrote to it. */
  | { code: 'resume_output_short'; message: string; output: 'results' | 'fixes'; path: string }
  /** A new run found an earlier run's rejects or fixes file at its path: kept under another name. */
  | { code: 'earlier_output_kept'; message: string; output: 'rejects' | 'fixes'; path: string; kept: string };

export type ImportNote = SourceNote | PlanNote | EvidenceNote | ResumeNote | UndoNote;

/** The note said at the first name written "Last, First", read in the order it is said. */
export function namesReorderedNote(column: string, example: string, read: string): EvidenceNote {
  return {
    code: 'names_reordered',
    message: `Column "${column}" writes names last name first (${JSON.stringify(example)}): they are read in the order said (${JSON.stringify(read)}).`,
    column,
    example,
    read,
  };
}

/** The note said at the first date-time without a zone when the import was given no time zone. */
export function localTimesNote(column: string, example: string): EvidenceNote {
  return {
    code: 'local_times',
    message: `Column "${column}" has date-times without a zone (${example}): they are read as UTC.`,
    column,
    example,
  };
}

/** What a number shows of its file's decimal mark: `1.234,56` has a decimal comma, `1.234.567` groups with dots. */
function shows(number: { mark: ',' | '.'; example: string }): string {
  if (number.example.includes(number.mark)) return `has a decimal ${number.mark === ',' ? 'comma' : 'point'}`;
  return `groups thousands with ${number.mark === ',' ? 'dots' : 'commas'}`;
}

/** The note said at the first number (`1,200`) read by the decimal mark of another (`1.234,56`). */
export function decimalMarkNote(
  column: string,
  value: string,
  read: string,
  shown: { mark: ',' | '.'; column: string; example: string },
): EvidenceNote {
  const alternative = value.includes(',') ? value.replace(',', '') : value.replace('.', '');
  const other = read === alternative ? String(Number(value.replace(',', '.'))) : alternative;
  return {
    code: 'decimal_mark_decided',
    message:
      `Column "${column}" has numbers like ${value} that read both as ${read} and ${other}; ` +
      `${shown.example} in column "${shown.column}" ${shows(shown)}, ` +
      `so they are read as ${read}`,
    column,
    mark: shown.mark,
  };
}

/**
 * The notes of one import, in the order they are said: held until the import starts (they go in
 * its `start` event), then told one by one as they are said.
 */
export class NoteChannel {
  #held: ImportNote[] | undefined = [];
  readonly #tell: (note: ImportNote) => void;

  constructor(tell: (note: ImportNote) => void) {
    this.#tell = tell;
  }

  readonly say = (note: ImportNote): void => {
    if (this.#held) this.#held.push(note);
    else this.#tell(note);
  };

  /** The notes said so far; from now on each is told as it is said. */
  start(): ImportNote[] {
    const held = this.#held ?? [];
    this.#held = undefined;
    return held;
  }
}
