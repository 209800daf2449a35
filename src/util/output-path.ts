// The one rule every file this tool writes passes before it is opened: the path names no file
// the tool must not replace (an input, the config file, a database, the undo records, another
// output of the same command: compared by identity, through any alias), follows no symbolic link
// another user planted in a shared directory, and can be written.
import { constants, type Stats } from 'node:fs';
import { access, lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { ContactsError } from '../core/error.js';

/** A file (or with `directory`, everything inside a directory) that no output may replace. */
export interface ProtectedPath {
  path: string;
  /** How a message names it: `the input`, `the config file`. */
  what: string;
  directory?: boolean;
}

/** A file a command is about to write. */
export interface PlannedOutput {
  path: string;
  /** How a message names it: `the rejects file`. */
  what: string;
  /** Which output it is (`rejects`, `out`), for a caller that words the refusal with its option. */
  output?: string;
  /** Opened and written where it is (truncated or appended to), not written beside it and renamed. */
  inPlace?: boolean;
  /** Said after the reason, when a refusal has a way on of its own. */
  hint?: string;
}

export type OutputPathCode =
  /** It is (or is inside) a protected path, or an existing SQLite database. */
  | 'protected_file'
  /** Two outputs of one command are one file. */
  | 'same_file'
  /** A symbolic link on the way is owned by another user, in a sticky world-writable directory. */
  | 'foreign_symlink'
  | 'is_directory'
  | 'no_directory'
  | 'permission_denied';

/** A path this tool refuses to write: nothing has been written to it (or anywhere, before it). */
export class OutputPathError extends ContactsError {
  override name = 'OutputPathError';
  readonly code: OutputPathCode;
  /** The output refused, as its caller named it (`PlannedOutput.output`), if it did. */
  readonly output: string | undefined;
  readonly what: string;
  readonly path: string;
  /** Why, without the path refused (the message has both). */
  readonly reason: string;
  /** What it would have replaced: the protected path, or the other output (`same_file`). */
  readonly conflict: { path: string; what: string; output?: string | undefined } | undefined;
  /** `foreign_symlink`: the link, its owner, and the shared directory holding it. */
  readonly link: ForeignLink | undefined;
  /** The way on the output's planner gave (`PlannedOutput.hint`), which the message ends with. */
  readonly hint: string | undefined;

  constructor(init: {
    code: OutputPathCode;
    target: Pick<PlannedOutput, 'path' | 'what' | 'output' | 'hint'>;
    reason: string;
    conflict?: OutputPathError['conflict'];
    link?: ForeignLink;
  }) {
    const { target } = init;
    super(
      `Cannot write ${target.what} ${target.path}: ${init.reason}${target.hint ? ` ${target.hint}` : ''}`,
    );
    this.code = init.code;
    this.output = target.output;
    this.what = target.what;
    this.path = target.path;
    this.reason = init.reason;
    this.conflict = init.conflict;
    this.link = init.link;
    this.hint = target.hint;
  }
}

export interface ForeignLink {
  path: string;
  uid: number;
  /** The sticky, world-writable directory holding it. */
  dir: string;
}

/**
 * Checks every output of one command against the rule, in order, before any is opened; throws an
 * `OutputPathError` for the first that breaks it.
 */
export async function checkOutputPaths(
  outputs: readonly PlannedOutput[],
  protect: readonly ProtectedPath[] = [],
): Promise<void> {
  for (const [i, output] of outputs.entries()) {
    const refused = await problemOf(output, protect, outputs.slice(0, i));
    if (refused) throw new OutputPathError({ target: output, ...refused });
  }
}

type Problem = Omit<ConstructorParameters<typeof OutputPathError>[0], 'target'>;

async function problemOf(
  output: PlannedOutput,
  protect: readonly ProtectedPath[],
  earlier: readonly PlannedOutput[],
): Promise<Problem | null> {
  const { path } = output;
  const walked = await followPath(path);
  if (walked.foreign) return foreignLink(walked.foreign);
  for (const p of protect) {
    if (p.directory ? await isInside(path, p.path) : await sameFile(path, p.path)) {
      return {
        code: 'protected_file',
        reason: p.directory
          ? `it is in ${p.what} (${p.path}), which only this tool writes`
          : `it is ${p.what} (${p.path}), which would be overwritten`,
        conflict: { path: p.path, what: p.what },
      };
    }
  }
  for (const other of earlier) {
    if (await sameFile(path, other.path)) {
      return {
        code: 'same_file',
        reason: `it is also ${other.what} (${other.path}): one file cannot hold both`,
        conflict: { path: other.path, what: other.what, output: other.output },
      };
    }
  }
  // Through a symlink, the file it points at is the one written, beside itself in its own directory.
  const target = walked.exists ? walked.reached! : resolve(path);
  const info = await stat(target).catch(() => null);
  if (info?.isDirectory()) return { code: 'is_directory', reason: 'it is a directory' };
  if (info?.isFile() && (await isSqliteDatabase(target))) {
    return { code: 'protected_file', reason: 'it holds a SQLite database, which would be overwritten' };
  }
  const dir = dirname(target);
  const dirInfo = await stat(dir).catch(() => null);
  if (!dirInfo) return { code: 'no_directory', reason: `its directory ${dir} does not exist` };
  if (!dirInfo.isDirectory()) return { code: 'no_directory', reason: `${dir} is not a directory` };
  if (info && output.inPlace) {
    return (await allowed(target, constants.W_OK))
      ? null
      : { code: 'permission_denied', reason: 'permission denied: the file is read-only to you' };
  }
  // A new file, or one written beside itself and renamed into place: the directory must be writable.
  if (!(await allowed(dir, constants.W_OK | constants.X_OK))) {
    return {
      code: 'permission_denied',
      reason: `permission denied: its directory ${dir} is not writable to you`,
    };
  }
  return null;
}

/**
 * The file a write to `path` replaces: through its symbolic links, as `cp` would (the file a link
 * points at gets the content, the link stays); a path that does not exist (or a dangling link) is
 * itself the target. A link it would follow that another user planted in a shared directory is
 * refused, as Linux's `fs.protected_symlinks` refuses it.
 */
export async function writeTarget(path: string): Promise<string> {
  const full = resolve(path);
  if (process.platform === 'win32') return realpath(full).catch(() => full);
  const walked = await followPath(full);
  if (walked.foreign) {
    throw new OutputPathError({ target: { path: full, what: 'the file' }, ...foreignLink(walked.foreign) });
  }
  return walked.exists ? walked.reached! : full;
}

const foreignLink = (link: ForeignLink): Problem => ({
  code: 'foreign_symlink',
  reason: `${link.path} is a symbolic link owned by another user (uid ${link.uid}) in the shared directory ${link.dir}; refusing to follow it`,
  link,
});

/** As Linux's ELOOP: more links than this on one path and the kernel gives up. */
const MAX_LINKS = 40;
const STICKY_WORLD_WRITABLE = 0o1002;

/**
 * Walks `path` one name at a time as the kernel does, following each symbolic link met, and
 * stops at the first link `fs.protected_symlinks` would not follow: one in a sticky, world-writable
 * directory (/tmp) owned neither by the user nor by the directory's owner. `reached` is the file
 * the walk ends at, or would once what is missing on the way is made (through a dangling link:
 * the file opening it would create); `exists` whether it is there.
 */
async function followPath(
  path: string,
): Promise<{ reached?: string; exists?: boolean; foreign?: ForeignLink }> {
  const me = process.geteuid?.();
  if (me === undefined) return {};
  const full = resolve(path);
  let dir = parse(full).root;
  let rest = names(full);
  let links = 0;
  while (rest.length > 0) {
    const name = rest.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      dir = dirname(dir);
      continue;
    }
    const here = join(dir, name);
    const info: Stats | null = await lstat(here).catch(() => null);
    // Missing (or unreadable): nothing further is followed; the write creates it, or fails and says why.
    if (!info) return { reached: join(here, ...rest), exists: false };
    if (!info.isSymbolicLink()) {
      dir = here;
      continue;
    }
    if (++links > MAX_LINKS) return {};
    const parent = await stat(dir);
    if (
      (parent.mode & STICKY_WORLD_WRITABLE) === STICKY_WORLD_WRITABLE &&
      info.uid !== me &&
      info.uid !== parent.uid
    ) {
      return { foreign: { path: here, uid: info.uid, dir } };
    }
    const to = await readlink(here);
    if (isAbsolute(to)) dir = parse(to).root;
    rest = [...names(to), ...rest];
  }
  return { reached: dir, exists: true };
}

const names = (path: string) => path.split(sep).filter((n) => n !== '');

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

/** Whether `path` is `dir` or a file below it, both through their symlinks. */
async function isInside(path: string, dir: string): Promise<boolean> {
  const [rp, rd] = await Promise.all([realFile(path), realFile(dir)]);
  if (rp === null || rd === null) return false;
  const rel = relative(rd, rp);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The path with its symlinks resolved, the file itself perhaps not there yet (through a dangling
 * link: the file opening it would create).
 */
async function realFile(path: string): Promise<string | null> {
  const full = resolve(path);
  const walked = await followPath(full);
  if (walked.reached) return walked.reached;
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

/** The files SQLite keeps for a database: itself and the journals beside it. */
export function databaseFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Whether the file begins as every SQLite database does (a mock's data file, wherever it is). */
async function isSqliteDatabase(path: string): Promise<boolean> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => null);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

const allowed = (path: string, mode: number) =>
  access(path, mode).then(
    () => true,
    () => false,
  );
