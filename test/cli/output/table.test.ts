import { describe, expect, it } from 'vitest';
import { renderTable, type TableColumn } from '../../../src/cli/output/table.js';

const lines = (text: string) => text.trimEnd().split('\n');
const headers = (text: string) => lines(text)[0]!.split(/\s+/);

describe('renderTable', () => {
  it('cuts the widest text column first, never a header, and keeps every plain column', () => {
    const text = renderTable(['key', 'description'], [['k1', 'd'.repeat(100)]], { width: 40 });
    for (const line of lines(text)) expect([...line].length).toBeLessThanOrEqual(40);
    expect(headers(text)).toEqual(['KEY', 'DESCRIPTION']);
    expect(lines(text)[1]).toBe(`k1   ${'d'.repeat(34)}…`);
  });

  it('never cuts a whole column: it leaves out droppable ones, rightmost first, then draws it wider than asked', () => {
    const columns: TableColumn[] = [
      { header: 'id', fit: 'whole' },
      { header: 'note', fit: 'text', drop: 'last' },
      { header: 'a', fit: 'whole', drop: 'first' },
      { header: 'b', fit: 'whole', drop: 'first' },
    ];
    const row = ['i'.repeat(30), 'n'.repeat(30), 'a'.repeat(10), 'b'.repeat(10)];
    expect(headers(renderTable(columns, [row], { width: 200 }))).toEqual(['ID', 'NOTE', 'A', 'B']);
    // 30 + 2 + 16 (a readable note) + 2 + 10 = 60: b goes, a stays.
    expect(headers(renderTable(columns, [row], { width: 60 }))).toEqual(['ID', 'NOTE', 'A']);
    // Below that, a goes before the note is cut under 16 characters.
    const narrow = renderTable(columns, [row], { width: 50 });
    expect(headers(narrow)).toEqual(['ID', 'NOTE']);
    expect(lines(narrow)[1]).toBe(`${'i'.repeat(30)}  ${'n'.repeat(17)}…`);
    // Then the note is cut to its narrowest (6), then left out; the id is drawn whole.
    expect(lines(renderTable(columns, [row], { width: 38 }))[1]).toBe(`${'i'.repeat(30)}  nnnnn…`);
    const tiny = renderTable(columns, [row], { width: 20 });
    expect(lines(tiny)).toEqual(['ID', 'i'.repeat(30)]);
  });

  it('leaves out a dropWhenEmpty column no row fills, and keeps one a row does', () => {
    const columns: TableColumn[] = [{ header: 'id' }, { header: 'extra', dropWhenEmpty: true }];
    expect(
      headers(
        renderTable(columns, [
          ['1', ''],
          ['2', null],
        ]),
      ),
    ).toEqual(['ID']);
    expect(
      headers(
        renderTable(columns, [
          ['1', ''],
          ['2', 'x'],
        ]),
      ),
    ).toEqual(['ID', 'EXTRA']);
  });
});
