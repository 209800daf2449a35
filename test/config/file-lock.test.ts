// The config file's lock: taken with O_EXCL, naming its holder, removed after the change whatever
// happens; a lock left by a dead process of this host broken; any other waited for with the
// injected sleep and clock, then a clear error.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { toExit } from '../../src/cli/exit.js';
import { ConfigError } from '../../src/config/errors.js';
import { type FileLockOptions, withFileLock } from '../../src/config/file-lock.js';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contacts-lock-'));
  lock = path.join(dir, 'config.json.lock');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const holder = (pid: number, host = hostname(), token = 'theirs') =>
  JSON.stringify({ pid, host, token, since: '2024-01-01T00:00:00.000Z' });

/** A clock that moves only when the injected sleep is called, and the sleeps asked for. */
function fakeTime(timeoutMs = 1000): FileLockOptions & { slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return {
    slept,
    timeoutMs,
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
  };
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

describe('withFileLock', () => {
  it('holds a 0600 lock naming this process during the change, and removes it after', async () => {
    const seen = await withFileLock(lock, () => {
      expect(statSync(lock).mode & 0o777).toBe(0o600);
      return JSON.parse(readFileSync(lock, 'utf8'));
    });
    expect(seen).toMatchObject({ pid: process.pid, host: hostname() });
    expect(existsSync(lock)).toBe(false);
  });

  it('removes the lock when the change throws, and throws what it threw', async () => {
    const failure = new Error('write failed');
    await expect(
      withFileLock(lock, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(existsSync(lock)).toBe(false);
  });

  it('breaks a lock left by a process of this host that is gone', async () => {
    writeFileSync(lock, holder(await deadPid()));
    const time = fakeTime();
    expect(await withFileLock(lock, () => 'changed', time)).toBe('changed');
    expect(time.slept).toEqual([]);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(`${lock}.break`)).toBe(false);
  });

  it('waits for a live holder, then gives up with a clear error, leaving its lock', async () => {
    // This very process holds it (under another token): alive.
    writeFileSync(lock, holder(process.pid));
    const time = fakeTime(1000);
    let ran = false;
    const error = await withFileLock(
      lock,
      () => {
        ran = true;
      },
      time,
    ).catch((e: unknown) => e);
    expect(ran).toBe(false);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `The config file is locked by another change (process ${process.pid} on ${hostname()}, since 2024-01-01T00:00:00.000Z): ${lock}`,
    );
    expect((error as ConfigError).hint).toBe(
      `Another contacts command is changing the config file; try again. If none is running, remove ${lock}.`,
    );
    expect(toExit(error).code).toBe(ExitCode.USAGE);
    // Backing off from 5 ms to 100 ms, until the clock passes the timeout.
    expect(time.slept.slice(0, 6)).toEqual([5, 10, 20, 40, 80, 100]);
    expect(time.slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1000);
    expect(readFileSync(lock, 'utf8')).toBe(holder(process.pid));
  });

  it('takes the lock once its holder lets go', async () => {
    writeFileSync(lock, holder(process.pid));
    const time = fakeTime();
    const sleep = time.sleep!;
    time.sleep = async (ms) => {
      await sleep(ms);
      if (time.slept.length === 3) await rm(lock);
    };
    expect(await withFileLock(lock, () => 'mine', time)).toBe('mine');
    expect(time.slept).toHaveLength(3);
  });

  it('never breaks the lock of another host, nor one that names no one', async () => {
    writeFileSync(lock, holder(1, 'another-host'));
    const isAlive = () => false;
    await expect(withFileLock(lock, () => {}, { ...fakeTime(), isAlive })).rejects.toThrow(
      /locked by another change \(process 1 on another-host/,
    );
    expect(readFileSync(lock, 'utf8')).toBe(holder(1, 'another-host'));

    writeFileSync(lock, '');
    await expect(withFileLock(lock, () => {}, { ...fakeTime(), isAlive })).rejects.toThrow(
      /locked by another change \(a lock that names no process\)/,
    );
    expect(existsSync(lock)).toBe(true);
  });

  it('leaves a stale lock to the process already breaking it, unless that one is gone too', async () => {
    writeFileSync(lock, holder(4242));
    const dead = new Set([4242]);
    const isAlive = (pid: number) => !dead.has(pid);

    // A live breaker: wait for it.
    writeFileSync(`${lock}.break`, holder(process.pid, hostname(), 'breaker'));
    await expect(withFileLock(lock, () => {}, { ...fakeTime(), isAlive })).rejects.toBeInstanceOf(
      ConfigError,
    );
    expect(existsSync(lock)).toBe(true);

    // A breaker killed in the midst of it: its lock goes, then the stale one.
    dead.add(4343);
    writeFileSync(`${lock}.break`, holder(4343, hostname(), 'breaker'));
    expect(await withFileLock(lock, () => 'through', { ...fakeTime(), isAlive })).toBe('through');
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(`${lock}.break`)).toBe(false);
  });

  it('leaves alone a lock that is no longer its own when it lets go', async () => {
    await withFileLock(lock, () => {
      // Taken for dead and broken meanwhile, then taken by someone else.
      writeFileSync(lock, holder(process.pid, hostname(), 'someone-else'));
    });
    expect(readFileSync(lock, 'utf8')).toBe(holder(process.pid, hostname(), 'someone-else'));
  });

  it('says when the lock cannot be made at all', async () => {
    const missing = path.join(dir, 'no-such-dir', 'config.json.lock');
    await expect(withFileLock(missing, () => {})).rejects.toThrow(/Cannot lock the config file/);
  });
});
