import { describe, expect, it } from 'vitest';
import { renderKeyValue, renderTable, type TableColumn } from '../../../src/cli/output/table.js';

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

describe('renderTable, plain', () => {
  it('draws a header row and a line per row, columns two spaces apart, no trailing spaces', () => {
    const out = renderTable(
      ['id', 'name'],
      [
        ['u1', 'Ann'],
        ['u22', null],
      ],
    );
    expect(lines(out)).toEqual(['ID   NAME', 'u1   Ann', 'u22']);
  });

  it('is empty for no rows', () => {
    expect(renderTable(['id'], [])).toBe('');
  });

  it('folds newlines and shows control characters, so a value stays on its line', () => {
    const out = renderTable(['name'], [['two\nlines\u001b[2J']]);
    expect(lines(out)).toEqual(['NAME', 'two lines\\e[2J']);
  });

  it('fits the width by cutting the widest column first, headers kept whole', () => {
    const long = 'x'.repeat(60);
    const out = renderTable(['id', 'note'], [['u1', long]], { width: 30 });
    for (const line of lines(out)) expect([...line].length).toBeLessThanOrEqual(30);
    expect(out).toContain('…');
    expect(lines(out)[0]).toBe('ID  NOTE');
  });

  it('cuts at 48 characters without a width, and cuts nothing with truncate off', () => {
    const long = 'y'.repeat(100);
    expect(lines(renderTable(['v'], [[long]]))[1]).toBe(`${'y'.repeat(47)}…`);
    expect(lines(renderTable(['v'], [[long]], { width: 20, truncate: false }))[1]).toBe(long);
  });
});

describe('renderKeyValue', () => {
  it('puts one field and its value on a line, objects as JSON', () => {
    const out = renderKeyValue([
      ['id', 'ct_1'],
      ['custom_attributes', { plan: 'pro' }],
    ]);
    expect(lines(out)).toEqual(['id                 ct_1', 'custom_attributes  {"plan":"pro"}']);
  });

  it('colours the field names only on a colour terminal', () => {
    expect(renderKeyValue([['id', 'x']], { color: true })).toContain('\u001b[36mid\u001b[39m');
    expect(renderKeyValue([['id', 'x']])).not.toContain('\u001b[');
  });
});
