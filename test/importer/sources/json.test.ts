import { describe, expect, it } from 'vitest';
import { ImportError, SourceParseError } from '../../../src/importer/errors.js';
import { countRows, openSource } from '../../../src/importer/sources/index.js';
import { fixture, readAll, stdinOf } from '../helpers.js';

describe('JSON array source', () => {
  it('streams the elements with the line each one opens on', async () => {
    const text = [
      '[',
      '  {"external_id": "1", "name": "Ann"},',
      '  {',
      '    "external_id": 2,',
      '    "custom_attributes": {"plan": "pro", "seats": 3}',
      '  }, {"external_id": "3"}',
      ']',
      '',
    ].join('\n');
    const path = await fixture('c.json', text);
    const source = await openSource(path);
    expect(source.format).toBe('json');
    const rows = [];
    for await (const r of source.records) rows.push(r);
    expect(rows.map((r) => [r.line, r.record])).toEqual([
      [2, { external_id: '1', name: 'Ann' }],
      [3, { external_id: 2, custom_attributes: { plan: 'pro', seats: 3 } }],
      [6, { external_id: '3' }],
    ]);
    // Row numbers stay unique where lines are shared.
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3]);
  });

  it('reads a one-line array, with a BOM, from stdin split into tiny chunks', async () => {
    const text = '\uFEFF[{"external_id":"é1","name":"Zoë"},{"external_id":"2"}]';
    const rows = await readAll('-', { format: 'json', stdin: stdinOf(text, 2) });
    expect(rows.map((r) => [r.row, r.line, r.record])).toEqual([
      [1, 1, { external_id: 'é1', name: 'Zoë' }],
      [2, 1, { external_id: '2' }],
    ]);
  });

  it('hands on an element that is not an object as an error with its text', async () => {
    const rows = await readAll(await fixture('p.json', '[\n"just a string",\n[1, 2],\n42\n]'));
    expect(rows.map((r) => [r.line, r.error, r.text])).toEqual([
      [2, 'Expected a JSON object', '"just a string"'],
      [3, 'Expected a JSON object', '[1,2]'],
      [4, 'Expected a JSON object', '42'],
    ]);
  });

  it('drops the _line and _error keys a rejects file adds', async () => {
    const rows = await readAll(
      await fixture('r.json', '[{"external_id":"1","_line":4,"_error":"email: Invalid email","email":"x"}]'),
    );
    expect(rows[0]!.record).toEqual({ external_id: '1', email: 'x' });
  });

  it('reports invalid JSON with its file and line, after the elements before it', async () => {
    const path = await fixture('bad.json', '[\n{"external_id": "1"},\n{"external_id": "2",,}\n]');
    const seen: number[] = [];
    let caught: unknown;
    try {
      for await (const r of (await openSource(path)).records) seen.push(r.line);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual([2]);
    expect(caught).toBeInstanceOf(SourceParseError);
    expect(caught).toMatchObject({ file: path, line: 3, column: undefined });
    expect((caught as Error).message).toMatch(/^.*bad\.json: line 3: invalid JSON: /);
  });

  it('reports a truncated array and a top-level object clearly', async () => {
    await expect(readAll(await fixture('t.json', '[\n{"external_id": "1"},\n'))).rejects.toMatchObject({
      name: 'SourceParseError',
      reason: 'unexpected end of input: the array is not closed',
    });
    // An object spread over lines is neither an array nor one object a line.
    await expect(readAll(await fixture('o.json', '{\n  "external_id": "1"\n}\n'))).rejects.toThrow(
      'expected a JSON array of contacts, found an object (for one object per line, use the ndjson format; for an API',
    );
    await expect(readAll(await fixture('e.json', '  \n'))).rejects.toBeInstanceOf(ImportError);
  });

  it('reads a .json file of one object a line as NDJSON (Zendesk names its JSON export so)', async () => {
    const path = await fixture('export-2024-03-05-1420.json', '{"id": 1}\n{"id": 2}\n');
    const source = await openSource(path);
    expect(source.format).toBe('ndjson');
    const records: Record<string, unknown>[] = [];
    for await (const r of source.records) records.push(r.record);
    expect(records).toEqual([{ id: 1 }, { id: 2 }]);
    // Without a line break too; --format json still asks for an array.
    expect((await openSource(await fixture('one.json', '{"id": 1}'))).format).toBe('ndjson');
    await expect(readAll(path, { format: 'json' })).rejects.toThrow('expected a JSON array of contacts');
    // One object that wraps the records (a saved API answer) is no line of records: refused as JSON
    // as it opens (its first record is read then, to tell a known tool's export).
    const wrapped = await fixture('users.json', '{"users": [{"id": 1}], "next_page": null, "count": 1}\n');
    await expect(openSource(wrapped)).rejects.toThrow(
      /take the array out first: jq '\.subscribers' \S*users\.json\)/,
    );
  });

  it('counts the elements of the array', async () => {
    const path = await fixture('n.json', '[{"a":[1,{"b":2}]}, {"c":"]"}, 3, null]');
    expect(await countRows(path, 'json')).toBe(4);
    expect(await readAll(path)).toHaveLength(4);
  });
});

describe('NDJSON source', () => {
  it('reads one object a line, skips blank lines, and handles CRLF', async () => {
    const text = '{"external_id":"1"}\r\n\r\n{"external_id":"2","name":"Bob"}\r\n   \n{"external_id":"3"}';
    const path = await fixture('c.ndjson', text);
    const rows = await readAll(path);
    expect(rows.map((r) => [r.line, r.record])).toEqual([
      [1, { external_id: '1' }],
      [3, { external_id: '2', name: 'Bob' }],
      [5, { external_id: '3' }],
    ]);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3]);
  });

  it('turns a line that is not JSON into a rejectable record and reads on', async () => {
    const path = await fixture(
      'bad.jsonl',
      '{"external_id":"1"}\n{"external_id": oops}\n"text"\n{"external_id":"4"}\n',
    );
    const rows = await readAll(path);
    expect(rows.map((r) => r.line)).toEqual([1, 2, 3, 4]);
    expect(rows[1]).toMatchObject({ line: 2, text: '{"external_id": oops}', record: {} });
    expect(rows[1]!.error).toMatch(/^Invalid JSON: /);
    expect(rows[2]).toMatchObject({ error: 'Expected a JSON object', text: '"text"' });
    expect(rows[3]!.error).toBeUndefined();
  });

  it('sniffs NDJSON and JSON on stdin from the first character', async () => {
    const nd = await openSource('-', { stdin: stdinOf('\n{"external_id":"1"}\n{"external_id":"2"}\n', 5) });
    expect(nd.format).toBe('ndjson');
    const rows = [];
    for await (const r of nd.records) rows.push([r.line, r.record]);
    expect(rows).toEqual([
      [2, { external_id: '1' }],
      [3, { external_id: '2' }],
    ]);
    const arr = await openSource('-', { stdin: stdinOf(' [{"external_id":"1"}]') });
    expect(arr.format).toBe('json');
    const csv = await openSource('-', { stdin: stdinOf('external_id\n1\n') });
    expect(csv.format).toBe('csv');
  });

  it('skips a line longer than the limit without holding it, and reads on', async () => {
    const { openNdjson } = await import('../../../src/importer/sources/ndjson.js');
    const { openInput } = await import('../../../src/importer/sources/input.js');
    const long = `{"external_id":"x","name":"${'n'.repeat(500)}"}`;
    const text = `{"external_id":"1"}\n${long}\n{"external_id":"3"}\n`;
    const source = openNdjson(await openInput('-', { stdin: stdinOf(text, 64) }), { maxLineLength: 100 });
    const rows = [];
    for await (const r of source.records) rows.push([r.line, r.error ?? r.record]);
    expect(rows).toEqual([
      [1, { external_id: '1' }],
      [2, 'Line is longer than 100 characters, more than one request may carry'],
      [3, { external_id: '3' }],
    ]);
  });

  it('recognises an unparsed line kept by an earlier rejects file', async () => {
    const path = await fixture(
      'r.ndjson',
      '{"_line":2,"_error":"Invalid JSON: x","_raw":"{oops"}\n{"external_id":"1","_line":3,"_error":"e"}\n',
    );
    const rows = await readAll(path);
    expect(rows[0]).toMatchObject({ text: '{oops', record: {} });
    expect(rows[0]!.error).toMatch(/Not JSON in an earlier import/);
    expect(rows[1]!.record).toEqual({ external_id: '1' });
  });

  it('counts non-blank lines', async () => {
    const path = await fixture('n.ndjson', '{"a":1}\n\n  \nnot json\n{"b":2}');
    expect(await countRows(path, 'ndjson')).toBe(3);
    expect(await readAll(path)).toHaveLength(3);
  });
});

describe('numbers a double cannot keep (issue 21)', () => {
  it('rejects the record of a JSON array that holds one, naming where and why', async () => {
    const path = await fixture(
      'n.json',
      '[{"external_id":"a","custom_attributes":{"num":1e400}},\n{"external_id":"b","stripe_accounts":[{"x":1},{"y":1e-400}]},\n{"external_id":"c","custom_attributes":{"num":1e300}}]',
    );
    const rows = await readAll(path);
    expect(rows.map((r) => [r.line, r.error])).toEqual([
      [1, expect.stringMatching(/^custom_attributes\.num: 1e400 is beyond the largest number/)],
      [2, expect.stringMatching(/^stripe_accounts\[1\]\.y: 1e-400 is too small/)],
      [3, undefined],
    ]);
  });

  it('rejects the NDJSON line that holds one, keeping its text as written', async () => {
    const path = await fixture(
      'n.ndjson',
      '{"external_id":"a","custom_attributes":{"num":9007199254740993}}\n{"external_id":"b"}\n',
    );
    const [first, second] = await readAll(path);
    expect(first?.error).toMatch(/^custom_attributes\.num: 9007199254740993 is an integer beyond 2\^53 - 1/);
    expect(first?.text).toBe('{"external_id":"a","custom_attributes":{"num":9007199254740993}}');
    expect(second?.error).toBeUndefined();
  });
});

describe('a JSON file whose top level is not an array', () => {
  it('says what it found, with or without a newline after it, rather than "the file is empty"', async () => {
    for (const [text, found] of [
      ['42', 'the number 42'],
      ['null', 'null'],
      ['42\n', 'the number 42'],
      ['"x"', 'a string'],
      ['true', 'true'],
    ]) {
      await expect(readAll(await fixture('top.json', text!))).rejects.toThrow(
        `line 1: expected a JSON array of contacts, found ${found}`,
      );
    }
  });
});
