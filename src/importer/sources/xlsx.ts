// An Excel workbook (.xlsx) read as CSV is: one sheet's first non-blank row is the header, each
// later non-blank row a record, every cell as a person sees it. The zip is read as a stream
// (excelts' WorkbookReader), one row at a time, its parts fed in the order the reader needs them
// (see `wholeWorkbook`), so no sheet is ever held in memory or set aside in a temporary file. The
// shared strings are read here, into a compact table (xlsx-strings.ts), not by the reader.
import { createWriteStream, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WorkbookReader } from '@cj-tech-master/excelts';
import { ImportError, SourceParseError } from '../errors.js';
import { NotTextError } from './binary.js';
import type { OpenedInput } from './input.js';
import { MAX_RECORD_CHARS, sizeText } from './record-limit.js';
import { readTable, type TableRow } from './table.js';
import type { Cell, ImportSource } from './types.js';
import { openWorkbookPackage, type WorkbookPackage, WorkbookPackageError } from './xlsx-package.js';
import { readSharedStrings, SHARED_STRINGS_LIMITS, type SharedStrings } from './xlsx-strings.js';

export interface XlsxOptions {
  /** The sheet to read, by its tab name; default the first sheet of the workbook. */
  sheet?: string | undefined;
  /**
   * The input was taken for a workbook by its first bytes (a zip), not by its name or `--format`:
   * a zip that holds no workbook is then refused as a file that is not text.
   */
  byContent?: boolean | undefined;
  /** A row's text, and its XML, at most (default 16 MiB); a shared string too. */
  maxRecordChars?: number | undefined;
}

type SheetReader = AsyncIterable<WorkbookRow> & { name: string; id: number | string };
interface WorkbookRow {
  number: number;
  eachCell(callback: (cell: WorkbookCell, column: number) => void): void;
}
interface WorkbookCell {
  value: unknown;
  numFmt?: string | { formatCode?: string } | undefined;
}

/**
 * Open a workbook and read the chosen sheet's header before returning. Records carry the
 * sheet's own row number as their line, so a reject names the row a person sees in the sheet.
 */
export async function openXlsx(input: OpenedInput, options: XlsxOptions = {}): Promise<ImportSource> {
  const maxChars = options.maxRecordChars ?? MAX_RECORD_CHARS;
  let whole: Awaited<ReturnType<typeof wholeWorkbook>>;
  try {
    whole = await wholeWorkbook(input, options.byContent === true, maxChars);
  } catch (error) {
    input.destroy();
    throw error;
  }
  const { strings } = whole;
  const reader = new WorkbookReader(whole.stream, {
    // The shared strings are read into a table of our own (`whole.strings`): a text cell comes
    // as `{ sharedString: index }`.
    sharedStrings: 'ignore',
    // The styles say which numbers are dates.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  // The reader's events rather than its sheet iterator: throwing into `parse()` is what makes it
  // remove the temporary files of the sheets it set aside (a return() leaves them behind).
  const events = reader.parse();
  // Every wait on the reader also ends when its input fails. (Not by racing each wait against
  // `whole.failure`: a promise that never settles would keep every row raced against it.)
  let failed: { error: unknown } | undefined;
  let waiting: ((error: unknown) => void) | undefined;
  whole.failure.catch((error: unknown) => {
    failed = { error };
    waiting?.(error);
  });
  const orFailure = <T>(pending: Promise<T>): Promise<T> => {
    if (failed) return Promise.reject(failed.error);
    return new Promise<T>((resolve, reject) => {
      waiting = reject;
      pending.then(resolve, reject).finally(() => {
        if (waiting === reject) waiting = undefined;
      });
    });
  };
  const nextSheet = async (): Promise<SheetReader | null> => {
    for (;;) {
      const next = await orFailure(events.next());
      if (next.done) return null;
      if (next.value.eventType === 'worksheet') return next.value.value as unknown as SheetReader;
    }
  };
  let rows: AsyncIterator<WorkbookRow> | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void rows?.return?.().catch(() => {});
    void events.throw?.(new Error('closed')).catch(() => {});
    input.destroy();
    whole.stream.destroy();
    whole.cleanup();
  };

  // The sheet being read (the one wanted, or one read past) and its last row read, for a message.
  let reading = '';
  let lastRow = 0;
  const fail = (error: unknown): Error => {
    if (error instanceof ImportError) return error;
    if (error instanceof WorkbookPackageError && error.reason === 'row-too-large') {
      return new ImportError(
        `${input.name} (sheet "${reading}"): ${lastRow === 0 ? 'at the first row' : `after row ${lastRow}`}: ` +
          error.message,
        { cause: error },
      );
    }
    return new ImportError(`${input.name}: not a readable .xlsx workbook: ${whyUnreadable(error)}`, {
      cause: error,
    });
  };

  // The sheet wanted: by name, else the first visible one that holds a value, in the workbook's
  // own order (the tab order, which need not be the order the sheets are stored in).
  let sheetName = '';
  let wanted: string | undefined;
  try {
    for (;;) {
      const sheet = await nextSheet();
      if (sheet) {
        reading = sheet.name;
        lastRow = 0;
      }
      if (!sheet) {
        const names = workbookSheets(reader, whole.worksheetIds);
        throw new ImportError(
          options.sheet === undefined
            ? `${input.name}: the workbook has no sheet`
            : `${input.name}: the workbook has no sheet "${options.sheet}" (sheets: ${names.join(', ') || 'none'})`,
        );
      }
      if (wanted === undefined) {
        // The workbook part is read by now: the sheets' names and states are known.
        if (options.sheet === undefined) {
          const choice = await defaultSheet(reader, whole);
          wanted = choice.name ?? sheet.name;
          if (choice.note)
            input.note({
              ...choice.note,
              message: `${input.name}: ${choice.note.message}`,
              file: input.name,
            });
        } else wanted = wantedName(workbookSheets(reader, whole.worksheetIds), options.sheet);
      }
      if (sheet.name === wanted) {
        sheetName = sheet.name;
        rows = sheet[Symbol.asyncIterator]();
        break;
      }
      // Another sheet: read past it (its rows are parsed and dropped, one at a time).
      const skipped = sheet[Symbol.asyncIterator]();
      for (let row = await orFailure(skipped.next()); !row.done; row = await orFailure(skipped.next())) {
        lastRow = row.value.number;
        whole.rowRead();
      }
    }
  } catch (error) {
    close();
    throw fail(error);
  }

  const where = () => `${input.name} (sheet "${sheetName}")`;
  /** A formula with no saved result was said of (once a file). */
  let uncomputedSaid = false;
  // Every row, blank ones too: a footer is told by the blank row before it (rows the sheet does
  // not store at all show as a gap in the row numbers).
  const readRow = async (): Promise<TableRow | null> => {
    let next: IteratorResult<WorkbookRow>;
    try {
      next = await orFailure(rows!.next());
    } catch (error) {
      throw fail(error);
    }
    if (next.done) return null;
    const row = next.value;
    lastRow = row.number;
    whole.rowRead();
    const cells = rowCells(row, strings, maxChars);
    if (cells === undefined) {
      throw new ImportError(
        `${where()}: row ${row.number} holds more than ${sizeText(maxChars)} of text, far more than a contact`,
      );
    }
    if (!uncomputedSaid && holdsUncomputedFormula(row)) {
      uncomputedSaid = true;
      input.note({
        code: 'formulas_uncomputed',
        message:
          `${where()}: row ${row.number} holds formulas with no value saved (a program that does not calculate ` +
          'wrote the workbook, or the formula gives an error such as #N/A), read as empty cells: where they were ' +
          'not calculated, open the workbook in a spreadsheet program, save it, and import it again',
        sheet: sheetName,
        row: row.number,
      });
    }
    return { cells, line: row.number, last: row.number };
  };

  let table: Awaited<ReturnType<typeof readTable>>;
  try {
    table = await readTable({
      name: input.name,
      read: readRow,
      note: input.note,
      close,
      failure: (error) => (error instanceof SourceParseError ? error : fail(error)),
    });
  } catch (error) {
    close();
    throw error;
  }
  if (!table) {
    close();
    throw new ImportError(`${where()}: the sheet is empty: expected a header row`);
  }
  const { header } = table;

  return {
    name: input.name,
    format: 'xlsx',
    header,
    // Its rejects are CSV: with a BOM, a spreadsheet opens them as UTF-8.
    bom: true,
    sheet: sheetName,
    records: table.records(),
    close,
  };
}

/**
 * The workbook's bytes, arranged for a streaming read (see `openWorkbookPackage`): the workbook,
 * its relationships, styles and shared strings, then the sheets, whatever order the writer stored
 * them in (Excel stores the shared strings after the sheets, which a reader in file order would
 * have to set aside). Stdin is first copied to a temporary file, as a zip's directory is at its
 * end. A workbook cut short (no directory at its end) is refused here.
 */
async function wholeWorkbook(
  input: OpenedInput,
  byContent: boolean,
  maxChars: number,
): Promise<WorkbookPackage & { strings: SharedStrings | undefined; cleanup(): void }> {
  const fail = (reason: string) => new ImportError(`${input.name}: not a readable .xlsx workbook: ${reason}`);
  const head = input.sample;
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) {
    throw fail(
      'it is an Excel 97-2003 (.xls) or password-protected workbook: save it unprotected as .xlsx or CSV',
    );
  }
  if (!(head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)) {
    const kind = input.binary;
    if (kind) throw fail(`it is not a zip archive, as every .xlsx is: it looks like ${kind}`);
    throw new ImportError(
      `${input.name}: not a readable .xlsx workbook: it is not a zip archive, as every .xlsx is (is it a CSV with an .xlsx name? then read it as CSV)`,
      { detail: { code: 'not_a_workbook', file: input.name } },
    );
  }
  let path = input.path;
  let cleanup = () => {};
  if (path === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'contacts-workbook-'));
    // Synchronous: the CLI may exit as soon as the import ends, before an async removal runs.
    cleanup = () => rmSync(dir, { recursive: true, force: true });
    path = join(dir, 'stdin.xlsx');
    try {
      await pipeline(Readable.from(input.chunks), createWriteStream(path));
    } catch (error) {
      cleanup();
      throw error;
    }
  }
  input.destroy();
  try {
    const pkg = await openWorkbookPackage(path, { maxRowBytes: maxChars });
    const limits = { ...SHARED_STRINGS_LIMITS, maxStringChars: maxChars };
    const strings = pkg.sharedStrings && (await readSharedStrings(pkg.sharedStrings(), input.name, limits));
    return { ...pkg, strings, cleanup };
  } catch (error) {
    cleanup();
    if (!(error instanceof WorkbookPackageError)) throw error;
    if (error.reason === 'not-a-workbook' && byContent) throw new NotTextError(input.name, error.looksLike!);
    if (error.reason === 'too-large')
      throw new ImportError(`${input.name}: ${error.message}: save the sheet as CSV and import that`);
    throw fail(
      error.reason === 'not-a-workbook'
        ? `${error.message}; it looks like ${error.looksLike}`
        : error.message,
    );
  }
}

/** What a person can do about a workbook that cannot be read. */
function whyUnreadable(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/FILE_ENDED|unexpected end|end of (data|file)/i.test(message))
    return 'the file ends early (is it cut short?)';
  return message;
}

/**
 * The names of the sheets that hold rows (not chart sheets) in the workbook's tab order, once
 * its workbook part has been read.
 */
function workbookSheets(reader: WorkbookReader, worksheetIds: Set<string>): string[] {
  return sheetEntries(reader, worksheetIds).map((s) => s.name);
}

interface SheetEntry {
  name: string;
  rId?: string;
  /** `hidden` or `veryHidden`; none for a visible sheet. */
  state?: string;
}

function sheetEntries(reader: WorkbookReader, worksheetIds: Set<string>): SheetEntry[] {
  const model = (reader as unknown as { model?: { sheets?: SheetEntry[] } }).model;
  return (model?.sheets ?? []).filter((s) => s.rId === undefined || worksheetIds.has(s.rId));
}

/**
 * The sheet read when none is named: the first visible sheet that holds a value (a workbook
 * whose first tab is an empty `Sheet1`, or a hidden sheet of settings, has its table further
 * on), else the first visible one; and what to say of it: the other visible sheets that hold
 * values, which are not read (Excel's empty `Sheet2` is not named).
 */
async function defaultSheet(
  reader: WorkbookReader,
  whole: WorkbookPackage & { strings: SharedStrings | undefined },
): Promise<{
  name: string | undefined;
  note?: { code: 'sheets_not_read'; message: string; sheet: string; others: string[] };
}> {
  const entries = sheetEntries(reader, whole.worksheetIds);
  const visible = entries.filter((s) => s.state === undefined || s.state === 'visible');
  const shown = visible.length > 0 ? visible : entries;
  const withValues: string[] = [];
  for (const sheet of shown) {
    if (sheet.rId === undefined || (await whole.holdsValue(sheet.rId, (i) => whole.strings?.get(i))))
      withValues.push(sheet.name);
  }
  const name = withValues[0] ?? shown[0]?.name;
  const others = withValues.slice(1);
  if (name === undefined || (others.length === 0 && name === shown[0]?.name)) return { name };
  const which = name === shown[0]?.name ? 'the first sheet' : 'the first sheet with values';
  return {
    name,
    note: {
      code: 'sheets_not_read',
      message:
        `${which}, ${JSON.stringify(name)}, is read` +
        (others.length > 0
          ? `; the other sheets with values in them are not: ${others.map((n) => JSON.stringify(n)).join(', ')}`
          : ''),
      sheet: name,
      others,
    },
  };
}

/** The sheet `--sheet` names: exactly, else in another case when no sheet has exactly that name. */
function wantedName(names: string[], wanted: string): string {
  return names.includes(wanted)
    ? wanted
    : (names.find((n) => n.toLowerCase() === wanted.toLowerCase()) ?? wanted);
}

/**
 * A row's cells by column (1-based in the sheet, 0-based here); gaps are empty cells. Undefined
 * when their text passes `maxChars` (cells naming one long shared string many times, say).
 */
function rowCells(
  row: WorkbookRow,
  strings: SharedStrings | undefined,
  maxChars: number,
): Cell[] | undefined {
  const cells: Cell[] = [];
  let chars = 0;
  row.eachCell((cell, column) => {
    if (chars > maxChars) return;
    const { value } = cell;
    const text = cellText(
      isSharedString(value) ? strings?.get(value.sharedString) : value,
      formatCode(cell.numFmt),
    );
    chars += text?.length ?? 0;
    cells[column - 1] = text;
  });
  if (chars > maxChars) return undefined;
  for (let i = 0; i < cells.length; i++) if (!(i in cells)) cells[i] = undefined;
  return cells;
}

/**
 * Whether a row holds a formula saved without its result (openpyxl writes `<v/>`: it does not
 * calculate), which reads as an empty cell. (The reader gives an error result, `#N/A`, alike.)
 */
function holdsUncomputedFormula(row: WorkbookRow): boolean {
  let found = false;
  row.eachCell((cell) => {
    const value = cell.value as { formula?: unknown; sharedFormula?: unknown; result?: unknown } | null;
    if (
      !found &&
      typeof value === 'object' &&
      value !== null &&
      ('formula' in value || 'sharedFormula' in value) &&
      (value.result === undefined || (typeof value.result === 'number' && Number.isNaN(value.result)))
    )
      found = true;
  });
  return found;
}

/** A text cell as the reader gives it without a shared-strings table of its own. */
function isSharedString(value: unknown): value is { sharedString: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { sharedString?: unknown }).sharedString === 'number'
  );
}

function formatCode(numFmt: WorkbookCell['numFmt']): string | undefined {
  return typeof numFmt === 'string' ? numFmt : numFmt?.formatCode;
}

/**
 * A cell as a person sees it in the sheet: text as written; a whole number without `.0` (an id
 * typed into a cell is stored as a number); a date cell as an ISO date (with the time only when
 * it has one); a formula as its cached result; TRUE/FALSE; an error as its code (`#N/A`).
 * An empty cell, or empty text, is no value.
 */
export function cellText(value: unknown, numFmt?: string): Cell {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : value;
  // A formula with no saved result (openpyxl writes `<v/>`, as it does not calculate) reads as
  // NaN: no value, not the text `NaN`.
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return isDateFormat(numFmt) ? isoDate(excelDate(value)) : numberText(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDate(value);
  if (typeof value === 'object') {
    const v = value as {
      formula?: unknown;
      result?: unknown;
      richText?: { text?: string }[];
      error?: string;
      text?: unknown;
    };
    if ('formula' in v || 'sharedFormula' in v) {
      // LibreOffice saves a TRUE or FALSE cell as the formula TRUE() or FALSE(), whose result the
      // reader gives as the number 1 or 0.
      const constant = typeof v.formula === 'string' ? /^(TRUE|FALSE)\(\)$/i.exec(v.formula)?.[1] : undefined;
      return constant ? constant.toUpperCase() : cellText(v.result, numFmt);
    }
    if (Array.isArray(v.richText)) return cellText(v.richText.map((r) => r.text ?? '').join(''));
    if (typeof v.error === 'string') return v.error;
    if ('text' in v) return cellText(v.text, numFmt);
  }
  return String(value);
}

/** Up to 15 significant digits, as a spreadsheet shows a number; whole numbers exactly. */
function numberText(n: number): string {
  if (Number.isSafeInteger(n)) return String(n);
  if (!Number.isFinite(n)) return String(n);
  const shown = Number(n.toPrecision(15));
  if (Number.isInteger(shown) && Math.abs(shown) < 1e21) return BigInt(shown).toString();
  return String(shown);
}

const DATE_TOKENS_RE = /[dmyhs]/i;

/** A number format that shows a date or a time (`yyyy-mm-dd`, `m/d/yy h:mm`, `[$-409]mmmm d`). */
function isDateFormat(code: string | undefined): boolean {
  if (!code || code === 'General') return false;
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '');
  return DATE_TOKENS_RE.test(bare) && !/[0#?]/.test(bare.replace(/\.0+/g, ''));
}

/** An Excel serial day number (1900 system) as a UTC date, to the millisecond. */
function excelDate(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86_400_000));
}

/** `2024-05-31` for a date alone, `2024-05-31T10:30:00` (UTC, as stored) when it has a time. */
function isoDate(date: Date): Cell {
  const t = date.getTime();
  if (Number.isNaN(t)) return undefined;
  const iso = new Date(Math.round(t)).toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.endsWith('.000Z') ? iso.slice(0, 19) : iso.slice(0, 23);
}
