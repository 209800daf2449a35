// Tables for people (cli-table3), loaded only when a table is drawn.
import Table from 'cli-table3';
import { cell } from './cells.js';
import { visible } from './visible.js';

export interface TableOptions {
  /** ANSI colours in headers and borders; only when stdout is a TTY and NO_COLOR is unset. */
  color?: boolean;
  /** Longer cell values are cut with an ellipsis so rows stay on one line. */
  maxCellWidth?: number;
}

const DEFAULT_MAX_CELL_WIDTH = 48;

function tableStyle(options: TableOptions) {
  return options.color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] };
}

function fitCell(value: unknown, options: TableOptions): string {
  // A table is for people: control characters in data are shown, never sent to the terminal.
  const text = visible(cell(value).replace(/\s*\n\s*/g, ' '), { singleLine: true });
  const max = options.maxCellWidth ?? DEFAULT_MAX_CELL_WIDTH;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function renderTable(head: string[], rows: unknown[][], options: TableOptions = {}): string {
  const table = new Table({
    head: head.map((h) => visible(h, { singleLine: true })),
    style: tableStyle(options),
  });
  for (const row of rows) table.push(row.map((v) => fitCell(v, options)));
  return `${table.toString()}\n`;
}

export function renderKeyValue(pairs: [string, unknown][], options: TableOptions = {}): string {
  const table = new Table({ style: tableStyle(options) });
  for (const [key, value] of pairs) table.push([key, fitCell(value, options)]);
  return `${table.toString()}\n`;
}
