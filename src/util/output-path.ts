// Checks on a path this tool is about to write: that it names no file it must not replace (the
// input itself, through any alias: a symlink, `..`, a hard link), and that it can be written.
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Whether two paths name one file: the same device and inode when both exist, else the same real
 * path once their directories' symlinks are resolved. Strings are never compared as they are.
 */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  if (sa && sb) return sa.dev === sb.dev && sa.ino === sb.ino;
  const [ra, rb] = await Promise.all([realFile(a), realFile(b)]);
  return ra !== null && ra === rb;
}

/** The path with its directory's symlinks resolved (the file itself may not exist yet). */
async function realFile(path: string): Promise<string | null> {
  const full = resolve(path);
  try {
    return await realpath(full);
  } catch {
    try {
      return join(await realpath(dirname(full)), basename(full));
    } catch {
      return null;
    }
  }
}

/**
 * Why `path` cannot be written as a new or replaced file (a directory, a missing or read-only
 * directory, one of the `protect`ed files), or null when it can. `protect` maps each file that
 * must survive to how to name it in the message. A file written in place (`inPlace`, not beside
 * itself and renamed) must itself be writable when it exists.
 */
export async function outputPathProblem(
  path: string,
  protect: Record<string, string> = {},
  options: { inPlace?: boolean } = {},
): Promise<string | null> {
  for (const [file, name] of Object.entries(protect)) {
    if (await sameFile(path, file)) return `it is ${name} (${file}), which would be overwritten`;
  }
  const info = await stat(path).catch(() => null);
  if (info?.isDirectory()) return 'it is a directory';
  const dir = dirname(resolve(path));
  const dirInfo = await stat(dir).catch(() => null);
  if (!dirInfo) return `its directory ${dir} does not exist`;
  if (!dirInfo.isDirectory()) return `${dir} is not a directory`;
  if (info && options.inPlace) {
    return (await allowed(path, constants.W_OK)) ? null : 'permission denied: the file is read-only to you';
  }
  // A new file, or one written beside itself and renamed into place: the directory must be writable.
  if (!(await allowed(dir, constants.W_OK | constants.X_OK))) {
    return `permission denied: its directory ${dir} is not writable to you`;
  }
  return null;
}

const allowed = (path: string, mode: number) =>
  access(path, mode).then(
    () => true,
    () => false,
  );
