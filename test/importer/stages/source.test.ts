// The source stage: the kind of input, opening it and reading its records until they end or the
// signal aborts (even while a read waits on a pipe), and the sample read before mapping.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/importer/errors.js';
import type { ImportSource, SourceRecord } from '../../../src/importer/sources/types.js';
import {
  countForProgress,
  inputKind,
  openInputSource,
  readRecords,
  sampleRecords,
} from '../../../src/importer/stages/source.js';
import { useTempHome } from '../../helpers/cli.js';

const home = useTempHome();

/** A source of `count` records whose reads after the last wait forever (a quiet pipe) when `hang`. */
function source(
  count: number,
  options: { hang?: boolean; failAt?: number } = {},
): ImportSource & { closed: number } {
  const s = {
    name: 'test',
    format: 'csv' as const,
    closed: 0,
    records: (async function* () {
      for (let i = 1; i <= count; i++) {
        if (i === options.failAt) throw new Error(`broken at ${i}`);
        yield { row: i, line: i + 1, record: {}, raw: [`v${i}`] } satisfies SourceRecord;
      }
      if (options.hang) await new Promise(() => {});
    })(),
    close() {
      s.closed++;
    },
  };
  return s;
}

async function all(records: AsyncIterable<SourceRecord>) {
  const out: number[] = [];
  for await (const r of records) out.push(r.row);
  return out;
}

describe('inputKind and countForProgress', () => {
  it('a regular file (or one not there yet) is a file, - is stdin, a device is a stream', async () => {
    const file = join(home.dir, 'a.csv');
    await writeFile(file, 'id\n1\n2\n');
    expect(await inputKind(file)).toBe('file');
    expect(await inputKind(join(home.dir, 'none.csv'))).toBe('file');
    expect(await inputKind('-')).toBe('stdin');
    expect(await inputKind('/dev/null')).toBe('stream');
    const opened = await openInputSource(file, {});
    expect(await countForProgress(file, 'file', opened, undefined)).toBe(2);
    expect(await countForProgress('-', 'stdin', opened, undefined)).toBeUndefined();
    opened.close();
  });
});

describe('openInputSource', () => {
  it('ends the wait for an input that never sends its first bytes when the signal aborts', async () => {
    const quiet = new PassThrough();
    const controller = new AbortController();
    const opening = openInputSource('-', { format: 'csv', stdin: quiet }, controller.signal);
    controller.abort();
    await expect(opening).rejects.toThrow(
      new ImportError('Interrupted before the input gave its first line: nothing was sent'),
    );
    quiet.end();
  });
});

describe('readRecords', () => {
  it('yields every record, then closes the source', async () => {
    const s = source(3);
    expect(await all(readRecords(s))).toEqual([1, 2, 3]);
    expect(s.closed).toBe(1);
  });

  it('ends at once when the signal aborts, though the read under it still waits', async () => {
    const s = source(2, { hang: true });
    const controller = new AbortController();
    const rows: number[] = [];
    for await (const r of readRecords(s, controller.signal)) {
      rows.push(r.row);
      if (r.row === 2) setImmediate(() => controller.abort());
    }
    expect(rows).toEqual([1, 2]);
    expect(s.closed).toBe(1);
  });
});

describe('sampleRecords', () => {
  it('holds the first rows’ cells, then hands every record on, those first', async () => {
    const s = source(5);
    expect(await sampleRecords(s, 3)).toEqual([['v1'], ['v2'], ['v3']]);
    expect(await all(s.records)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops holding at the characters bound', async () => {
    const s = source(10);
    expect(await sampleRecords(s, 100, 4)).toHaveLength(2);
    expect(await all(s.records)).toHaveLength(10);
  });

  it('a read that fails within the sample fails again after the rows before it', async () => {
    const s = source(5, { failAt: 3 });
    expect(await sampleRecords(s)).toEqual([['v1'], ['v2']]);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const r of s.records) seen.push(r.row);
      })(),
    ).rejects.toThrow('broken at 3');
    expect(seen).toEqual([1, 2]);
  });
});
