// An exclusive lock on a file for one process at a time: `<file>.lock` holds the owner's pid, and a
// lock whose owner is gone (kill -9) is taken over, so a crash never blocks later commands.
import { open, readFile, unlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { isProcessAlive } from './process-alive.js';

export interface FileLockOptions {
  /** Give up after waiting this long for another live owner. Default 30 s. */
  timeoutMs?: number;
  /** Told once when the lock is held by another process and this one starts waiting. */
  onWait?: (ownerPid: number) => void;
}

export class FileLockTimeoutError extends Error {
  override name = 'FileLockTimeoutError';
}

/** Takes the lock, waiting for a live owner to release it; resolves with the release function. */
export async function acquireFileLock(
  file: string,
  options: FileLockOptions = {},
): Promise<() => Promise<void>> {
  const lockPath = `${file}.lock`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let told = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => unlink(lockPath).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await readFile(lockPath, 'utf8').catch(() => ''), 10);
    if (!Number.isInteger(owner) || !isProcessAlive(owner)) {
      // Its owner died (or is still writing its pid: then the next round sees a live pid).
      if (Number.isInteger(owner)) await unlink(lockPath).catch(() => {});
      else await delay(5);
      continue;
    }
    if (Date.now() > deadline) {
      throw new FileLockTimeoutError(`${file} is in use by process ${owner} (lock file ${lockPath})`);
    }
    if (!told) {
      told = true;
      options.onWait?.(owner);
    }
    // Polling a lock file: there is no portable way to be told it was removed.
    await delay(Math.min(200, 10 * 2 ** Math.min(attempt, 5)));
  }
}
