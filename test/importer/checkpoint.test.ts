import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultCheckpointPath, ImportCheckpoint } from '../../src/importer/checkpoint.js';
import { CheckpointMismatchError } from '../../src/importer/errors.js';
import { fixture } from './helpers.js';

const open = (input: string, resume: boolean, extra: { agentId?: string; settings?: string } = {}) =>
  ImportCheckpoint.open({
    input,
    agentId: extra.agentId ?? 'agent-1',
    resume,
    settings: extra.settings,
    flushIntervalMs: 0,
  });
const saved = async (input: string) => JSON.parse(await readFile(defaultCheckpointPath(input), 'utf8'));

afterEach(() => {
  vi.useRealTimers();
});

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

  it('starts afresh when asked to resume with no checkpoint, and discards one when not resuming', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n');
    const fresh = await open(input, true);
    expect([fresh.resumed, fresh.hasLanded(1)]).toEqual([false, false]);
    fresh.markLanded(1);
    await fresh.flush();

    const over = await open(input, false);
    expect([over.resumed, over.discarded, over.hasLanded(1)]).toEqual([false, true, false]);
    expect(await readdir(dirname(input))).toEqual(['c.csv']);
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

    const stamp = new Date('2024-01-01T00:00:00Z');
    await utimes(input, stamp, stamp);
    await expect(open(input, true, { settings: 'csv|map:a' })).rejects.toMatchObject({
      reasons: ['the file was modified since'],
    });
  });

  it('tells a changed size and a changed start of the file apart', async () => {
    const input = await fixture('c.csv', 'external_id\n1\n2\n');
    const checkpoint = await open(input, false);
    checkpoint.markLanded(1);
    checkpoint.markLanded(2);
    await checkpoint.flush();
    const rewrite = async (text: string) => {
      const before = await saved(input);
      await writeFile(input, text);
      const t = new Date(before.input.mtimeMs);
      await utimes(input, t, t);
    };

    await rewrite('external_id\n1\n9\n');
    const error = await open(input, true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointMismatchError);
    expect((error as CheckpointMismatchError).reasons).toEqual(['the start of the file changed']);
    expect((error as Error).message).toContain('Run without --resume to start over');

    await rewrite('external_id\n1\n2\n3\n');
    await expect(open(input, true)).rejects.toMatchObject({
      reasons: ["the file's size changed from 16 to 18 bytes"],
    });
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
