// Tables for people (cli-table3), loaded only when a table is drawn: as gh and kubectl draw them,
// columns apart by two spaces under an upper-case header, one line a row, fitted to the
// terminal's width, long cells cut with an ellipsis unless --no-truncate.
import Table from 'cli-table3';
import { cell } from './cells.js';
import { visible } from './visible.js';

export interface TableOptions {
  /** ANSI colours in headers and borders; only when stdout is a TTY and NO_COLOR is unset. */
  color?: boolean;
  /** Columns the table may take (the terminal's width); unset, cells are cut at `maxCellWidth`. */
  width?: number | undefined;
  /** Cut cells so rows stay on one line (default); false prints every character (--no-truncate). */
  truncate?: boolean;
  /** Without a width, longer cell values are cut with an ellipsis at this many characters. */
  maxCellWidth?: number;
}

const DEFAULT_MAX_CELL_WIDTH = 48;
/** A column is never squeezed below this many characters, nor below its header's length. */
const MIN_COLUMN = 6;
const ELLIPSIS = '…';

// No box and no line between rows: a table of 20 contacts is 21 lines, and copies cleanly.
const GAP = 2;
const CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
};

function tableStyle(options: TableOptions) {
  return { head: options.color ? ['cyan', 'bold'] : [], border: [], 'padding-left': 0, 'padding-right': 0 };
}

/** cli-table3 pads the last column too; a terminal line needs no trailing spaces. */
function draw(table: { toString(): string }): string {
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')}\n`;
}

/** A value as one line of visible text: newlines folded, control characters shown. */
function text(value: unknown): string {
  return visible(cell(value).replace(/\s*\n\s*/g, ' '), { singleLine: true });
}

const length = (s: string) => [...s].length;

function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length > max ? `${chars.slice(0, Math.max(0, max - 1)).join('')}${ELLIPSIS}` : s;
}

/**
 * Content widths that fit `width` columns of terminal (borders and padding included): the
 * widest columns give up characters first, none below its floor. Null when nothing needs cutting.
 */
function fitWidths(natural: number[], floors: number[], width: number): number[] | null {
  const chrome = (natural.length - 1) * GAP;
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + chrome;
  if (total() <= width) return null;
  while (total() > width) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > floors[i]! && (widest === -1 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest === -1) break; // every column at its floor: the terminal is too narrow to fit
    widths[widest]!--;
  }
  return widths;
}

/** Cells cut so the rows fit: to the terminal's width, or to `maxCellWidth` without one. */
function fitted(
  head: string[],
  rows: string[][],
  options: TableOptions,
): { head: string[]; rows: string[][] } {
  if (options.truncate === false) return { head, rows };
  if (options.width === undefined) {
    const max = options.maxCellWidth ?? DEFAULT_MAX_CELL_WIDTH;
    return { head, rows: rows.map((r) => r.map((c) => cut(c, max))) };
  }
  const natural = head.map((h, i) => Math.max(length(h), ...rows.map((r) => length(r[i] ?? ''))));
  // Headers stay whole: a column whose name is cut is harder to read than a cut value.
  const floors = head.map((h, i) => Math.min(natural[i]!, Math.max(MIN_COLUMN, length(h))));
  const widths = fitWidths(natural, floors, options.width);
  if (!widths) return { head, rows };
  return {
    head: head.map((h, i) => cut(h, widths[i]!)),
    rows: rows.map((r) => r.map((c, i) => cut(c, widths[i]!))),
  };
}

/** A table with a header row; empty when there are no rows (the command says so in words). */
export function renderTable(head: string[], rows: unknown[][], options: TableOptions = {}): string {
  if (rows.length === 0) return '';
  const fit = fitted(
    head.map((h) => text(h).toUpperCase()),
    rows.map((r) => r.map(text)),
    options,
  );
  const table = new Table({ head: fit.head, style: tableStyle(options), chars: CHARS });
  for (const row of fit.rows) table.push(row);
  return draw(table);
}

/** Field and value, one pair a line (`contacts get`); the field in colour on a colour terminal. */
export function renderKeyValue(pairs: [string, unknown][], options: TableOptions = {}): string {
  const fit = fitted(
    ['field', 'value'],
    pairs.map(([k, v]) => [text(k), text(v)]),
    options,
  );
  const table = new Table({ style: tableStyle(options), chars: CHARS });
  const key = (k: string) => (options.color ? `\u001b[36m${k}\u001b[39m` : k);
  for (const [k, v] of fit.rows) table.push([key(k!), v!]);
  return draw(table);
}
