// Replaces a file all at once: a crash (even kill -9) leaves the old content or the new, never half.
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let tempCounter = 0;

/** Writes `data` to `file` through a temp file in the same directory: write, fsync, rename. */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  const dir = dirname(file);
  tempCounter += 1;
  // Named `.<file>.<pid>.<n>.tmp`: the mock's persistence removes such leftovers of a killed process.
  const temp = join(dir, `.${basename(file)}.${process.pid}.${tempCounter}.tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  // The rename itself is durable only once the directory is synced; not every platform allows it.
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {}
}
