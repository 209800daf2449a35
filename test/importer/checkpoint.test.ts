import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultCheckpointPath, ImportCheckpoint, importSettings } from '../../src/importer/checkpoint.js';
import {
  CheckpointMismatchError,
  OutputWriteError,
  UnfinishedImportError,
} from '../../src/importer/errors.js';
import { ResultsWriter } from '../../src/importer/results.js';
import { openSource } from '../../src/importer/sources/index.js';
import { fixture } from './helpers.js';

const open = (
  input: string,
  resume: boolean,
  extra: { agentId?: string; settings?: string; restart?: boolean } = {},
) =>
  ImportCheckpoint.open({
    input,
    agentId: extra.agentId ?? 'agent-1',
    resume,
    restart: extra.restart,
    settings: extra.settings,
    flushIntervalMs: 0,
  });
const saved = async (input: string) => JSON.parse(await readFile(defaultCheckpointPath(input), 'utf8'));

afterEach(() => {
  vi.useRealTimers();
});

/** A fresh checkpoint of `input` that has read the whole file and marked every row landed. */
async function landEveryRow(input: string, agentId: string) {
  const source = await openSource(input);
  const cp = await ImportCheckpoint.open({
    input,
    agentId,
    resume: false,
    flushIntervalMs: 0,
    consumed: source.consumed,
  });
  for await (const record of source.records) cp.markLanded(record.row);
  return cp;
}

describe('ImportCheckpoint', () => {
  it('stores landed rows as a low-water mark plus ranges, and a resumed run sees them', async () => {
    const input = await fixture('contacts.csv', 'external_id\n1\n2\n3\n4\n5\n6\n7\n');
    const first = await open(input, false);
    expect([first.resumed, first.discarded]).toEqual([false, false]);
    // Rows land out of order (batches in flight side by side); 4 and 6 have not landed.
    for (const row of [1, 2, 5, 3, 7]) first.markLanded(row);
    await first.flush();
    expect((await saved(input)).landed).toEqual({
      through: 3,
      ranges: [
        [5, 5],
        [7, 7],
      ],
    });
    expect(first.landedThrough).toBe(3);

    const resumed = await open(input, true);
    expect(resumed.resumed).toBe(true);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((row) => resumed.hasLanded(row))).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    resumed.markLanded(6);
    resumed.markLanded(4);
    await resumed.flush();
    expect((await saved(input)).landed).toEqual({ through: 7, ranges: [] });
  });

  it('stays a handful of ranges for a million rows with a few rejects', async () => {
    const input = await fixture('big.csv', 'external_id\n');
    const checkpoint = await open(input, false);
    const rejected = new Set([10, 500_000, 999_999]);
    for (let row = 1; row <= 1_000_000; row++) if (!rejected.has(row)) checkpoint.markLanded(row);
    await checkpoint.flush();
    const text = await readFile(defaultCheckpointPath(input), 'utf8');
    expect(JSON.parse(text).landed).toEqual({
      through: 9,
      ranges: [
        [11, 499_999],
        [500_001, 999_998],
        [1_000_000, 1_000_000],
      ],
    });
    expect(text.length).toBeLessThan(1000);
  });

  it('writes atomically, leaving no temporary file, and keeps marks made while a write runs', async () => {
    const input = await fixture('c.ndjson', '{}\n{}\n{}\n');
    const checkpoint = await open(input, false);
    checkpoint.markLanded(1);
    const writing = checkpoint.flush();
    checkpoint.markLanded(2);
    await Promise.all([writing, checkpoint.flush()]);
    expect((await saved(input)).landed).toEqual({ through: 2, ranges: [] });
    expect((await readdir(dirname(input))).sort()).toEqual(['c.ndjson', 'c.ndjson.import-checkpoint.json']);
  });

  it('flushes by itself some time after a mark, once for many marks', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const input = await fixture('c.ndjson', '{}\n{}\n');
    const checkpoint = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 500,
    });
    const flush = vi.spyOn(checkpoint, 'flush');
    checkpoint.markLanded(1);
    checkpoint.markLanded(2);
    vi.advanceTimersByTime(499);
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(flush).toHaveBeenCalledTimes(1);
    await flush.mock.results[0]!.value;
    expect((await saved(input)).landed).toEqual({ through: 2, ranges: [] });
  });

  it('complete() removes the checkpoint and nothing writes it again', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n');
    const checkpoint = await open(input, false);
    checkpoint.markLanded(1);
    await checkpoint.flush();
    await checkpoint.complete();
    checkpoint.markLanded(2);
    await checkpoint.flush();
    expect(await readdir(dirname(input))).toEqual(['c.csv']);
  });

  it('close() writes the marks left, for an interrupted run', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n2\n');
    const checkpoint = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 60_000,
    });
    checkpoint.markLanded(1);
    checkpoint.markLanded(2);
    await checkpoint.close();
    expect((await saved(input)).landed.through).toBe(2);
  });

  it('starts afresh when asked to resume with no checkpoint, and discards one only when restarting', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n2\n3\n');
    const fresh = await open(input, true);
    expect([fresh.resumed, fresh.hasLanded(1)]).toEqual([false, false]);
    fresh.markLanded(1);
    fresh.markLanded(3);
    await fresh.flush();
    const before = await readFile(defaultCheckpointPath(input), 'utf8');

    // Neither resume nor restart: refused, the checkpoint left as it was.
    const error = await open(input, false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnfinishedImportError);
    expect(error).toMatchObject({
      code: 'unfinished_import',
      path: defaultCheckpointPath(input),
      input,
      landed: 2,
      updatedAt: JSON.parse(before).updatedAt,
    });
    expect(await readFile(defaultCheckpointPath(input), 'utf8')).toBe(before);

    // Both: refused too, before anything is read or removed.
    await expect(open(input, true, { restart: true })).rejects.toThrow('either resumes or restarts');
    expect(await readFile(defaultCheckpointPath(input), 'utf8')).toBe(before);

    const over = await open(input, false, { restart: true });
    expect([over.resumed, over.discarded, over.hasLanded(1)]).toEqual([false, true, false]);
    expect(await readdir(dirname(input))).toEqual(['c.csv']);

    // Restarting with no checkpoint discards nothing.
    const again = await open(input, false, { restart: true });
    expect([again.resumed, again.discarded]).toEqual([false, false]);
  });

  it('refuses a checkpoint it cannot read unless restarting, without counting its rows', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n');
    await writeFile(defaultCheckpointPath(input), '{"version": 1}\n');
    await expect(open(input, false)).rejects.toMatchObject({
      name: 'UnfinishedImportError',
      landed: undefined,
    });
    await expect(open(input, true)).rejects.toMatchObject({
      name: 'CheckpointMismatchError',
      reasons: ['it is not a checkpoint this version can read'],
    });
    expect((await open(input, false, { restart: true })).discarded).toBe(true);
  });

  it('refuses to resume for another agent, other settings, or a changed file', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n2\n');
    const original = await open(input, false, { settings: 'csv|map:a' });
    original.markLanded(1);
    original.markLanded(2);
    await original.flush();

    await expect(open(input, true, { agentId: 'agent-2', settings: 'csv|map:a' })).rejects.toMatchObject({
      name: 'CheckpointMismatchError',
      reasons: ['it was written for agent "agent-1", not "agent-2"'],
    });
    await expect(open(input, true, { settings: 'csv|map:b' })).rejects.toMatchObject({
      reasons: ['the import options (format or column mapping) changed'],
    });
    // Settings records name what changed.
    const named = await fixture('n.csv', 'external_id\n1\n2\n');
    const saved = await open(named, false, { settings: JSON.stringify({ format: 'csv', mapping: 'a' }) });
    saved.markLanded(1);
    await saved.flush();
    await expect(
      open(named, true, { settings: JSON.stringify({ format: 'tsv', mapping: 'a', defaultCountry: 'GB' }) }),
    ).rejects.toMatchObject({ reasons: ['the import options (format) changed'] });

    // A record that kept the default country compares it, and says what the run resumed had; one
    // written before it was kept does not (above: its run may have had one from the profile).
    const kept = await fixture('k.csv', 'external_id\n1\n2\n');
    const gb = await open(kept, false, { settings: importSettings({ format: 'csv', defaultCountry: 'GB' }) });
    gb.markLanded(1);
    await gb.flush();
    await expect(open(kept, true, { settings: importSettings({ format: 'csv' }) })).rejects.toMatchObject({
      mismatches: [
        {
          code: 'option',
          option: 'defaultCountry',
          reason: 'the run resumed had default country GB, this run none',
          was: 'GB',
          now: null,
        },
      ],
    });
    expect(
      (await open(kept, true, { settings: importSettings({ format: 'csv', defaultCountry: 'GB' }) })).resumed,
    ).toBe(true);

    // Touching the file is no change: the content is what is compared.
    const stamp = new Date('2024-01-01T00:00:00Z');
    await utimes(input, stamp, stamp);
    expect((await open(input, true, { settings: 'csv|map:a' })).resumed).toBe(true);
  });

  it('refuses to resume in another time zone; no zone and UTC are one, and so are a zone and its link', async () => {
    const input = await fixture('tz.csv', 'external_id\n1\n2\n');
    const withZone = (timeZone: string | undefined, resume: boolean, restart = false) =>
      ImportCheckpoint.open({
        input,
        agentId: 'agent-1',
        resume,
        restart,
        flushIntervalMs: 0,
        settings: importSettings({ format: 'csv', timeZone }),
      });
    const savedZone = async () => JSON.parse((await saved(input)).settings).timeZone;
    const first = await withZone('America/New_York', false);
    first.markLanded(1);
    await first.flush();
    expect(await savedZone()).toBe('America/New_York');

    const error = await withZone(undefined, true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointMismatchError);
    expect((error as CheckpointMismatchError).mismatches).toEqual([
      {
        code: 'time_zone',
        reason: 'the run resumed read date-times without a zone as America/New_York, this run as UTC',
        was: 'America/New_York',
        now: 'UTC',
      },
    ]);
    await expect(withZone('Europe/London', true)).rejects.toMatchObject({
      reasons: [expect.stringContaining('as America/New_York, this run as Europe/London')],
    });
    expect((await withZone('US/Eastern', true)).resumed).toBe(true);

    // UTC is written as no zone: a checkpoint of a run without --time-zone resumes with UTC.
    const utc = await withZone('UTC', false, true);
    utc.markLanded(1);
    await utc.flush();
    expect(await savedZone()).toBeNull();
    expect((await withZone(undefined, true)).resumed).toBe(true);
    expect((await withZone('Etc/UTC', true)).resumed).toBe(true);
    await expect(withZone('Asia/Kolkata', true)).rejects.toMatchObject({
      mismatches: [
        {
          code: 'time_zone',
          reason: expect.stringContaining('as UTC, this run as Asia/Kolkata'),
          was: 'UTC',
        },
      ],
    });
  });

  it('tells a changed size from an edit of the part read, the mtime kept (touch -r)', async () => {
    // Past the first 64 KiB, which is all an earlier version compared.
    const rows = Array.from({ length: 20_000 }, (_, i) => `u${String(i).padStart(5, '0')}`);
    const input = await fixture('c.csv', `external_id\n${rows.join('\n')}\n`);
    await (await landEveryRow(input, 'agent-1')).flush();
    const rewrite = async (text: string) => {
      const before = await stat(input);
      await writeFile(input, text);
      await utimes(input, before.atime, before.mtime);
    };

    const original = await readFile(input, 'utf8');
    const at = original.indexOf('u19000');
    expect(at).toBeGreaterThan(64 * 1024);
    await rewrite(`${original.slice(0, at)}x19000${original.slice(at + 6)}`);
    const error = await open(input, true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointMismatchError);
    expect((error as CheckpointMismatchError).reasons).toEqual([
      `its first ${original.length} bytes, read by the run resumed, changed`,
    ]);
    // The caller words the way on (--restart): the importer gives the code and the reasons.
    expect((error as CheckpointMismatchError).code).toBe('checkpoint_mismatch');
    expect((error as Error).message).not.toContain('--');

    await rewrite(`${original}u20000\n`);
    await expect(open(input, true)).rejects.toMatchObject({
      reasons: [`the file's size changed from ${original.length} to ${original.length + 7} bytes`],
    });
    await rewrite(original);
    expect((await open(input, true)).landedThrough).toBe(20_000);
  });

  it('keeps what the resumed run had read until this run has read as far', async () => {
    const input = await fixture('c.csv', 'external_id\na\nb\nc\n');
    await (await landEveryRow(input, 'a')).close();
    const before = (await saved(input)).input.consumed;
    expect(before.bytes).toBe(18); // the whole file

    // A resumed run that has read nothing yet still vouches for the bytes the first one read.
    const resumed = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: true,
      flushIntervalMs: 0,
      consumed: { snapshot: () => ({ bytes: 0, sha256: '' }) },
    });
    resumed.markLanded(1);
    await resumed.close();
    expect((await saved(input)).input.consumed).toEqual(before);
  });

  it('refuses a checkpoint it cannot read, and stdin', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n');
    await writeFile(defaultCheckpointPath(input), '{"version": 99}');
    await expect(open(input, true)).rejects.toMatchObject({
      reasons: ['it is not a checkpoint this version can read'],
    });
    await expect(open('-', true)).rejects.toThrow('An import from stdin cannot be resumed');
  });
});

describe('beforeWrite', () => {
  it('runs before each write, so the service is durable before the checkpoint says so', async () => {
    const input = await fixture('hook.csv', 'external_id\na\nb\n');
    const seenOnDisk: boolean[] = [];
    const cp = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 0,
      beforeWrite: async () => {
        seenOnDisk.push(
          await readFile(cp.path, 'utf8').then(
            (t) => t.includes('"through":1'),
            () => false,
          ),
        );
      },
    });
    cp.markLanded(1);
    await cp.flush();
    expect(seenOnDisk).toEqual([false]);
    expect(await readFile(cp.path, 'utf8')).toContain('"through":1');
    await cp.complete();
  });

  it('writes nothing when the hook fails, and tries again on the next flush', async () => {
    const input = await fixture('hook2.csv', 'external_id\na\n');
    let fail = true;
    const cp = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 0,
      beforeWrite: async () => {
        if (fail) throw new Error('disk full');
      },
    });
    cp.markLanded(1);
    await expect(cp.flush()).rejects.toThrow('disk full');
    await expect(readFile(cp.path)).rejects.toThrow();
    fail = false;
    cp.markLanded(2);
    await cp.flush();
    expect(await readFile(cp.path, 'utf8')).toContain('"through":2');
    await cp.complete();
  });
});

describe('the service', () => {
  const withService = (input: string, service: string | undefined, resume: boolean) =>
    ImportCheckpoint.open({ input, agentId: 'a', service, resume, flushIntervalMs: 0 });
  async function landedAt(service: string | undefined) {
    const input = await fixture('svc.csv', 'external_id\na\nb\n');
    const cp = await withService(input, service, false);
    cp.markLanded(1);
    await cp.close();
    return input;
  }

  it('is recorded, and a resume against another one is refused naming both', async () => {
    // How to resume against the service resumed (--base-url, --mock) is the caller's to say:
    // test/cli/output/import-words.test.ts.
    const refusal = (was: string, now: string, reason: string) => ({
      name: 'CheckpointMismatchError',
      mismatches: [{ code: 'service', reason, was, now }],
    });
    const a = await landedAt('https://a.example');
    expect((await saved(a)).service).toBe('https://a.example');
    await expect(withService(a, 'https://b.example', true)).rejects.toMatchObject(
      refusal(
        'https://a.example',
        'https://b.example',
        'the run resumed imported into https://a.example, this run into https://b.example',
      ),
    );
    await expect(withService(a, 'mock:/d/mock.db', true)).rejects.toMatchObject(
      refusal(
        'https://a.example',
        'mock:/d/mock.db',
        'the run resumed imported into https://a.example, this run into the embedded mock (/d/mock.db)',
      ),
    );
    expect((await withService(a, 'https://a.example', true)).resumed).toBe(true);

    const mock = await landedAt('mock:/d/mock.db');
    await expect(withService(mock, 'https://a.example', true)).rejects.toMatchObject(
      refusal(
        'mock:/d/mock.db',
        'https://a.example',
        'the run resumed imported into the embedded mock (/d/mock.db), this run into https://a.example',
      ),
    );
    await expect(withService(mock, 'mock:/e/other.db', true)).rejects.toMatchObject(
      refusal(
        'mock:/d/mock.db',
        'mock:/e/other.db',
        'the run resumed imported into the embedded mock (/d/mock.db), this run into the embedded mock (/e/other.db)',
      ),
    );
  });

  it("is taken to be this run's when the checkpoint is from before it was recorded, and recorded from then on", async () => {
    const input = await landedAt(undefined);
    expect(await saved(input)).not.toHaveProperty('service');
    const resumed = await withService(input, 'https://a.example', true);
    expect([resumed.resumed, resumed.serviceUnrecorded]).toEqual([true, true]);
    resumed.markLanded(2);
    await resumed.close();
    expect((await saved(input)).service).toBe('https://a.example');
    const again = await withService(input, 'https://a.example', true);
    expect(again.serviceUnrecorded).toBe(false);
  });
});

describe('the files a resume appends to', () => {
  it('are measured with the marks, and a resume keeps each at its length where it was written', async () => {
    const input = await fixture('len.csv', 'external_id\na\nb\n');
    let length = 10;
    const cp = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 0,
      outputs: () => ({ results: { path: '/d/results.csv', bytes: length } }),
      beforeWrite: async () => {
        // Records given while the snapshot is written are not in it.
        length = 99;
      },
    });
    expect(cp.resumeOutput('results', '/d/results.csv')).toEqual({ keep: 0 });
    cp.markLanded(1);
    await cp.close();
    expect((await saved(input)).outputs).toEqual({ results: { path: '/d/results.csv', bytes: 10 } });

    const resumed = await ImportCheckpoint.open({ input, agentId: 'a', resume: true, flushIntervalMs: 0 });
    expect(resumed.resumeOutput('results', '/d/results.csv')).toEqual({ keep: 10 });
    // Written elsewhere this time: that file keeps its records, this one starts empty.
    expect(resumed.resumeOutput('results', '/d/other.csv')).toEqual({ keep: 0, elsewhere: '/d/results.csv' });
    // The run resumed wrote no fixes file: nothing of one at that path is its.
    expect(resumed.resumeOutput('fixes', '/d/in.fixes.csv')).toEqual({ keep: 0 });
  });

  it('keep their whole records on a resume of a checkpoint from before lengths were recorded', async () => {
    const input = await fixture('old.csv', 'external_id\na\n');
    const cp = await open(input, false);
    cp.markLanded(1);
    await cp.close();
    expect(await saved(input)).not.toHaveProperty('outputs');
    expect((await open(input, true)).resumeOutput('fixes', '/d/x.csv')).toEqual({ keep: 'whole-records' });
  });
});

describe('a checkpoint that cannot be written', () => {
  it('says which file and why, keeps the one written before, and tells of a failure in the background', async () => {
    const input = await fixture('full.csv', 'external_id\na\nb\n');
    let full = false;
    const failures: unknown[] = [];
    const cp = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 0,
      // An explicit flush says it itself; onFailure is for the writes nobody awaits.
      write: async (path, text) => {
        if (full)
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        await writeFile(path, text);
      },
      onFailure: (e) => failures.push(e),
    });
    cp.markLanded(1);
    await cp.flush();
    full = true;
    cp.markLanded(2);
    const error = await cp.flush().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputWriteError);
    expect((error as Error).message).toBe(
      `Cannot write the resume checkpoint ${cp.path}: the disk is full (ENOSPC)`,
    );
    expect((await saved(input)).landed).toEqual({ through: 1, ranges: [] });

    // A periodic write that fails is told at once (the import stops on it).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let told!: (error: unknown) => void;
    const background = new Promise<unknown>((resolve) => {
      told = resolve;
    });
    const timed = await ImportCheckpoint.open({
      input: await fixture('timed.csv', 'external_id\na\n'),
      agentId: 'a',
      resume: false,
      flushIntervalMs: 100,
      write: async () => {
        throw Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG' });
      },
      onFailure: told,
    });
    timed.markLanded(1);
    vi.advanceTimersByTime(100);
    expect(((await background) as Error).message).toMatch(/: the file size limit was reached \(EFBIG\)$/);
    expect(failures).toEqual([]);
  });
});

describe('the checkpoint and the results file', () => {
  it('claims no row the results file had not received when the checkpoint was written', async () => {
    const input = await fixture('order.csv', 'external_id\na\n');
    const results = await ResultsWriter.open(`${dirname(input)}/results.ndjson`);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered!: () => void;
    const flushing = new Promise<void>((r) => {
      entered = r;
    });
    const cp = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 0,
      beforeWrite: async () => {
        await results.flush();
        entered();
        await gate;
      },
    });
    // As the report stage does: the result record first, then the mark.
    const land = (row: number) => {
      results.write({ line: row + 1, external_id: `e${row}`, id: `c${row}`, action: 'created' });
      cp.markLanded(row);
    };
    // Row 6 is still in flight, so the landed rows are [1, 5] and [7, 9].
    for (const row of [1, 2, 3, 4, 5, 7, 8, 9]) land(row);
    const written = cp.flush();
    await flushing;
    // Rows that land while the results file is being flushed: in neither the flush nor this snapshot.
    for (const row of [10, 6, 11]) land(row);
    release();
    await written;

    const inResults = new Set(
      (await readFile(results.path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).line - 1),
    );
    const { landed } = await saved(input);
    const claimed: number[] = [];
    for (let row = 1; row <= landed.through; row++) claimed.push(row);
    for (const [from, to] of landed.ranges) for (let row = from; row <= to; row++) claimed.push(row);
    expect(claimed).toEqual([1, 2, 3, 4, 5, 7, 8, 9]);
    expect(claimed.filter((row) => !inResults.has(row))).toEqual([]);
    await results.close();
    await cp.complete();
  });
});

describe('the flush interval', () => {
  it('is kept by the marks themselves when no timer gets to run (a service blocking the event loop)', async () => {
    vi.useFakeTimers(); // timers never fire in this test: only marks can start a write
    const input = await fixture('busy.csv', 'external_id\na\n');
    let clock = 0;
    const writes: number[] = [];
    const cp = await ImportCheckpoint.open({
      input,
      agentId: 'a',
      resume: false,
      flushIntervalMs: 1000,
      now: () => clock,
      beforeWrite: async () => {
        writes.push(cp.landedThrough);
      },
    });
    cp.markLanded(1);
    clock = 999;
    cp.markLanded(2);
    clock = 1000;
    cp.markLanded(3); // a second after the first unwritten mark: a write starts now
    // Let the write begin (a few promise jobs, no timer: none would fire here).
    for (let turn = 0; turn < 20 && writes.length === 0; turn++) await Promise.resolve();
    clock = 1500;
    cp.markLanded(4);
    await cp.close();
    expect(writes).toEqual([3, 4]); // the one the marks started, then close()'s
  });
});
