// Keeps the mock's state in a JSON file: loaded once at start, saved after writes (coalesced,
// one write in flight) and always replaced atomically, so a crash never leaves half a file.
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from '../util/process-alive.js';
import { writeFileAtomic } from '../util/write-file-atomic.js';
import { MockDataFileError } from './errors.js';

export interface Persistence {
  readonly file: string;
  /** The parsed content of the file; undefined when there is none yet. */
  load<T>(parse: (raw: unknown) => T): Promise<T | undefined>;
  /** Asks for a save of the current state; many calls while a save runs make one more save. */
  schedule(): void;
  /** Resolves when everything scheduled so far is on disk; rejects if the last save failed. */
  flush(): Promise<void>;
}

export interface PersistenceOptions {
  /** Told about a failed background save (the next save retries with the latest state). */
  onError?: (error: Error) => void;
}

/** Temp files of `file` left by a process that died mid-save (kill -9); the data file is whole. */
async function removeStaleTemps(file: string): Promise<void> {
  const prefix = `.${basename(file)}.`;
  for (const name of await readdir(dirname(file))) {
    const m = name.startsWith(prefix) ? /^(\d+)\.(\d+)\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (m && Number(m[1]) !== process.pid && !isProcessAlive(Number(m[1]))) {
      await unlink(join(dirname(file), name)).catch(() => {});
    }
  }
}

export function createPersistence(
  file: string,
  snapshot: () => unknown,
  options: PersistenceOptions = {},
): Persistence {
  let dirty = false;
  let running: Promise<void> | null = null;
  let lastError: Error | null = null;

  async function drain(): Promise<void> {
    // Yield once so that a burst of synchronous writes becomes a single save.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (dirty) {
      dirty = false;
      try {
        await writeFileAtomic(file, JSON.stringify(snapshot()));
        lastError = null;
      } catch (error) {
        lastError = error instanceof Error ? error : new Error(String(error));
        options.onError?.(lastError);
      }
    }
    // Cleared in the same synchronous step as the last `dirty` check: a schedule() can never
    // fall between the two and be lost.
    running = null;
  }

  function schedule(): void {
    dirty = true;
    running ??= drain();
  }

  return {
    file,
    async load<T>(parse: (raw: unknown) => T): Promise<T | undefined> {
      await mkdir(dirname(file), { recursive: true });
      await removeStaleTemps(file);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
        throw new MockDataFileError(file, `Cannot read mock data file ${file}: ${why}`, { cause: error });
      }
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new MockDataFileError(
          file,
          `Mock data file ${file} is corrupt (not JSON: ${(error as Error).message})`,
          {
            cause: error,
          },
        );
      }
      try {
        return parse(raw);
      } catch (error) {
        throw new MockDataFileError(file, `Mock data file ${file} is corrupt: ${(error as Error).message}`, {
          cause: error,
        });
      }
    },
    schedule,
    async flush(): Promise<void> {
      while (running) await running;
      if (lastError) throw new Error(`Could not save mock data file ${file}: ${lastError.message}`);
    },
  };
}
