// The fixes file across a resume: the run resumed's records kept (up to the length its checkpoint
// recorded), this run's appended under the one header, none twice.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FixesWriter } from '../../src/importer/fixes.js';
import { resolveMapping } from '../../src/importer/mapping.js';
import type { FieldProblem } from '../../src/importer/row-validator.js';
import type { SourceRecord } from '../../src/importer/sources/types.js';
import { DEFINITIONS, tempDir } from './helpers.js';

const HEADER = ['external_id', 'phonenumber', 'country'];
const mapping = resolveMapping({ header: HEADER, definitions: DEFINITIONS });
const phone = (value: string): FieldProblem[] => [{ field: 'phonenumber', value, reason: 'not a number' }];
const row = (n: number, id: string, number: string): SourceRecord => ({
  row: n,
  line: n + 1,
  record: {},
  raw: [id, number, 'GB'],
});

function writer(path: string, keep?: number | 'whole-records') {
  return new FixesWriter({ path, format: 'csv', mapping, keep });
}

describe('FixesWriter', () => {
  it('appends on resume from the recorded length, cutting what the killed run wrote after it', async () => {
    const path = join(await tempDir(), 'in.fixes.csv');
    const first = writer(path);
    first.write(row(1, 'a', '123'), 'a', phone('123'));
    const recorded = first.length;
    first.write(row(2, 'b', '456'), 'b', phone('456'));
    await first.close();
    const whole = await readFile(path, 'utf8');
    expect(whole.split('\n')).toHaveLength(4);

    // The checkpoint had claimed row 1 only: row 2 is sent again, and its fix written again.
    const second = writer(path, recorded);
    await second.open();
    second.write(row(2, 'b', '456'), 'b', phone('456'));
    second.write(row(3, 'c', '789'), 'c', phone('789'));
    expect(await second.close()).toEqual({ path, count: 2 });
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines[0]).toBe('external_id,name,phonenumber,country,_line,_error');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['a', 'b', 'c']);
    expect(lines[2]).toBe('b,,456,GB,3,phonenumber: not a number');
  });

  it('keeps the fixes of the run resumed when this run has none of its own', async () => {
    const path = join(await tempDir(), 'in.fixes.csv');
    const text = 'external_id,name,phonenumber,country,_line,_error\na,,123,GB,2,phonenumber: not a number\n';
    await writeFile(path, text);
    const resumed = writer(path, Buffer.byteLength(text));
    await resumed.open();
    expect(await resumed.close()).toEqual({ path, count: 0 });
    expect(await readFile(path, 'utf8')).toBe(text);

    // A resume that finds no file where the run resumed wrote one makes none of its own.
    const gone = join(await tempDir(), 'gone.fixes.csv');
    const none = writer(gone, 'whole-records');
    await none.open();
    expect(await none.close()).toBeNull();
    await expect(readFile(gone)).rejects.toThrow();

    // A run that is not a resume writes it anew: with nothing to write, an old one is removed.
    expect(await writer(path).close()).toBeNull();
    await expect(readFile(path)).rejects.toThrow();
  });
});
