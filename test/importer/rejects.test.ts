import { link, lstat, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRejectsPath } from '../../src/importer/format.js';
import { resolveMapping } from '../../src/importer/mapping.js';
import { createRejectsWriter } from '../../src/importer/rejects.js';
import { createRowValidator, type RowResult } from '../../src/importer/row-validator.js';
import { openSource, type SourceRecord } from '../../src/importer/sources/index.js';
import { DEFINITIONS, fixture, readAll, tempDir } from './helpers.js';

/** Read `path`, validate every row, and write the rejects where the CLI would. */
async function importLocally(
  path: string,
): Promise<{ results: RowResult[]; rejectsPath: string; written: number }> {
  const source = await openSource(path);
  const mapping = source.header
    ? resolveMapping({ header: source.header, definitions: DEFINITIONS })
    : undefined;
  // --strict: these tests are about rows the rejects file keeps whole.
  const validate = createRowValidator({ definitions: DEFINITIONS, mapping, strict: true });
  const rejectsPath = defaultRejectsPath(path, source.format);
  const writer = createRejectsWriter({
    path: rejectsPath,
    format: source.format,
    header: source.header,
    delimiter: source.delimiter,
    bom: source.bom,
    input: path,
  });
  const results: RowResult[] = [];
  for await (const record of source.records) {
    const result = validate(record);
    results.push(result);
    if (!result.ok) writer.write(result.source, result.reason);
  }
  const summary = await writer.close();
  return { results, rejectsPath, written: summary?.count ?? 0 };
}

const rejectsOf = (results: RowResult[]) => results.flatMap((r) => (r.ok ? [] : [[r.line, r.reason]]));

describe('rejects file', () => {
  it('writes CSV rejects with the header, _line and _error, quoting as needed, and they import again', async () => {
    const text = [
      'External ID;Name;E-mail;Seats',
      '1;"Smith; Ann";ann@example.com;3',
      '2;"Bob ""the"" Builder";bob-at-example;4',
      '3;"Multi',
      'line";c@example.com;many',
      '4;Di;d@example.com;5',
      '',
    ].join('\r\n');
    const path = await fixture('contacts.csv', `\uFEFF${text}`);
    const first = await importLocally(path);
    expect(first.rejectsPath).toBe(path.replace(/contacts\.csv$/, 'contacts.rejects.csv'));
    expect(rejectsOf(first.results)).toEqual([
      [3, 'email: Invalid email'],
      [4, 'custom_attributes.seats: Expected a number or a numeric string'],
    ]);

    const written = await readFile(first.rejectsPath, 'utf8');
    expect(written).toBe(
      '\uFEFFExternal ID;Name;E-mail;Seats;_line;_error\n' +
        '2;"Bob ""the"" Builder";bob-at-example;4;3;email: Invalid email\n' +
        '3;"Multi\r\nline";c@example.com;many;4;custom_attributes.seats: Expected a number or a numeric string\n',
    );

    // Read back by the same source: the same cells, the _line/_error columns gone.
    const original = (await readAll(path)).filter((r) => r.line === 3 || r.line === 4);
    const again = await readAll(first.rejectsPath);
    expect(again.map((r) => r.raw)).toEqual(original.map((r) => r.raw));
    expect(again.map((r) => r.record)).toEqual(original.map((r) => r.record));

    // Imported again unfixed: the same reasons, and no _line/_error reported as unmapped.
    const source = await openSource(first.rejectsPath);
    expect(resolveMapping({ header: source.header!, definitions: DEFINITIONS }).unmapped).toEqual([]);
    source.close();
    const second = await importLocally(first.rejectsPath);
    expect(second.results.map((r) => (r.ok ? null : r.reason))).toEqual([
      'email: Invalid email',
      'custom_attributes.seats: Expected a number or a numeric string',
    ]);

    // Fixed in place, it imports as is.
    const fixedText = written.replace('bob-at-example', 'bob@example.com').replace(';many;', ';7;');
    await writeFile(first.rejectsPath, fixedText);
    const fixed = await importLocally(first.rejectsPath);
    expect(fixed.results.every((r) => r.ok)).toBe(true);
    expect(fixed.written).toBe(0);
  });

  it('keeps a row of the wrong width as it was, so it stays rejected until fixed', async () => {
    const path = await fixture('w.csv', 'external_id,name\n1,Ann,extra\n2\n');
    const { rejectsPath, results } = await importLocally(path);
    expect(await readFile(rejectsPath, 'utf8')).toBe(
      'external_id,name,_line,_error\n' +
        '1,Ann,extra,2,"Row has 3 fields but the header has 2: a value containing "","" must be quoted"\n' +
        '2,3,Row has 1 field but the header has 2\n',
    );
    expect(results.every((r) => !r.ok)).toBe(true);
    const again = await importLocally(rejectsPath);
    expect(again.results.map((r) => (r.ok ? null : r.reason))).toEqual([
      'Row has 5 fields but the header has 4: a value containing "," must be quoted',
      'Row has 3 fields but the header has 4',
    ]);
  });

  it('writes JSON and NDJSON rejects as NDJSON with _line and _error, which read back as the same records', async () => {
    const records = [
      { external_id: '1', email: 'a@example.com' },
      { external_id: '2', email: 'nope', custom_attributes: { plan: 'pro' } },
      { external_id: '3', custom_attributes: { tier: 'gold' } },
    ];
    const path = await fixture('contacts.json', JSON.stringify(records, null, 2));
    const first = await importLocally(path);
    expect(first.rejectsPath).toBe(path.replace(/contacts\.json$/, 'contacts.rejects.ndjson'));
    const lines = (await readFile(first.rejectsPath, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { ...records[1], _line: 6, _error: 'email: Invalid email' },
      {
        ...records[2],
        _line: 13,
        _error: 'custom_attributes.tier: Unknown custom attribute: define it first',
      },
    ]);
    expect((await readAll(first.rejectsPath)).map((r) => r.record)).toEqual([records[1], records[2]]);
    const second = await importLocally(first.rejectsPath);
    expect(rejectsOf(second.results)).toEqual([
      [1, 'email: Invalid email'],
      [2, 'custom_attributes.tier: Unknown custom attribute: define it first'],
    ]);
  });

  it('keeps a line that is not JSON as _raw text', async () => {
    const path = await fixture('c.ndjson', '{"external_id":"1"}\n{oops\n');
    const { rejectsPath } = await importLocally(path);
    const [line] = (await readFile(rejectsPath, 'utf8')).trimEnd().split('\n');
    expect(JSON.parse(line!)).toMatchObject({
      _line: 2,
      _raw: '{oops',
      _error: expect.stringMatching(/^Invalid JSON/),
    });
  });

  it('creates no file when nothing is rejected, and removes a stale one', async () => {
    const path = await fixture('ok.csv', 'external_id\n1\n');
    const stale = defaultRejectsPath(path, 'csv');
    await writeFile(stale, 'external_id,_line,_error\n9,2,old\n');
    const { written } = await importLocally(path);
    expect(written).toBe(0);
    const dir = join(path, '..');
    expect(await readdir(dir)).toEqual(['ok.csv']);
  });

  it('writes the rejects in place, in order, once flushed: never a hidden temporary file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'x.rejects.ndjson');
    await writeFile(path, 'old\n');
    const writer = createRejectsWriter({ path, format: 'ndjson' });
    const record: SourceRecord = { row: 1, line: 1, record: { external_id: '1' } };
    writer.write(record, 'a');
    writer.write({ ...record, row: 2, line: 2 }, 'b');
    // Held until a flush (or enough of them): the old file is replaced at the first write.
    expect(await readFile(path, 'utf8')).toBe('old\n');
    await writer.flush();
    const both = '{"external_id":"1","_line":1,"_error":"a"}\n{"external_id":"1","_line":2,"_error":"b"}\n';
    expect(await readFile(path, 'utf8')).toBe(both);
    expect(await readdir(dir)).toEqual(['x.rejects.ndjson']);
    expect(await writer.close()).toEqual({ path, count: 2 });
    expect(await readFile(path, 'utf8')).toBe(both);
    expect(() => writer.write(record, 'c')).toThrow('already closed');
  });

  it('never writes into the input, even when the path has become a link to it', async () => {
    const dir = await tempDir();
    const input = join(dir, 'in.ndjson');
    const path = join(dir, 'in.rejects.ndjson');
    await writeFile(input, '{"external_id":"1"}\n');
    const failures: Error[] = [];
    const writer = createRejectsWriter({ path, format: 'ndjson', input, onFailure: (e) => failures.push(e) });
    // Meanwhile someone links the rejects path to the input.
    await link(input, path);
    writer.write({ row: 1, line: 1, record: { external_id: '1' } }, 'bad');
    await expect(writer.flush()).rejects.toThrow(`the rejects file ${path} is the input ${input}`);
    expect(failures).toHaveLength(1);
    await expect(writer.close()).rejects.toThrow('is the input');
    expect(await readFile(input, 'utf8')).toBe('{"external_id":"1"}\n');
  });

  it('writes through a symlinked path to the file it points at', async () => {
    const dir = await tempDir();
    const real = join(dir, 'kept.ndjson');
    const path = join(dir, 'x.rejects.ndjson');
    await writeFile(real, 'old\n');
    await symlink('kept.ndjson', path);
    const writer = createRejectsWriter({ path, format: 'ndjson' });
    writer.write({ row: 1, line: 1, record: { external_id: '1' } }, 'bad');
    expect(await writer.close()).toEqual({ path, count: 1 });
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, 'utf8')).toBe('{"external_id":"1","_line":1,"_error":"bad"}\n');
    expect((await readdir(dir)).sort()).toEqual(['kept.ndjson', 'x.rejects.ndjson']);
  });

  it('refuses to write over the input', async () => {
    const path = await fixture('in.ndjson', '');
    expect(() => createRejectsWriter({ path, format: 'ndjson', input: path })).toThrow(
      'would overwrite the input',
    );
  });
});

describe('defaultRejectsPath', () => {
  it('puts the rejects next to the input, in a format that reads back', () => {
    expect(defaultRejectsPath('/d/contacts.csv', 'csv')).toBe('/d/contacts.rejects.csv');
    expect(defaultRejectsPath('/d/contacts.TSV', 'csv')).toBe('/d/contacts.rejects.TSV');
    expect(defaultRejectsPath('/d/contacts.json', 'json')).toBe('/d/contacts.rejects.ndjson');
    expect(defaultRejectsPath('/d/c.jsonl', 'ndjson')).toBe('/d/c.rejects.jsonl');
    expect(defaultRejectsPath('/d/export.txt', 'csv')).toBe('/d/export.rejects.csv');
    expect(defaultRejectsPath('-', 'ndjson', '/work')).toBe('/work/stdin.rejects.ndjson');
  });
});
