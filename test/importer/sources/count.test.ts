// Counting an input's records for progress, in one streaming pass: what the sources would yield.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { countCsvRows, countJsonRows, countNdjsonRows } from '../../../src/importer/sources/count.js';
import { openInput } from '../../../src/importer/sources/input.js';

const input = (...chunks: string[]) =>
  openInput('-', { stdin: Readable.from(chunks.map((c) => Buffer.from(c))) });

describe('countCsvRows', () => {
  it('counts data rows: not the header, not blank rows, a quoted line break inside one', async () => {
    const csv = 'id,note\r\nu1,"two\nlines"\n\n , \nu2,x\n';
    expect(await countCsvRows(await input(csv), ',')).toBe(2);
  });

  it('counts the last row without a line end, and the delimiter asked for', async () => {
    expect(await countCsvRows(await input('a;b\n1;2\n3;4'), ';')).toBe(2);
    expect(await countCsvRows(await input('a\tb\n\t\n1\t2\n'), '\t')).toBe(1);
    expect(await countCsvRows(await input(''), ',')).toBe(0);
  });
});

describe('countNdjsonRows', () => {
  it('counts lines that are not blank, lines that are not JSON included', async () => {
    expect(await countNdjsonRows(await input('{"a":1}\r\n\n  \n{"a":', '2}\nnot json\n{"b":3}'))).toBe(4);
  });
});

describe('countJsonRows', () => {
  it('counts the elements of the top-level array, nested ones not', async () => {
    expect(await countJsonRows(await input('[{"a":[1,2,{"x":{}}]},', ' {"b":"[{"}, 3, "s"]'))).toBe(4);
    expect(await countJsonRows(await input('[]'))).toBe(0);
  });

  it('stops quietly at a syntax error, and at an element longer than a record may be', async () => {
    // What came before the chunk that broke stands.
    expect(await countJsonRows(await input('[{"a":1},{"b":2},', '{oops}]'))).toBe(2);
    const long = `[{"a":1},{"b":"${'x'.repeat(200)}"},{"c":3}]`;
    const chunks = long.match(/.{1,20}/g)!;
    expect(await countJsonRows(await input(...chunks), 50)).toBe(2);
    expect(await countJsonRows(await input(...chunks), 1000)).toBe(3);
  });
});
