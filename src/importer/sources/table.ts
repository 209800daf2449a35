// Rows of cells -> records, for every tabular source (CSV, TSV, a workbook's sheet): the header
// and the keys it gives, and the leftovers of exports that are no contacts (blank rows, a header
// repeated where exports were pasted one after another, a report's footer), skipped alike
// whichever way the rows were read.
import { MAX_BODY_BYTES } from '../../api/limits.js';
import { countDigits } from '../../core/digits.js';
import { headerWords, roleByWords } from '../columns.js';
import { SourceParseError } from '../errors.js';
import type { SourceNote } from '../notes.js';
import { readBoolean } from '../values.js';
import { MAX_RECORD_CHARS } from './record-limit.js';
import { type Cell, REJECT_KEYS, type SourceRecord } from './types.js';

export interface TableRow {
  cells: Cell[];
  /** Where the row starts, and where it ends (a CSV value may span lines); a gap before it is blank lines. */
  line: number;
  last: number;
}

export interface TableOptions {
  /** The input's name, for an error. */
  name: string;
  /** The next row as read, blank ones too; null at the end. */
  read(): Promise<TableRow | null>;
  /** Says what was skipped. */
  note(note: SourceNote): void;
  /**
   * CSV: why a row of another width than the header's cannot be read (its values could land in
   * the wrong fields). Without it (a sheet), cells right of the header are dropped: they have no
   * column to go to, and a sheet's notes often sit there.
   */
  widthError?: ((fields: number, expected: number) => string) | undefined;
  /** Run when the records end, however they end (the input is closed). */
  close?: (() => void) | undefined;
  /** What a failed read is reported as, from the records on (not from `readTable` itself). */
  failure?: ((error: unknown) => unknown) | undefined;
}

export interface Table {
  /** The header cells as written, without the rejects' `_line`/`_error`. */
  header: string[];
  records(): AsyncGenerator<SourceRecord>;
}

const RESERVED = new Set<string>([REJECT_KEYS.line, REJECT_KEYS.error]);

/** Rows that are not blank looked at to find the header: a preamble longer than this is read as rows. */
const HEADER_WINDOW = 30;
/** Rows held to find the header at most, blank ones (a sheet's empty rows) included. */
const HEADER_WINDOW_ROWS = 200;
/** Cell text held to find the header at most: rows near the limit of a record are few. */
const HEADER_WINDOW_CHARS = MAX_RECORD_CHARS;

/**
 * Reads the header: the row that looks like one (labels, not values) and heads the longest run
 * of rows, so that lines before it (`Notes:` lines, a report's title, a summary section) are
 * skipped, and said; null when there is no row at all.
 */
export async function readTable(options: TableOptions): Promise<Table | null> {
  const { widthError } = options;
  const skipped = (message: string) => options.note({ code: 'rows_skipped', message });
  const window: TableRow[] = [];
  let nonBlank = 0;
  let chars = 0;
  // A read that fails among the first rows fails again where it did, after the rows before it.
  let failure: { error: unknown } | undefined;
  while (nonBlank < HEADER_WINDOW && window.length < HEADER_WINDOW_ROWS && chars < HEADER_WINDOW_CHARS) {
    let row: TableRow | null;
    try {
      row = await options.read();
    } catch (error) {
      if (nonBlank === 0) throw error;
      failure = { error };
      break;
    }
    if (!row) break;
    const blank = isBlank(row.cells);
    // Blank rows before the first that is not are no part of anything.
    if (blank && nonBlank === 0) continue;
    window.push(row);
    if (!blank) nonBlank++;
    for (const cell of row.cells) chars += cell?.length ?? 0;
  }
  if (nonBlank === 0) return null;
  const { at, people } = headerRow(window);
  const first = window[at]!;
  // No row of labels at all: read as the columns' names, a row of a contact's values (a list saved
  // without its header, TextFlow's `4165551234,Jane,Smith,jane@example.com`) would key the others
  // by one of them and lose it.
  const values = valuesOfTheirColumns(window, at);
  if (values.length > 0) {
    throw new SourceParseError({
      file: options.name,
      line: first.line,
      reason:
        `no header row: the line holds a contact's values (${values.slice(0, 2).join(', ')}), not the columns' names; ` +
        `add a first line naming its ${filledCells(first.cells) === 1 ? 'column' : `${first.cells.length} columns`} (name,email,phone,...)`,
      detail: { code: 'no_header', file: options.name, line: first.line },
    });
  }
  if (at > 0) {
    const shown = truncate(window[0]!.cells.find((c) => c?.trim())?.trim() ?? '');
    const lines = first.line - 1;
    skipped(
      `${lines === 1 ? '1 line' : `${lines} lines`} before the header (line ${first.line}) ` +
        `${lines === 1 ? 'is' : 'are'} ${people.length > 0 ? 'not read' : 'not contacts'} ` +
        `(${JSON.stringify(shown)}${lines > 1 ? ', …' : ''})${people.length > 0 ? '' : ': skipped'}`,
    );
  }
  // Sections of people above the one read (a webinar's host and panelists over its attendees).
  // The header read, with its title: where a section above ends at the latest.
  const readFrom = at > 0 && filledCells(window[at - 1]!.cells) === 1 ? at - 1 : at;
  for (const section of people) {
    const titled = section.header > 0 && filledCells(window[section.header - 1]!.cells) === 1;
    const from = window[titled ? section.header - 1 : section.header]!;
    let last = Math.min(section.end, readFrom) - 1;
    while (last > section.header && isBlank(window[last]!.cells)) last--;
    const name = truncate(firstFilled(from.cells));
    options.note({
      code: 'section_not_read',
      message:
        `lines ${from.line}-${window[last]!.last} are another section (${JSON.stringify(name)}, with a header of its own at line ` +
        `${window[section.header]!.line}), not read: to import it, save it as a file of its own`,
      lines: [from.line, window[last]!.last],
      title: name,
    });
  }
  // A survey's header goes on in its second row (the answers' labels under their question, or
  // the questions in words under their codes), and may be followed by the columns' metadata.
  const second = window[at + 1];
  const goesOn = second && headerGoesOn(first.cells, second.cells);
  let fullHeader = first.cells.map((cell) => cell ?? '');
  let end = first;
  if (second && goesOn) {
    fullHeader = joinHeader(first.cells, second.cells, goesOn);
    end = second;
    const labels = second.cells.flatMap((cell, i) =>
      cell?.trim() && (goesOn !== 'fields' || !first.cells[i]?.trim()) ? [cell.trim()] : [],
    );
    // Answers' labels are few, said again and again: each once.
    const shownLabels = goesOn === 'answers' ? [...new Set(labels)] : labels;
    const shown = `${shownLabels
      .slice(0, 3)
      .map((l) => JSON.stringify(truncate(l)))
      .join(', ')}${shownLabels.length > 3 ? ', …' : ''}`;
    skipped(
      goesOn === 'fields'
        ? `line ${second.line} goes on with the header (${shown} under its blank cells): read as part of it`
        : goesOn === 'words'
          ? `line ${second.line} says the header in words (${shown}): read as part of it`
          : `line ${second.line} labels the answers under the header (${shown}), not a contact: read as part of the header`,
    );
  }
  const meta = window[at + (goesOn ? 2 : 1)];
  const metadata = meta !== undefined && describesColumns(meta.cells);
  if (meta && metadata) {
    end = meta;
    skipped(
      `line ${meta.line} describes the columns (${truncate(firstFilled(meta.cells))}, …), not a contact: skipped`,
    );
  }
  // The rows read past the header go first, then the rest of the input.
  const replay = window.slice(at + 1 + (goesOn ? 1 : 0) + (metadata ? 1 : 0));
  const read = async () => {
    if (replay.length > 0) return replay.shift()!;
    if (failure) throw failure.error;
    return options.read();
  };
  const kept = fullHeader.flatMap((cell, i) => (RESERVED.has(cell.trim()) ? [] : [i]));
  const header = kept.map((i) => fullHeader[i]!);
  const keys = uniqueKeys(header);
  // A header repeated where exports were pasted one after another: its first row, as written.
  const headerText = first.cells.map((cell) => (cell ?? '').trim()).join('\u0000');
  const firstHeader = (first.cells[0] ?? '').trim();
  // The first cell alone rules out almost every row, without building anything.
  const sameAsHeader = (cells: Cell[]) =>
    (cells[0] ?? '').trim() === firstHeader &&
    cells.map((cell) => (cell ?? '').trim()).join('\u0000') === headerText;
  const headerEnd = end.last;
  const labels = new Set(fullHeader.map((cell) => cell.trim()).filter(Boolean));
  /** Where the header's labels start: a table may begin in a column further right. */
  const headerStart = Math.max(
    0,
    fullHeader.findIndex((cell) => cell.trim()),
  );
  // The header said again in another case or spelling (`NAME,E-MAIL,PHONE`): the same header,
  // and so is one going on with more labels (`Name,Email,Phone` under `Name,Email`), whose
  // columns past the table's are said not read. A cell with more digits than its label's words
  // is a value: most rows end there.
  const headerWordsAt = fullHeader.map((cell) => headerWords(cell).join(' '));
  const headerDigitsAt = headerWordsAt.map(countDigits);
  const headerLabels = filledCells(fullHeader);
  const sameWordsAsHeader = (cells: Cell[]) => {
    if (filledCells(cells) < 2) return false;
    for (let i = 0; i < headerDigitsAt.length; i++)
      if (countDigits(cells[i] ?? '') > headerDigitsAt[i]!) return false;
    return headerWordsAt.every((words, i) => headerWords(cells[i] ?? '').join(' ') === words);
  };
  // Another tool's labels for the same columns (`Full Name,Email Address,Mobile,Organisation`
  // under `Name,Email,Phone,Company`): each column's label of the same field, or of none this
  // tool reads, and a label it does not know in the same words (`Join Time` is not `First Join`).
  const rolesAt = fullHeader.map(roleOfLabel);
  const fieldsAt = rolesAt.filter((role) => role !== undefined && FIELD_ROLES.has(role)).length;
  const sameRolesAsHeader = (cells: Cell[], filled: number) =>
    fieldsAt >= 2 &&
    filled === headerLabels &&
    looksLikeHeader(cells, filled, filled) &&
    rolesAt.every((role, i) =>
      role === undefined
        ? headerWords(cells[i] ?? '').join(' ') === headerWordsAt[i]
        : roleOfLabel(cells[i]) === role,
    );
  let rowNumber = 0;
  /** The header said again with more columns, where and which: rows as wide are not the table's. */
  let wider: { line: number; width: number; labels: string } | undefined;

  // Cells go to the record as read unless the header has a rejects column to leave out.
  const allKept = kept.length === fullHeader.length;

  function record(rowCells: Cell[], line: number): SourceRecord {
    rowNumber++;
    let cells = rowCells;
    if (widthError) {
      // Extra cells that are all empty (a trailing delimiter) cannot put a value in the wrong place.
      if (cells.length > fullHeader.length && isBlank(cells.slice(fullHeader.length)))
        cells = cells.slice(0, fullHeader.length);
      if (cells.length !== fullHeader.length) {
        return {
          row: rowNumber,
          line,
          record: {},
          raw: cells,
          error:
            wider && cells.length > fullHeader.length && cells.length <= wider.width
              ? `Row has ${cells.length} fields but the header has ${fullHeader.length}: line ${wider.line} says the ` +
                `header again with more columns (${wider.labels}); to import the rows under it, save them as a file of their own`
              : widthError(cells.length, fullHeader.length),
        };
      }
    }
    const raw = allKept && cells.length === kept.length ? cells : kept.map((i) => cells[i]);
    if (recordChars(raw) > MAX_BODY_BYTES) {
      return {
        row: rowNumber,
        line,
        record: {},
        raw,
        error: `Row is larger than ${MAX_BODY_BYTES} bytes, more than one request may carry`,
      };
    }
    // Keys come from the file's header: no prototype, so a `__proto__` column is a column.
    const fields: Record<string, unknown> = Object.create(null);
    for (let i = 0; i < keys.length; i++) fields[keys[i]!] = raw[i];
    return { row: rowNumber, line, record: fields, raw };
  }

  async function* records(): AsyncGenerator<SourceRecord> {
    // One-cell rows after a blank line below a wider header are held back: at the end of the file
    // they are a report's footer (Salesforce ends with a confidentiality notice and a copyright
    // line), not contacts; followed by more rows, they are rows after all.
    const held: { cells: Cell[]; line: number }[] = [];
    // A one-cell row not yet known to be a row or the title of the next section (Zoom's `Other
    // Attended` over a header of its own).
    let pending: { cells: Cell[]; line: number } | undefined;
    let repeatedHeaders = 0;
    // A footer starts after a blank line.
    let lastEnd = headerEnd;
    let afterBlank = false;
    /** Blank lines right before this row. */
    let blankBefore = false;
    /** Labels of the header, or values of a row, the most: a row wider than all heads another table. */
    let widest = headerLabels;
    try {
      for (let row = await read(); row; row = await read()) {
        if (row.line > lastEnd + 1) afterBlank = blankBefore = true;
        lastEnd = row.last;
        const filled = filledCells(row.cells);
        if (filled === 0) {
          afterBlank = blankBefore = true;
          continue;
        }
        const gap = blankBefore;
        blankBefore = false;
        // A title, or blank lines, and another table's header: the table ends, and the rest is
        // another section's. So it does right after the header's own labels in another order
        // (`Last Name,First Name,Email,Phone`): the rows under them are not in the table's columns.
        const last = pending ?? held.at(-1);
        const titled = last !== undefined && isTitle(last.cells);
        if (
          (titled || (gap && last === undefined)
            ? startsSection(row.cells, filled, labels, headerStart, widest)
            : last === undefined && reordersHeader(row.cells, filled, labels)) &&
          !sameAsHeader(row.cells) &&
          !sameWordsAsHeader(row.cells) &&
          !(gap && mostlySameHeader(row.cells, fullHeader)) &&
          !sameRolesAsHeader(row.cells, filled)
        ) {
          const from = titled ? (held[0] ?? pending)!.line : row.line;
          let end = row.last;
          for (let rest = await read(); rest; rest = await read()) end = rest.last;
          const name = truncate(firstFilled((titled ? last : row).cells));
          options.note({
            code: 'section_not_read',
            message:
              `lines ${from}-${end} are another section (${JSON.stringify(name)}, with a header of its own at line ${row.line}), ` +
              'not read: to import it, save it as a file of its own',
            lines: [from, end],
            title: name,
          });
          return;
        }
        widest = Math.max(widest, filled);
        const repeated =
          (row.cells.length === fullHeader.length && sameAsHeader(row.cells)) ||
          sameWordsAsHeader(row.cells) ||
          sameRolesAsHeader(row.cells, filled);
        if (pending) {
          yield record(pending.cells, pending.line);
          pending = undefined;
        }
        // One filled cell (a padded `Generated by ...,,`) after a blank line, or a report's time
        // stamp alone (QuickBooks' `Sunday, August 09, 2026 04:04 PM GMT-05:00`); or a totals row.
        // A row with an email address in it is a contact's (`late.signup@example.com,,`).
        const text = firstFilled(row.cells);
        const lone =
          filled === 1 && !ADDRESS_RE.test(text) && (afterBlank || held.length > 0 || STAMP_RE.test(text));
        // A totals row: the word, then numbers only (`Total,,,350`), never a name or an address.
        const total =
          TOTAL_RE.test(text) && row.cells.every((c) => !c?.trim() || c.trim() === text || TOTALS_RE.test(c));
        if (fullHeader.length > 1 && (lone || total)) {
          held.push({ cells: row.cells, line: row.line });
          continue;
        }
        afterBlank = false;
        if (repeated) {
          // Exports pasted one after another repeat their header: it is no contact, nor is the
          // one-cell row right over it that holds a word, not an address or a number: a group's
          // title (a board's `Leads`). The rows before that are rows.
          const last = held.at(-1);
          const text = last ? firstFilled(last.cells) : '';
          const title = last && isGroupTitle(last.cells) ? held.pop() : undefined;
          for (const row of held.splice(0)) yield record(row.cells, row.line);
          if (title)
            skipped(
              `line ${title.line} is a group's title (${JSON.stringify(truncate(text))}) over the header repeated: skipped`,
            );
          repeatedHeaders++;
          const more = row.cells.slice(fullHeader.length).flatMap((c) => (c?.trim() ? [c.trim()] : []));
          if (more.length > 0) {
            wider = {
              line: row.line,
              width: row.cells.length,
              labels: more.map((l) => JSON.stringify(truncate(l))).join(', '),
            };
            skipped(
              `line ${row.line} repeats the header row with more columns (${wider.labels}), not read: skipped`,
            );
          } else if (repeatedHeaders <= 3) skipped(`line ${row.line} repeats the header row: skipped`);
          continue;
        }
        if (held.length > 0)
          for (const footerLike of held.splice(0)) yield record(footerLike.cells, footerLike.line);
        if (filled === 1 && fullHeader.length > 1) pending = { cells: row.cells, line: row.line };
        else yield record(row.cells, row.line);
      }
      if (pending) yield record(pending.cells, pending.line);
      if (held.length > 0) {
        const start = held[0]!;
        skipped(
          `${held.length === 1 ? `line ${start.line} is` : `lines ${start.line}-${held.at(-1)!.line} are`} a footer ` +
            `after the last row (${JSON.stringify(truncate(start.cells.find((c) => c?.trim())?.trim() ?? ''))}${held.length > 1 ? ', …' : ''}): not contacts, skipped`,
        );
      }
      if (repeatedHeaders > 3) skipped(`${repeatedHeaders} repeated header rows skipped in all`);
    } catch (error) {
      throw options.failure ? options.failure(error) : error;
    } finally {
      options.close?.();
    }
  }

  return { header, records };
}

/** Cells holding a character other than white space. */
function filledCells(cells: Cell[]): number {
  let n = 0;
  for (const c of cells) {
    if (c === undefined || c === '') continue;
    // A printable ASCII character first is the common case, and needs no trim.
    const first = c.charCodeAt(0);
    if ((first > 0x20 && first < 0x7f) || c.trim() !== '') n++;
  }
  return n;
}

/** The first cell holding a character other than white space, trimmed ('' when none). */
function firstFilled(cells: Cell[]): string {
  for (const c of cells) {
    const text = c?.trim();
    if (text) return text;
  }
  return '';
}
const VALUE_RE = /^[\d\s+().,:/-]+$/;
/** Seven to fifteen digits, as a phone number is written. */
const PHONE_LIKE_RE = /^\+?(?:[\s().-]*\d){7,15}[\s()-]*$/;

/**
 * The cells of row `at` that are email addresses or phone numbers in a column of them (the rows
 * after it mostly hold the same), shown: a contact's values, not labels. A date or a year over a
 * column of ticks (`20240105`, `2023-2024`) and `Twitter @handle` over handles are labels.
 */
function valuesOfTheirColumns(window: readonly TableRow[], at: number): string[] {
  const kind = (text: string) =>
    ADDRESS_RE.test(text) ? 'email' : PHONE_LIKE_RE.test(text) ? 'phone' : undefined;
  const after = window.slice(at + 1);
  return window[at]!.cells.flatMap((cell, i) => {
    const text = cell?.trim();
    const own = text ? kind(text) : undefined;
    if (!own) return [];
    const below = after.flatMap((row) => row.cells[i]?.trim() || []);
    const same = below.filter((t) => kind(t) === own).length;
    return same * 2 >= below.length ? [JSON.stringify(truncate(text!))] : [];
  });
}

/** Labels, not values: two cells or more, no email among them, and mostly not numbers or dates. */
function looksLikeHeader(cells: Cell[], filled: number, widest: number): boolean {
  if (filled < 2 || filled < widest / 2) return false;
  let values = 0;
  for (const c of cells) {
    const text = c?.trim();
    if (!text) continue;
    if (text.includes('@')) return false;
    if (VALUE_RE.test(text) && text !== '#') values++;
  }
  return values <= filled / 5;
}

/** What a second header row names under a blank cell of the first, for it to be one: a contact's field. */
const FIELD_ROLES = new Set(['email', 'phone', 'name', 'first', 'last']);

const roleOf = (text: string) => roleByWords(headerWords(text));
const roleOfLabel = (cell: Cell) => (cell?.trim() ? roleOf(cell) : undefined);
const sameWords = (a: string, b: string) => headerWords(a).join('') === headerWords(b).join('');

/**
 * How the header goes on in the row after it, if it does; that row is labels, not values, and
 * - `fields`: under a blank cell of the header it names a contact's field (SurveyMonkey:
 *   `Contact information` over `Name`, `Email`, and `Response` under each question). A data row
 *   does not hold `Email` as a value;
 * - `words`: it says most of the header's cells again in other words (Qualtrics: `StartDate` over
 *   `Start Date`, `RecipientEmail` over `Recipient Email`, `Q1` over the question as asked);
 * - `answers`: blank under the header's first cell, it labels the answers under the questions
 *   with one or two words said again and again (SurveyMonkey's single questions: `Response`,
 *   `Open-Ended Response`), and perhaps a matrix's rows under blank cells. A row of data holds its
 *   first column's value, and its answers differ.
 */
function headerGoesOn(header: Cell[], next: Cell[]): 'fields' | 'words' | 'answers' | undefined {
  const filled = filledCells(next);
  if (!looksLikeHeader(next, filled, filled)) return undefined;
  let same = 0;
  let fields = 0;
  let underBlank = false;
  let valueUnderField = false;
  for (let i = 0; i < next.length; i++) {
    const text = next[i]?.trim();
    const top = header[i]?.trim();
    if (!text) continue;
    if (top && sameWords(text, top)) {
      same++;
      continue;
    }
    const role = roleOf(text);
    const names = role !== undefined && FIELD_ROLES.has(role);
    if (names) fields++;
    if (!top) underBlank ||= names;
    // `Ann` under `First Name`: a value under a field's own header is a row of data.
    else if (!names && roleOf(top) !== undefined) valueUnderField = true;
  }
  if (same >= 2 && same * 2 >= filled) return 'words';
  // Fields named, two at least (`Name`, `Email`), one under a blank cell, and no value under a field.
  if (underBlank && fields >= 2 && !valueUnderField) return 'fields';
  return labelsAnswers(header, next) ? 'answers' : undefined;
}

/** A label of a survey's second header row: words, no number, no yes or no. */
const LABEL_RE = /^\p{L}[\p{L} -]*\p{L}$/u;

/**
 * Answers' labels (see `headerGoesOn`): blank under the respondent's columns, then a label under
 * every column to the header's last (each question's answers, a matrix's rows under blank
 * cells), and under the questions one label said twice or more, or two said three times or more.
 */
function labelsAnswers(header: Cell[], next: Cell[]): boolean {
  if (next[0]?.trim()) return false;
  const from = next.findIndex((cell) => cell?.trim());
  if (from < 0) return false;
  const answers = new Set<string>();
  let underQuestions = 0;
  for (let i = from; i < header.length; i++) {
    const text = next[i]?.trim();
    if (!text || !LABEL_RE.test(text) || readBoolean(text) !== undefined) return false;
    if (!header[i]?.trim()) continue;
    answers.add(text.toLowerCase());
    underQuestions++;
  }
  return answers.size === 1 ? underQuestions >= 2 : answers.size === 2 && underQuestions >= 3;
}

/**
 * A header of two rows as one. A label under a blank cell stands alone. Under a question, one
 * naming a contact's field replaces it (`Name` under `Contact information`); other labels
 * (`Response`, `Open-Ended Response`) leave it. A header said again in words keeps its own
 * unless only the words say what the column holds (`Q1` over `What is your phone number?`).
 */
function joinHeader(top: Cell[], sub: Cell[], how: 'fields' | 'words' | 'answers'): string[] {
  return top.map((cell, i) => {
    const label = sub[i]?.trim();
    if (!label) return cell ?? '';
    if (!cell?.trim()) return label;
    const role = roleOf(label);
    if (how === 'words') return roleOf(cell) === undefined && role !== undefined ? label : cell;
    return role !== undefined && FIELD_ROLES.has(role) ? label : cell;
  });
}

/** A row of the columns' metadata, a JSON object in each cell (Qualtrics: `{"ImportId":"QID1"}`). */
function describesColumns(cells: Cell[]): boolean {
  let filled = 0;
  for (const cell of cells) {
    const text = cell?.trim();
    if (!text) continue;
    if (!(text.startsWith('{') && text.endsWith('}'))) return false;
    filled++;
  }
  return filled >= 2;
}

/**
 * Which row of the first ones is the header. In an ordinary file, the first: it looks like a
 * header (labels, not values) and is as wide as any row. Else (a preamble, a report's sections)
 * each row that looks like one heads the rows after it up to a break (a blank row or a one-cell
 * title, then another header: the next section). Of those naming a contact's field (`Name`,
 * `Email`, `Phone`), the header over the most people (distinct emails, else first cells), then
 * the one naming the most fields, then the first: a Zoom report's attendees over its host, a
 * Teams report's participants over their sessions. Where no header names a field, the first row
 * heading every row after it, else the one heading the longest run; the first row when none
 * looks like a header.
 */
function headerRow(window: readonly TableRow[]): { at: number; people: Section[] } {
  const filled = window.map((row) => filledCells(row.cells));
  const widest = Math.max(...filled);
  const wide = window.map((row, i) => looksLikeHeader(row.cells, filled[i]!, widest));
  // A narrow list's header is one too, over rows as narrow as it (`Name,Email` over three people,
  // above a wider table after blank lines), but the count of people decides which is read.
  const header = wide.map((yes, i) => yes || headsList(window, filled, i));
  // The first row naming two of a contact's fields is the header, whatever rows come after it,
  // but for another header after blank lines naming more of them (an event's own row over its
  // attendees: `Event,Date,Email,Venue`, then `First Name,Last Name,Email,Phone`) or wider, not
  // the same header going on: the count of people decides.
  const fields0 = contactFields(window[0]!.cells);
  const later = window.some(
    (row, k) =>
      header[k]! &&
      afterGap(window, k) &&
      contactFields(row.cells) >= 2 &&
      (contactFields(row.cells) > fields0 ||
        (filled[k]! > filled[0]! &&
          !sameHeaderWords(row.cells.slice(0, window[0]!.cells.length), window[0]!.cells))) &&
      !sameHeaderWords(row.cells, window[0]!.cells),
  );
  if (wide[0] && !later && (filled[0]! >= widest || fields0 >= 2)) return { at: 0, people: [] };
  const breaks = sectionBreaks(window, filled, header);
  let best = -1;
  let bestRun = -1;
  let reachesEnd = -1;
  let named = { at: -1, fields: 0, people: 0 };
  const people: Section[] = [];
  // A header that goes on in the row after it (a survey's) is one header: its second row is none.
  const goesOn = window.map(
    (row, i) =>
      header[i]! && i + 1 < window.length && headerGoesOn(row.cells, window[i + 1]!.cells) !== undefined,
  );
  for (let i = 0; i < window.length; i++) {
    if (!header[i] || (i > 0 && goesOn[i - 1])) continue;
    let j = i + 1;
    while (j < window.length && !breaks(j, i)) j++;
    if (j === window.length && reachesEnd === -1) reachesEnd = i;
    if (j - i > bestRun) {
      best = i;
      bestRun = j - i;
    }
    const fields = contactFields(window[i]!.cells) + (goesOn[i] ? contactFields(window[i + 1]!.cells) : 0);
    const count = fields > 0 ? peopleUnder(window, i, j) : 0;
    // A group under the same header again is part of the section before it (Zoom's panelists
    // under its host's header).
    if (fields > 0 && count > 0 && !(people.length > 0 && i < people.at(-1)!.end))
      people.push({ header: i, end: j });
    if (fields > 0 && (count > named.people || (count === named.people && fields > named.fields)))
      named = { at: i, fields, people: count };
  }
  const at = named.at !== -1 ? named.at : reachesEnd !== -1 ? reachesEnd : best !== -1 ? best : 0;
  return { at, people: people.filter((section) => section.header < at) };
}

/** A name's roles: a list of people names them (`Organizer,Email` over role addresses does not). */
const NAME_ROLES = new Set(['name', 'first', 'last']);

/**
 * Whether row `i` heads a list of people up to the next blank lines, whatever the width of the
 * rows after those: labels with a name and an email column, and two addresses at least in that
 * column of rows no wider than it. A preamble's lines (`Host,host@example.com`) are no list.
 */
function headsList(window: readonly TableRow[], filled: readonly number[], i: number): boolean {
  const cells = window[i]!.cells;
  if (!looksLikeHeader(cells, filled[i]!, filled[i]!)) return false;
  const email = cells.findIndex((c) => c?.trim() && roleOf(c) === 'email');
  if (email === -1 || !cells.some((c) => NAME_ROLES.has(roleOfLabel(c) ?? ''))) return false;
  let addresses = 0;
  for (let k = i + 1; k < window.length && !afterGap(window, k); k++) {
    if (filled[k]! > filled[i]!) return false;
    if (ADDRESS_RE.test(window[k]!.cells[email]?.trim() ?? '')) addresses++;
  }
  return addresses >= 2;
}

/** A section of the window: its header's row, and the row after its last. */
interface Section {
  header: number;
  end: number;
}

/**
 * Where a section ends, for the header of row `i`: at row `j`, a one-cell row (a title or a
 * blank one) with another header after it, or another header after blank lines (a CSV's, which
 * are no rows: an event's `Event,Date,Email` over its attendees' `First Name,Last Name,Email`).
 */
function sectionBreaks(window: readonly TableRow[], filled: readonly number[], header: readonly boolean[]) {
  // The next row of more than one cell after each row.
  const next: number[] = new Array(window.length).fill(-1);
  for (let j = window.length - 2; j >= 0; j--) next[j] = filled[j + 1]! > 1 ? j + 1 : next[j + 1]!;
  // A title over the same header again is the same table's next group (a board's `Leads` over
  // its columns once more), no break.
  const same = (a: number, b: number) => sameHeaderWords(window[a]!.cells, window[b]!.cells);
  return (j: number, i: number) =>
    filled[j]! <= 1
      ? next[j] !== -1 && header[next[j]!]! && !same(next[j]!, i)
      : afterGap(window, j) && header[j]! && !same(j, i);
}

/** Whether blank lines come before row `j` of the window: a CSV's gap in line numbers, or a blank row. */
const afterGap = (window: readonly TableRow[], j: number) =>
  j > 0 && (window[j]!.line > window[j - 1]!.last + 1 || isBlank(window[j - 1]!.cells));

/** The same header in any case or spelling (`NAME,EMAIL`, `Name,E-mail`): the table's, again. */
function sameHeaderWords(a: Cell[], b: Cell[]): boolean {
  const words = (cells: Cell[]) => {
    const each = cells.map((c) => headerWords(c ?? '').join(' '));
    while (each.at(-1) === '') each.pop();
    return each.join('|');
  };
  return words(a) === words(b);
}

/**
 * The header again with a column renamed (`Name,Email,Mobile,Company,Notes` under
 * `Name,Email,Phone,Company,Notes`): more than half its labels the same words in the same
 * columns, so its rows line up with the table's.
 */
function mostlySameHeader(row: Cell[], header: readonly string[]): boolean {
  let same = 0;
  for (let i = 0; i < row.length; i++) {
    const words = headerWords(row[i] ?? '').join(' ');
    if (words && words === headerWords(header[i] ?? '').join(' ')) same++;
  }
  return same * 2 > filledCells(row);
}

/** A group's title over the header repeated: a word, not an address or a number (`Leads`). */
const isGroupTitle = (cells: Cell[]) => !/[@\d]/.test(firstFilled(cells));

/** A section's title: words in the row's first cell alone (`Other Attended`, `3. In-Meeting Activities`). */
const isTitle = (cells: Cell[]) => {
  const text = cells[0]?.trim();
  return text !== undefined && /\p{L}/u.test(text) && !text.includes('@');
};

/**
 * A row that heads another table: four labels or more with no empty cell among them (one column
 * of row numbers before them may have none, as pandas writes it), two of them a contact's fields
 * where it is wider than the table (`First Name,Last Name,Email Address,Mobile` under
 * `Name,Email`), or at least two and half of
 * them the header's own, in another order or beside others
 * (Teams' sessions: `Name`, `Join Time`, `Email`, `Role`; Zoom's `Other Attended`: `User Name
 * (Original Name)`, `Join Time`, `Is Guest`). A row of values that happen to be field words
 * (`Harry,,,Email,Phone,Post`: a contact's preferred channels) is none.
 */
function startsSection(
  cells: Cell[],
  filled: number,
  labels: ReadonlySet<string>,
  headerStart: number,
  widest: number,
): boolean {
  if (filled < 4 || !looksLikeHeader(cells, filled, filled)) return false;
  // Where the table's header starts, or one column of row numbers before that at most.
  const start = cells.findIndex((cell) => cell?.trim());
  if (start > headerStart + 1) return false;
  for (let i = start; i < start + filled; i++) if (!cells[i]?.trim()) return false;
  let own = 0;
  for (const cell of cells) if (cell && labels.has(cell.trim())) own++;
  if (own >= 2 && own * 2 >= filled) return true;
  // Another table's own labels, two of them a contact's fields: more than the table's header and
  // its rows have cells. A row of values that are field words (`Handy,Bill,Mail Boxes Etc,Tulsa`:
  // a surname that is German for mobile) is no wider than the rows before it.
  return filled > widest && contactFields(cells) >= 2;
}

/**
 * A row right after the table's rows that heads another list: the header's own labels and
 * nothing else, four or more, each once, in another order (`Last Name,First Name,Email,Phone`).
 * A row of values is never all labels (`Sarah Land,Mail,Phone,Sales Team`).
 */
function reordersHeader(cells: Cell[], filled: number, labels: ReadonlySet<string>): boolean {
  if (filled < 4) return false;
  const seen = new Set<string>();
  for (const cell of cells) {
    const text = cell?.trim();
    if (!text) continue;
    if (!labels.has(text) || seen.has(text)) return false;
    seen.add(text);
  }
  return true;
}

/** Cells of a header naming a contact's field (`Name`, `First Name`, `Email`, `Phone`). */
function contactFields(cells: Cell[]): number {
  let n = 0;
  for (const cell of cells) {
    const role = roleOfLabel(cell);
    if (role !== undefined && FIELD_ROLES.has(role)) n++;
  }
  return n;
}

/** The people under the header of row `i` up to row `j`: distinct emails, else distinct first cells. */
function peopleUnder(window: readonly TableRow[], i: number, j: number): number {
  const cells = window[i]!.cells;
  const email = cells.findIndex((c) => c?.trim() && roleOf(c) === 'email');
  const column = email === -1 ? 0 : email;
  const seen = new Set<string>();
  for (let k = i + 1; k < j; k++) {
    const value = window[k]!.cells[column]?.trim();
    // The header repeated over a group (Zoom's panelists under its host's header) is no one.
    if (value && value.toLowerCase() !== cells[column]?.trim().toLowerCase()) seen.add(value.toLowerCase());
  }
  return seen.size;
}

/** A time of day and a year: when a report was made, as its last line says. */
const STAMP_RE = /^(?=.*\b\d{1,2}:\d{2}\b)(?=.*\b(?:19|20)\d{2}\b)[^@]*$/;
/** A cell that is an email address, and nothing else. */
const ADDRESS_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** What a totals row holds beside its word: amounts and counts. */
const TOTALS_RE = /^[\d\s.,%$€£¥()+-]+$/;
/** A totals row at the end of a sheet (`Total,,,,350`): no contact. */
const TOTAL_RE = /^(?:grand\s+)?(?:totals?|sum|summe|gesamt|total général)\s*(?::.*|\(.*\))?$/i;

const truncate = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

export const isBlank = (cells: Cell[]) => cells.every((c) => c === undefined || c.trim() === '');

/** Characters in a row: at least its UTF-8 size over 3, at most its size. */
export function recordChars(cells: Cell[]): number {
  let n = 0;
  for (const cell of cells) n += cell?.length ?? 0;
  // Characters outside ASCII take up to 3 bytes (4 for a pair): measure exactly only near the limit.
  if (n * 3 <= MAX_BODY_BYTES) return n;
  let bytes = 0;
  for (const cell of cells) bytes += cell === undefined ? 0 : Buffer.byteLength(cell);
  return bytes;
}

/** Record keys from header cells: a repeated or empty header gets its column number, so none is lost. */
export function uniqueKeys(header: string[]): string[] {
  const seen = new Set<string>();
  return header.map((cell, i) => {
    let key = cell.trim() || `column ${i + 1}`;
    if (seen.has(key)) key = `${key} (column ${i + 1})`;
    seen.add(key);
    return key;
  });
}
