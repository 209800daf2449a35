// One value as a cell: the same text in a CSV file and in a table.
import { describe, expect, it } from 'vitest';
import { cell, isoTime } from '../../../src/cli/output/cells.js';

describe('cell', () => {
  it('leaves null and undefined empty, writes objects as JSON and the rest as text', () => {
    expect(cell(null)).toBe('');
    expect(cell(undefined)).toBe('');
    expect(cell({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(cell(false)).toBe('false');
    expect(cell(0)).toBe('0');
    expect(cell('text')).toBe('text');
  });
});

describe('isoTime', () => {
  it('writes Unix seconds as an ISO instant without milliseconds', () => {
    expect(isoTime(0)).toBe('1970-01-01T00:00:00Z');
    expect(isoTime(1_700_000_000)).toBe('2023-11-14T22:13:20Z');
  });

  it('keeps a value no date can hold as the number it was', () => {
    expect(isoTime(1e20)).toBe('100000000000000000000');
  });
});
