// NDJSON: one object a line; a line that is not JSON is a reject with its text, not a failure.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openInput } from '../../../src/importer/sources/input.js';
import { openNdjson } from '../../../src/importer/sources/ndjson.js';
import type { SourceRecord } from '../../../src/importer/sources/types.js';

async function read(chunks: string[], options: Parameters<typeof openNdjson>[1] = {}) {
  const input = await openInput('-', { stdin: Readable.from(chunks.map((c) => Buffer.from(c))) });
  const source = openNdjson(input, options);
  const out: SourceRecord[] = [];
  for await (const r of source.records) out.push(r);
  return { source, out };
}

describe('openNdjson', () => {
  it('yields each object with its row and line, blank lines skipped, CRLF read', async () => {
    const { source, out } = await read(['{"external_id":"u1"}\r\n\n{"external_id":', '"u2","_line":9}\n']);
    expect(source.format).toBe('ndjson');
    expect(out).toEqual([
      { row: 1, line: 1, record: { external_id: 'u1' } },
      { row: 2, line: 3, record: { external_id: 'u2' } },
    ]);
  });

  it('rejects a line that is not an object, or not JSON, keeping its text', async () => {
    const { out } = await read(['[1]\n{"a":\n{"ok":true}\n']);
    expect(out.map((r) => [r.row, r.line, r.error === undefined, r.text])).toEqual([
      [1, 1, false, '[1]'],
      [2, 2, false, '{"a":'],
      [3, 3, true, undefined],
    ]);
  });

  it('rejects a number JSON cannot carry, naming where', async () => {
    const { out } = await read(['{"custom_attributes":{"n":1e400}}\n']);
    expect(out[0]!.error).toMatch(/custom_attributes\.n/);
  });

  it('rejects a line longer than a request may carry unparsed, and one past the keep limit without its text', async () => {
    const long = `{"external_id":"${'x'.repeat(100)}"}`;
    const { out } = await read([`${long}\n{"a":1}\n`], { maxLineLength: 50 });
    expect(out[0]).toMatchObject({
      row: 1,
      line: 1,
      text: long,
      error: expect.stringMatching(/longer than 50 characters/),
    });
    expect(out[1]).toMatchObject({ row: 2, line: 2, record: { a: 1 } });
    const dropped = await read([long.slice(0, 40), long.slice(40), '\n{"a":1}\n'], {
      maxLineLength: 50,
      maxKeptLength: 60,
    });
    expect(dropped.out[0]!.text).toBeUndefined();
    expect(dropped.out[0]!.error).toBeDefined();
    expect(dropped.out[1]!.record).toEqual({ a: 1 });
  });
});
