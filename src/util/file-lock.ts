// An exclusive lock on a file for one process at a time: `<file>.lock` holds the owner's pid, and a
// lock whose owner is gone (kill -9) is taken over, so a crash never blocks later commands.
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { isProcessAlive } from './process-alive.js';

export interface FileLockOptions {
  /** Give up after waiting this long for another live owner. Default 30 s. */
  timeoutMs?: number;
  /** Told once when the lock is held by another process and this one starts waiting. */
  onWait?: (ownerPid: number | undefined) => void;
}

export class FileLockTimeoutError extends Error {
  override name = 'FileLockTimeoutError';
}

/** A lock file without a pid this old was left by a process killed between creating and writing it. */
const PIDLESS_STALE_MS = 2_000;

/** Takes the lock, waiting for a live owner to release it; resolves with the release function. */
export async function acquireFileLock(
  file: string,
  options: FileLockOptions = {},
): Promise<() => Promise<void>> {
  const lockPath = `${file}.lock`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const mine = String(process.pid);
  let told = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(mine);
      await handle.close();
      return async () => {
        // Only our own lock: never one a later owner took over after ours was judged stale.
        if ((await readFile(lockPath, 'utf8').catch(() => '')) === mine)
          await unlink(lockPath).catch(() => {});
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const seen = await readLock(lockPath);
    if (seen === undefined) continue; // released meanwhile
    const stale =
      seen.pid === undefined ? Date.now() - seen.mtimeMs > PIDLESS_STALE_MS : !isProcessAlive(seen.pid);
    if (stale && (await takeOver(lockPath, seen.text))) continue;
    if (Date.now() > deadline) {
      throw new FileLockTimeoutError(
        `${file} is in use${seen.pid === undefined ? '' : ` by process ${seen.pid}`} (lock file ${lockPath})`,
      );
    }
    if (!told) {
      told = true;
      options.onWait?.(seen.pid);
    }
    // Polling a lock file: there is no portable way to be told it was removed.
    await delay(Math.min(200, 10 * 2 ** Math.min(attempt, 5)));
  }
}

async function readLock(
  lockPath: string,
): Promise<{ text: string; pid?: number; mtimeMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    const pid = /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
    return { text, pid, mtimeMs: info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Removes a stale lock so the caller can try again. Moving it aside first makes the takeover
 * safe between two waiters: only one rename succeeds, and if what was moved is not the stale
 * lock that was judged (another waiter already replaced it), it is put back.
 */
async function takeOver(lockPath: string, staleText: string): Promise<boolean> {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleText);
  if (moved !== staleText) await link(aside, lockPath).catch(() => {});
  await unlink(aside).catch(() => {});
  return true;
}
