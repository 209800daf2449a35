// Tables for people: no box, upper-case headers, one line a row, fitted to the terminal.
import { describe, expect, it } from 'vitest';
import { renderKeyValue, renderTable } from '../../../src/cli/output/table.js';

const lines = (text: string) => text.replace(/\n$/, '').split('\n');

describe('renderTable', () => {
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
