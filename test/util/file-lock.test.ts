import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, FileLockTimeoutError } from '../../src/util/file-lock.js';

// A pid above any pid_max in use: nobody owns it.
const DEAD_PID = '2147483646';
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'contacts-lock-'));
  file = join(dir, 'data.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('acquireFileLock', () => {
  it('holds the lock with its pid, and a second taker waits until it is released', async () => {
    const release = await acquireFileLock(file);
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(String(process.pid));
    const order: string[] = [];
    let waiting!: () => void;
    const isWaiting = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const second = acquireFileLock(file, { onWait: waiting }).then((r) => {
      order.push('second');
      return r;
    });
    // The second taker has found the lock held; it can only get in after the release below.
    await isWaiting;
    order.push('release');
    await release();
    await (await second)();
    expect(order).toEqual(['release', 'second']);
    await expect(stat(`${file}.lock`)).rejects.toThrow();
  });

  it('takes over a lock whose owner died', async () => {
    await writeFile(`${file}.lock`, DEAD_PID);
    const release = await acquireFileLock(file, { timeoutMs: 1000 });
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(String(process.pid));
    await release();
  });

  it('takes over an old lock without a pid (its owner died before writing it)', async () => {
    await writeFile(`${file}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    const release = await acquireFileLock(file, { timeoutMs: 1000 });
    await release();
  });

  it('gives up on a live owner after the timeout, naming it', async () => {
    await writeFile(`${file}.lock`, String(process.ppid));
    await expect(acquireFileLock(file, { timeoutMs: 50 })).rejects.toBeInstanceOf(FileLockTimeoutError);
    await expect(acquireFileLock(file, { timeoutMs: 50 })).rejects.toThrow(`process ${process.ppid}`);
  });

  it('gives up on a fresh pid-less lock after the timeout instead of spinning', async () => {
    await writeFile(`${file}.lock`, '');
    await expect(acquireFileLock(file, { timeoutMs: 50 })).rejects.toBeInstanceOf(FileLockTimeoutError);
  });

  it('lets one of two waiters at a time take over the same stale lock', async () => {
    await writeFile(`${file}.lock`, DEAD_PID);
    let inside = 0;
    let most = 0;
    const worker = async () => {
      const release = await acquireFileLock(file, { timeoutMs: 5000 });
      inside++;
      most = Math.max(most, inside);
      await new Promise((resolve) => setImmediate(resolve));
      inside--;
      await release();
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(most).toBe(1);
  });

  it('release never removes a lock another process has taken since', async () => {
    const release = await acquireFileLock(file);
    await writeFile(`${file}.lock`, String(process.ppid));
    await release();
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(String(process.ppid));
  });
});
