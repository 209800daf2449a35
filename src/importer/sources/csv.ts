// CSV (and TSV) records streamed with csv-parse, each with the physical line it starts on.
import { parse } from 'csv-parse';
import { restoreFormula } from '../csv-text.js';
import { ImportError, SourceParseError } from '../errors.js';
import { type CsvDelimiter, sniffDelimiter } from '../format.js';
import type { OpenedInput } from './input.js';
import { MAX_RECORD_CHARS, sizeText } from './record-limit.js';
import { readTable } from './table.js';
import { decodeText } from './text.js';
import type { Cell, ImportSource } from './types.js';

export interface CsvOptions {
  /** Overrides sniffing (`.tsv` files pass tab). */
  delimiter?: CsvDelimiter | undefined;
  /** Longest record, in characters; reading stops at one longer (default 16 MiB). */
  maxRecordChars?: number | undefined;
}

interface Parsed {
  cells: Cell[];
  /** csv-parse's running count of the empty lines it skipped, when it read this record. */
  emptyLines: number;
}

/**
 * Open a CSV input: reads the header before returning, so the caller can map columns first.
 * Blank rows (no cell with a non-space character) are skipped. A row whose number of fields differs
 * from the header's (empty cells after the last column aside) is handed on with `error` set: its
 * values could land in the wrong fields.
 */
export async function openCsv(input: OpenedInput, options: CsvOptions = {}): Promise<ImportSource> {
  // The rejects and fixes files are UTF-8: with a BOM where the input had one, or was in a code
  // page (a spreadsheet reads UTF-8 without one in the machine's own code page).
  const bom = input.bom || !/^utf-?8$/i.test(input.encoding);
  const delimiter = options.delimiter ?? sniffDelimiter(input.sampleText);
  const maxRecordChars = options.maxRecordChars ?? MAX_RECORD_CHARS;

  // Records are taken from `on_record` as the parser meets them, not from its readable side: a
  // stream that fails drops what it had buffered, and the rows before a broken quote must still
  // be read (and the error placed after them). The input is written chunk by chunk, one chunk
  // only when the records of the last one are used up, which keeps memory flat.
  const parsed: Parsed[] = [];
  const parser = parse({
    bom: true,
    delimiter,
    // Whitespace around delimiters (outside quotes) is noise, and `a, "b, c"` is common; a quoted
    // value keeps its own whitespace exactly.
    trim: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // Any line ending, even mixed in one file; the line count below follows the same rule.
    record_delimiter: ['\r\n', '\n', '\r'],
    // A record larger than a request body cannot be sent, but it is still read (and rejected,
    // with its content kept in the rejects file) up to this much; past it, a quote is left open.
    max_record_size: maxRecordChars,
    // The record's text as written, beside its cells: it tells `""` from an empty cell (below).
    // (csv-parse's `cast` would say so of each cell, at the cost of a context object per cell.)
    raw: true,
    on_record: (withRaw, context) => {
      // With `raw`, csv-parse hands on { record, raw } (its types do not say so).
      const { record, raw } = withRaw as unknown as { record: string[]; raw: string };
      parsed.push({ cells: cellsOf(record, raw, delimiter), emptyLines: context.empty_lines });
      return null;
    },
  });
  parser.on('error', () => {
    // Reported through the write and end callbacks below.
  });
  parser.resume();
  const chunks = decodeText(input)[Symbol.asyncIterator]();
  let inputDone = false;
  let failure: unknown = null;

  const feed = async () => {
    try {
      const next = await chunks.next();
      if (next.done) {
        inputDone = true;
        await new Promise<void>((resolve, reject) => {
          parser.once('error', reject);
          parser.once('finish', resolve);
          parser.end();
        });
      } else {
        await new Promise<void>((resolve, reject) =>
          parser.write(next.value, (error) => (error ? reject(error) : resolve())),
        );
      }
    } catch (error) {
      failure = error;
    }
  };

  const close = () => {
    parser.destroy();
    input.destroy();
  };

  // csv-parse's own `info.lines` counts a CRLF inside a quoted field twice, so lines are counted
  // here: a record spans 1 + the line breaks inside its cells, plus the empty lines skipped before it.
  let nextLine = 1;
  let emptyLinesSeen = 0;
  let taken = 0;

  const read = async (): Promise<{ cells: Cell[]; line: number; last: number } | null> => {
    while (taken === parsed.length) {
      parsed.length = 0;
      taken = 0;
      if (failure) throw parseError(input.name, failure, nextLine, emptyLinesSeen, maxRecordChars);
      if (inputDone) return null;
      await feed();
    }
    const { cells, emptyLines } = parsed[taken++]!;
    const line = nextLine + (emptyLines - emptyLinesSeen);
    emptyLinesSeen = emptyLines;
    const last = line + lineBreaks(cells);
    nextLine = last + 1;
    return { cells, line, last };
  };

  let table: Awaited<ReturnType<typeof readTable>>;
  try {
    table = await readTable({
      name: input.name,
      read,
      note: input.note,
      widthError: (fields, expected) => widthError(fields, expected, delimiter),
      close,
    });
  } catch (error) {
    close();
    throw error;
  }
  if (!table) {
    close();
    throw new ImportError(`${input.name}: the file is empty: expected a header row`);
  }
  const { header } = table;

  return {
    name: input.name,
    format: 'csv',
    header,
    delimiter,
    bom,
    records: table.records(),
    close,
  };
}

/**
 * The cells as this tool reads them: an empty cell written without quotes is "not given"
 * (undefined), `""` is the empty string, and a value this tool neutralised against spreadsheet
 * formulas gets its leading `'` back off.
 */
function cellsOf(values: string[], raw: string, delimiter: string): Cell[] {
  const cells: Cell[] = values;
  let empty = false;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value === '') empty = true;
    else if (value.charCodeAt(0) === APOSTROPHE) cells[i] = restoreFormula(value);
  }
  if (empty) unquotedEmpties(cells, raw, delimiter);
  return cells;
}

const APOSTROPHE = 0x27;
const QUOTE = 0x22;

/**
 * Sets the empty cells written without quotes to undefined, reading the record's text: split at
 * the delimiters outside quotes, a cell was quoted when its text holds a quote. The parser took
 * the record, so its quotes pair up (a doubled quote inside a quoted value opens and closes again).
 */
function unquotedEmpties(cells: Cell[], raw: string, delimiter: string): void {
  const delim = delimiter.charCodeAt(0);
  let cell = 0;
  let quoted = false;
  let inside = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === QUOTE) {
      inside = !inside;
      quoted = true;
    } else if (c === delim && !inside) {
      if (!quoted && cells[cell] === '') cells[cell] = undefined;
      cell++;
      quoted = false;
    }
  }
  if (!quoted && cells[cell] === '') cells[cell] = undefined;
}

const BREAK_RE = /\r\n|\r|\n/g;

function lineBreaks(cells: Cell[]): number {
  let n = 0;
  for (const cell of cells) {
    if (cell && (cell.includes('\n') || cell.includes('\r'))) n += cell.match(BREAK_RE)!.length;
  }
  return n;
}

function widthError(fields: number, expected: number, delimiter: CsvDelimiter): string {
  const what = `Row has ${fields} field${fields === 1 ? '' : 's'} but the header has ${expected}`;
  const shown = delimiter === '\t' ? 'a tab' : `"${delimiter}"`;
  return fields > expected ? `${what}: a value containing ${shown} must be quoted` : what;
}

const QUOTE_ADVICE = 'a quote inside a value must be doubled ("") and the whole value quoted';

function parseError(
  file: string,
  error: unknown,
  nextLine: number,
  emptyLinesSeen: number,
  maxRecordChars: number,
): Error {
  if (error instanceof ImportError) return error;
  const e = error as { code?: unknown; index?: unknown; empty_lines?: unknown; message?: string };
  if (typeof e.code !== 'string' || !/^(CSV_|INVALID_)/.test(e.code)) return error as Error;
  const skipped = typeof e.empty_lines === 'number' ? e.empty_lines - emptyLinesSeen : 0;
  const line = nextLine + Math.max(0, skipped);
  const column = typeof e.index === 'number' ? e.index + 1 : undefined;
  let reason: string;
  switch (e.code) {
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      reason = `unexpected characters after a closing quote: ${QUOTE_ADVICE}`;
      break;
    case 'INVALID_OPENING_QUOTE':
      reason = `a quote in the middle of an unquoted value: ${QUOTE_ADVICE}`;
      break;
    case 'CSV_QUOTE_NOT_CLOSED':
      reason = 'a quote opened in this record is never closed';
      break;
    case 'CSV_MAX_RECORD_SIZE':
      reason = `the record that starts here is longer than ${sizeText(maxRecordChars)}, far more than a contact (is a quote left open?)`;
      break;
    default:
      reason = e.message ?? String(error);
  }
  return new SourceParseError({ file, line, column, reason, cause: error });
}
