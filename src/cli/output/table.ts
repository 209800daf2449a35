// Tables for people (cli-table3), loaded only when a table is drawn: as gh and kubectl draw them,
// columns apart by two spaces under an upper-case header, one line a row, fitted to the
// terminal's width (free text cut with an ellipsis, identifiers never; low-value columns left
// out first) unless --no-truncate.
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
 * A column of a table and how it gives way when the table is wider than the terminal. A bare
 * header string is a `text` column that never drops.
 */
export interface TableColumn {
  header: string;
  /**
   * `text` (free text, a summary) is cut with an ellipsis to fit; `whole` (an id, an email, a
   * phone number, a time) is never cut: a cut identifier is a wrong one. Default: `text`.
   */
  fit?: 'text' | 'whole';
  /** Left out when every cell of it is empty. */
  dropWhenEmpty?: boolean;
  /**
   * Left out when the table does not fit otherwise, rightmost first: `first` before any text
   * column is cut below a readable width (times, summaries), `last` only once every text column
   * is at its narrowest (a name). Unset: always shown.
   */
  drop?: 'first' | 'last';
}

/** Text columns are cut down to this width before a `drop: 'first'` column is left out. */
const READABLE_COLUMN = 16;

interface Fit {
  widths: number[];
  fits: boolean;
}

/**
 * Content widths that fit `width` columns of terminal (gaps included): the widest text columns
 * give up characters first, none below its floor; `fits` false when the floors are too wide.
 */
function fitWidths(natural: number[], floors: number[], width: number): Fit {
  const chrome = (natural.length - 1) * GAP;
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + chrome;
  while (total() > width) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > floors[i]! && (widest === -1 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest === -1) return { widths, fits: false }; // every column at its floor
    widths[widest]!--;
  }
  return { widths, fits: true };
}

/**
 * Which columns to show and how wide, for `width` terminal columns: text cut to a readable
 * width, then `drop: 'first'` columns left out (rightmost first), then text cut to its
 * narrowest, then `drop: 'last'` columns left out. A table of identifiers wider than the
 * terminal is drawn whole (the terminal wraps it) rather than cut.
 */
function layout(
  columns: TableColumn[],
  rows: string[][],
  width: number,
): { shown: number[]; widths: number[] } {
  const natural = columns.map((c, i) => Math.max(length(c.header), ...rows.map((r) => length(r[i] ?? ''))));
  // Headers stay whole: a column whose name is cut is harder to read than a cut value.
  const floor = (least: number) => (i: number) =>
    columns[i]!.fit === 'whole'
      ? natural[i]!
      : Math.min(natural[i]!, Math.max(least, length(columns[i]!.header)));
  let shown = columns.map((_, i) => i);
  const attempt = (least: number) =>
    fitWidths(
      shown.map((i) => natural[i]!),
      shown.map(floor(least)),
      width,
    );
  const dropping = (least: number, stage: 'first' | 'last'): Fit => {
    for (;;) {
      const fit = attempt(least);
      const victim = shown.findLast((i) => columns[i]!.drop === stage);
      if (fit.fits || victim === undefined) return fit;
      shown = shown.filter((i) => i !== victim);
    }
  };
  let fit = dropping(READABLE_COLUMN, 'first');
  if (!fit.fits) fit = dropping(MIN_COLUMN, 'last');
  return { shown, widths: fit.widths };
}

/** Cells cut so the rows fit: to the terminal's width, or to `maxCellWidth` without one. */
function fitted(
  columns: TableColumn[],
  rows: string[][],
  options: TableOptions,
): { head: string[]; rows: string[][] } {
  const head = columns.map((c) => c.header);
  if (options.truncate === false) return { head, rows };
  if (options.width === undefined) {
    const max = options.maxCellWidth ?? DEFAULT_MAX_CELL_WIDTH;
    return { head, rows: rows.map((r) => r.map((c, i) => (columns[i]?.fit === 'whole' ? c : cut(c, max)))) };
  }
  const { shown, widths } = layout(columns, rows, options.width);
  return {
    head: shown.map((i, k) => cut(head[i]!, widths[k]!)),
    rows: rows.map((r) => shown.map((i, k) => cut(r[i] ?? '', widths[k]!))),
  };
}

/**
 * A table with a header row; empty when there are no rows (the command says so in words).
 * Columns marked `dropWhenEmpty` are left out when no row has a value in them.
 */
export function renderTable(
  head: readonly (string | TableColumn)[],
  rows: unknown[][],
  options: TableOptions = {},
): string {
  if (rows.length === 0) return '';
  const cells = rows.map((r) => r.map(text));
  const all = head.map((c) => (typeof c === 'string' ? { header: c } : c));
  const kept = all.flatMap((c, i) => (c.dropWhenEmpty && cells.every((r) => (r[i] ?? '') === '') ? [] : [i]));
  const fit = fitted(
    kept.map((i) => ({ ...all[i]!, header: text(all[i]!.header).toUpperCase() })),
    cells.map((r) => kept.map((i) => r[i] ?? '')),
    options,
  );
  const table = new Table({ head: fit.head, style: tableStyle(options), chars: CHARS });
  for (const row of fit.rows) table.push(row);
  return draw(table);
}

/** Field and value, one pair a line (`contacts get`); the field in colour on a colour terminal. */
export function renderKeyValue(pairs: [string, unknown][], options: TableOptions = {}): string {
  const fit = fitted(
    [{ header: 'field' }, { header: 'value' }],
    pairs.map(([k, v]) => [text(k), text(v)]),
    options,
  );
  const table = new Table({ style: tableStyle(options), chars: CHARS });
  const key = (k: string) => (options.color ? `\u001b[36m${k}\u001b[39m` : k);
  for (const [k, v] of fit.rows) table.push([key(k!), v!]);
  return draw(table);
}
