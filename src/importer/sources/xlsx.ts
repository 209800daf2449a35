// An Excel workbook (.xlsx) read as CSV is: one sheet's first non-blank row is the header, each
// later non-blank row a record, every cell as a person sees it. The zip is read as a stream
// (excelts' WorkbookReader), one row at a time; a sheet stored before the shared strings it uses
// waits in a temporary file, never in memory.
import { Readable } from 'node:stream';
import { WorkbookReader } from '@cj-tech-master/excelts';
import { MAX_BODY_BYTES } from '../../api/limits.js';
import { ImportError, SourceParseError } from '../errors.js';
import { recordChars, uniqueKeys } from './csv.js';
import type { OpenedInput } from './input.js';
import { type Cell, type ImportSource, REJECT_KEYS, type SourceRecord } from './types.js';

export interface XlsxOptions {
  /** The sheet to read, by its tab name; default the first sheet of the workbook. */
  sheet?: string | undefined;
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

const RESERVED = new Set<string>([REJECT_KEYS.line, REJECT_KEYS.error]);

/**
 * Open a workbook and read the chosen sheet's header before returning. Records carry the
 * sheet's own row number as their line, so a reject names the row a person sees in the sheet.
 */
export async function openXlsx(input: OpenedInput, options: XlsxOptions = {}): Promise<ImportSource> {
  const reader = new WorkbookReader(Readable.from(input.chunks), {
    sharedStrings: 'cache',
    // The styles say which numbers are dates.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const sheets = reader[Symbol.asyncIterator]() as AsyncIterator<SheetReader>;
  let rows: AsyncIterator<WorkbookRow> | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void rows?.return?.().catch(() => {});
    void sheets.return?.(undefined).catch(() => {});
    input.destroy();
  };

  const fail = (error: unknown): Error => {
    if (error instanceof ImportError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new ImportError(`${input.name}: not a readable .xlsx workbook (${reason})`, { cause: error });
  };

  // The sheet wanted: by name, else the first in the workbook's own order (the tab order, which
  // need not be the order the sheets are stored in).
  let sheetName = '';
  try {
    for (;;) {
      const next = await sheets.next();
      if (next.done) {
        const names = workbookSheets(reader);
        throw new ImportError(
          options.sheet === undefined
            ? `${input.name}: the workbook has no sheet`
            : `${input.name}: the workbook has no sheet "${options.sheet}" (sheets: ${names.join(', ') || 'none'})`,
        );
      }
      const sheet = next.value;
      if (isWanted(sheet, reader, options.sheet)) {
        sheetName = sheet.name;
        rows = sheet[Symbol.asyncIterator]();
        break;
      }
      // Another sheet: read past it (its rows are parsed and dropped, one at a time).
      for await (const _ of sheet) {
        // nothing kept
      }
    }
  } catch (error) {
    close();
    throw fail(error);
  }

  const where = () => `${input.name} (sheet "${sheetName}")`;
  const readRow = async (): Promise<{ cells: Cell[]; line: number } | null> => {
    for (;;) {
      let next: IteratorResult<WorkbookRow>;
      try {
        next = await rows!.next();
      } catch (error) {
        throw fail(error);
      }
      if (next.done) return null;
      const cells = rowCells(next.value);
      if (!isBlank(cells)) return { cells, line: next.value.number };
    }
  };

  let first: Awaited<ReturnType<typeof readRow>>;
  try {
    first = await readRow();
  } catch (error) {
    close();
    throw error;
  }
  if (!first) {
    close();
    throw new ImportError(`${where()}: the sheet is empty: expected a header row`);
  }
  const fullHeader = first.cells.map((cell) => cell ?? '');
  const kept = fullHeader.flatMap((cell, i) => (RESERVED.has(cell.trim()) ? [] : [i]));
  const header = kept.map((i) => fullHeader[i]!);
  const keys = uniqueKeys(header);

  async function* records(): AsyncGenerator<SourceRecord> {
    let rowNumber = 0;
    try {
      for (let row = await readRow(); row; row = await readRow()) {
        rowNumber++;
        // Cells right of the header have no column to go to; a sheet's notes often sit there.
        const raw = kept.map((i) => row.cells[i]);
        if (recordChars(raw) > MAX_BODY_BYTES) {
          yield {
            row: rowNumber,
            line: row.line,
            record: {},
            raw,
            error: `Row is larger than ${MAX_BODY_BYTES} bytes, more than one request may carry`,
          };
          continue;
        }
        const record: Record<string, unknown> = Object.create(null);
        keys.forEach((key, i) => {
          record[key] = raw[i];
        });
        yield { row: rowNumber, line: row.line, record, raw };
      }
    } catch (error) {
      throw error instanceof SourceParseError ? error : fail(error);
    } finally {
      close();
    }
  }

  return {
    name: input.name,
    format: 'xlsx',
    header,
    // Its rejects are CSV: with a BOM, a spreadsheet opens them as UTF-8.
    bom: true,
    sheet: sheetName,
    records: records(),
    close,
  };
}

/** The tab names in the workbook's order, once its workbook part has been read. */
function workbookSheets(reader: WorkbookReader): string[] {
  const model = (reader as unknown as { model?: { sheets?: { name: string }[] } }).model;
  return (model?.sheets ?? []).map((s) => s.name);
}

function isWanted(sheet: SheetReader, reader: WorkbookReader, wanted: string | undefined): boolean {
  if (wanted !== undefined) {
    if (sheet.name === wanted) return true;
    // A name typed in another case finds the sheet when no sheet has exactly that name.
    const names = workbookSheets(reader);
    return !names.includes(wanted) && sheet.name.toLowerCase() === wanted.toLowerCase();
  }
  const names = workbookSheets(reader);
  return names.length === 0 || sheet.name === names[0];
}

/** A row's cells by column (1-based in the sheet, 0-based here); gaps are empty cells. */
function rowCells(row: WorkbookRow): Cell[] {
  const cells: Cell[] = [];
  row.eachCell((cell, column) => {
    cells[column - 1] = cellText(cell.value, formatCode(cell.numFmt));
  });
  for (let i = 0; i < cells.length; i++) if (!(i in cells)) cells[i] = undefined;
  return cells;
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
  if (typeof value === 'number') return isDateFormat(numFmt) ? isoDate(excelDate(value)) : numberText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoDate(value);
  if (typeof value === 'object') {
    const v = value as { result?: unknown; richText?: { text?: string }[]; error?: string; text?: unknown };
    if ('formula' in v || 'sharedFormula' in v) return cellText(v.result, numFmt);
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

const isBlank = (cells: Cell[]) => cells.every((c) => c === undefined || c.trim() === '');
