// Replacing a file all at once: a crash (even kill -9) leaves the old content or the new, never
// half. Every file this tool replaces goes through here: the whole-string `writeFileAtomic` and
// the streaming `openAtomicFile` share one open, one commit (fsync, rename, directory fsync) and
// one cleanup.
import { randomBytes } from 'node:crypto';
import { type FileHandle, lstat, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { checkOutputPaths, writeTarget } from './output-path.js';

/** A file being written beside its target, which `commit()` replaces in one step. */
export interface AtomicFile {
  /** The file `commit()` replaces: the path asked for, through any symlinks. */
  readonly target: string;
  /** The hidden temporary file beside `target` that holds what is written until `commit()`. */
  readonly temp: string;
  /** Appends to the temporary file. Use this or `stream()`, not both. */
  write(data: string | Uint8Array): Promise<void>;
  /** A stream onto the temporary file, made on the first call; `finish()` ends it. */
  stream(): Writable;
  /**
   * Makes the temporary file whole on disk (the stream ended, the file fsynced and closed) without
   * giving it the target's name. `commit()` does this itself; a caller that may decide to keep the
   * temporary file instead (and tell the user where it is) calls it first.
   */
  finish(): Promise<void>;
  /**
   * Finishes, renames the temporary file over `target` and fsyncs the directory. On a failure
   * before the rename the temporary file is removed and `target` left as it was; a failed directory
   * fsync (an I/O error) rejects too, though `target` then already has the new content.
   */
  commit(): Promise<void>;
  /** Gives up: closes and removes the temporary file, leaving `target` as it was. */
  abort(): Promise<void>;
}

/**
 * The file a write to `path` replaces: a symlink is written through, as `cp` would, so the file
 * it points at gets the new content and the link stays. A path that does not exist (or a dangling
 * link) is itself the target. A link another user planted in a shared directory is refused
 * (`OutputPathError`), here too, since a file may be opened long after its path was checked.
 */
export const resolveWriteTarget = writeTarget;

/**
 * Opens a temporary file beside `path` (named `.<name>.<pid>-<random>.partial`) to be written
 * over time and then committed or aborted.
 */
export async function openAtomicFile(path: string): Promise<AtomicFile> {
  const target = await resolveWriteTarget(path);
  // In the target's own directory: a rename within one file system is atomic, across two it fails.
  const temp = join(
    dirname(target),
    `${tempPrefix(target)}${process.pid}-${randomBytes(4).toString('hex')}.partial`,
  );
  const existing = await stat(target).catch(() => null);
  // A replaced file keeps its permissions (a private 0600 file stays private), if it is the user's
  // own: another user's mode says nothing of who may read what this user writes. Only the
  // permission bits: a set-id bit carried onto new content would be a hazard. The temporary file
  // is created with them too, so it is never readable by more people than the file it replaces.
  const mine = existing?.uid === process.geteuid?.() || process.geteuid === undefined;
  const mode = existing?.isFile() && mine ? existing.mode & 0o777 : undefined;
  // Exclusive: never write into a file (or through a symlink) someone else put at that name.
  const handle = await open(temp, 'wx', mode ?? 0o666);
  try {
    // The umask may have taken bits away from `mode`; set exactly the old ones.
    if (mode !== undefined) await handle.chmod(mode);
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
  return new TempFile(target, temp, handle);
}

const tempPrefix = (target: string) => `.${basename(target)}.`;

/**
 * Removes the temporary files a process killed while writing `path` left beside it (kill -9 gives
 * no chance to abort): those of a process no longer running, and this process's own (a pid is
 * used again, and a caller cleans up before it writes). Another live process's are left alone.
 * Returns the files removed.
 */
export async function removeStaleTemps(path: string): Promise<string[]> {
  const target = await resolveWriteTarget(path);
  const dir = dirname(target);
  const prefix = tempPrefix(target);
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = /^(\d+)-[0-9a-f]{8}\.partial$/.exec(name.slice(prefix.length))?.[1];
    if (pid === undefined || (Number(pid) !== process.pid && isRunning(Number(pid)))) continue;
    const file = join(dir, name);
    await rm(file, { force: true });
    removed.push(file);
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Replaces `file` with `data`: written beside it, fsynced, renamed over it, directory fsynced. */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  const atomic = await openAtomicFile(file);
  try {
    await atomic.write(data);
  } catch (error) {
    await atomic.abort();
    throw error;
  }
  await atomic.commit();
}

type State = 'writing' | 'finished' | 'committed' | 'aborted';

class TempFile implements AtomicFile {
  #handle: FileHandle;
  #stream: Writable | null = null;
  #state: State = 'writing';

  constructor(
    readonly target: string,
    readonly temp: string,
    handle: FileHandle,
  ) {
    this.#handle = handle;
  }

  async write(data: string | Uint8Array): Promise<void> {
    this.#expect('writing');
    await writeAll(this.#handle, typeof data === 'string' ? Buffer.from(data) : data);
  }

  stream(): Writable {
    this.#expect('writing');
    // Not `handle.createWriteStream()`: that stream owns the handle (with autoClose off, closing the
    // handle after it waits forever), and the handle must stay ours to fsync and close.
    const handle = this.#handle;
    this.#stream ??= new Writable({
      write: (chunk: Buffer, _encoding, done) => void writeAll(handle, chunk).then(() => done(), done),
      writev: (chunks, done) =>
        void writeAll(handle, Buffer.concat(chunks.map((c) => c.chunk as Buffer))).then(() => done(), done),
    });
    return this.#stream;
  }

  async finish(): Promise<void> {
    if (this.#state === 'finished') return;
    this.#expect('writing');
    try {
      const stream = this.#stream;
      // A stream that already failed says why itself (ending it would only say it was destroyed).
      if (stream?.errored) throw stream.errored;
      if (stream) {
        await new Promise<void>((done, fail) =>
          stream.end((err?: Error | null) => (err ? fail(err) : done())),
        );
      }
      // On disk before it takes the name: a crash never leaves a half file under the target's name.
      await this.#handle.sync();
      await this.#handle.close();
      this.#state = 'finished';
    } catch (error) {
      await this.abort();
      throw error;
    }
  }

  async commit(): Promise<void> {
    await this.finish();
    try {
      // A rename replaces whatever has the name: only ever a regular file (or nothing; a
      // directory it cannot replace).
      const there = await lstat(this.target).catch(() => null);
      if (there && !there.isFile() && !there.isDirectory()) {
        await checkOutputPaths([{ path: this.target, what: 'the file' }]);
        throw new Error(`${this.target} is no longer a regular file; it was left as it is`);
      }
      await rename(this.temp, this.target);
    } catch (error) {
      await this.abort();
      throw error;
    }
    this.#state = 'committed';
    await syncDirectory(dirname(this.target));
  }

  async abort(): Promise<void> {
    // After a commit the temporary name is gone and the target is the new file: nothing to undo.
    if (this.#state === 'committed' || this.#state === 'aborted') return;
    this.#state = 'aborted';
    this.#stream?.destroy();
    await this.#handle.close().catch(() => {});
    await rm(this.temp, { force: true });
  }

  #expect(state: State) {
    if (this.#state !== state) throw new Error(`${this.temp} is already ${this.#state}`);
  }
}

/**
 * Writes all of `data`: one write to a file may take fewer bytes than it is given (at a file size
 * limit the first write is cut short, and only the next one fails).
 */
export async function writeAll(handle: Pick<FileHandle, 'write'>, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    // Zero bytes and no error would loop forever; it does not happen on a file system that works.
    if (bytesWritten === 0) throw new Error('A write to the file made no progress');
    offset += bytesWritten;
  }
}

// Errors saying the platform or file system cannot open or fsync a directory (Windows, some
// network and FUSE file systems): there the rename is as durable as it can be made.
const NO_DIRECTORY_SYNC = new Set(['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'ENOTSUP', 'EBADF']);

/**
 * A rename is durable only once the directory holding the new name is synced; until then a crash
 * may bring back the old file. The one place this tool does it.
 */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    if (NO_DIRECTORY_SYNC.has((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!NO_DIRECTORY_SYNC.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle.close();
  }
}
