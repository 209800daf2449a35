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
  /**
   * A mock's database, opened where it is: that it (or a name beside it) holds a SQLite database
   * is what it is for, not a refusal; whether it can be opened and written its opener says.
   */
  database?: boolean;
}

export type OutputPathCode =
  /** It is (or is inside) a protected path, or an existing SQLite database. */
  | 'protected_file'
  /** Two outputs of one command are one file. */
  | 'same_file'
  /** A symbolic link on the way is owned by another user, in a sticky world-writable directory. */
  | 'foreign_symlink'
  /** The file is owned by another user, in a sticky world-writable directory (`fs.protected_regular`). */
  | 'foreign_file'
  /** It exists and is no regular file: a device, a named pipe, a socket. */
  | 'not_regular_file'
  /** It is a symbolic link to a file that does not exist. */
  | 'dangling_symlink'
  | 'is_directory'
  | 'no_directory'
  | 'permission_denied';

/** A path this tool refuses to write: nothing has been written to it (or anywhere, before it). */
export class OutputPathError extends ContactsError {
  readonly code: OutputPathCode;
  /** The output refused, as its caller named it (`PlannedOutput.output`), if it did. */
  readonly output: string | undefined;
  readonly what: string;
  readonly path: string;
  /** Why, without the path refused (the message has both). */
  readonly reason: string;
  /** What it would have replaced: the protected path, or the other output (`same_file`). */
  readonly conflict: { path: string; what: string; output?: string | undefined } | undefined;
  /** `foreign_symlink`, `foreign_file`: the link (or file), its owner, and the shared directory holding it. */
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
  if (walked.foreign) return foreignProblem(walked.foreign);
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
  if (walked.dangling) return danglingLink(walked.dangling);
  // Through a symlink, the file it points at is the one written, beside itself in its own directory.
  const target = walked.exists ? walked.reached! : resolve(path);
  const info = await stat(target).catch(() => null);
  if (info?.isDirectory()) return { code: 'is_directory', reason: 'it is a directory' };
  if (info && !info.isFile()) return notRegular(info);
  if (!output.database) {
    if (info && (await isSqliteDatabase(target))) {
      return { code: 'protected_file', reason: 'it holds a SQLite database, which would be overwritten' };
    }
    const journalOf = await journaledDatabase(target);
    if (journalOf) {
      return {
        code: 'protected_file',
        reason: `it is a journal of the SQLite database ${journalOf}, whose data it would destroy`,
        conflict: { path: journalOf, what: 'a SQLite database' },
      };
    }
  }
  // Whether a database can be opened and written there its opener says, in its own words.
  if (output.database) return null;
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
 * points at gets the content, the link stays); a path that does not exist is itself the target.
 * Refused (`OutputPathError`), as where the path was checked, since a file may be opened long
 * after: a link or file another user planted in a shared directory (Linux's
 * `fs.protected_symlinks` and `fs.protected_regular`), a dangling link, and anything but a
 * regular file (a device, a named pipe: a rename would replace it).
 */
export async function writeTarget(path: string): Promise<string> {
  const full = resolve(path);
  if (process.platform === 'win32') return realpath(full).catch(() => full);
  const walked = await followPath(full);
  const refuse = (problem: Problem) =>
    new OutputPathError({ target: { path: full, what: 'the file' }, ...problem });
  if (walked.foreign) throw refuse(foreignProblem(walked.foreign));
  if (walked.dangling) throw refuse(danglingLink(walked.dangling));
  if (!walked.exists) return full;
  const info = await stat(walked.reached!).catch(() => null);
  if (info && !info.isFile() && !info.isDirectory()) throw refuse(notRegular(info));
  return walked.reached!;
}

const foreignProblem = (found: ForeignLink & { file?: boolean }): Problem => {
  const { file, ...link } = found;
  return file
    ? {
        code: 'foreign_file',
        reason: `it is owned by another user (uid ${link.uid}) in the shared directory ${link.dir}; refusing to write into a file someone else put there`,
        link,
      }
    : {
        code: 'foreign_symlink',
        reason: `${link.path} is a symbolic link owned by another user (uid ${link.uid}) in the shared directory ${link.dir}; refusing to follow it`,
        link,
      };
};

const danglingLink = (link: { path: string; to: string }): Problem => ({
  code: 'dangling_symlink',
  reason: `${link.path} is a symbolic link to ${link.to}, which does not exist`,
});

const notRegular = (info: Stats): Problem => ({
  code: 'not_regular_file',
  reason: `it is ${kindOf(info)}, not a regular file`,
});

function kindOf(info: Stats): string {
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  return 'not a file';
}

/** As Linux's ELOOP: more links than this on one path and the kernel gives up. */
const MAX_LINKS = 40;
const STICKY_WORLD_WRITABLE = 0o1002;

/**
 * Walks `path` one name at a time as the kernel does, following each symbolic link met, and
 * stops at the first link `fs.protected_symlinks` would not follow: one in a sticky, world-writable
 * directory (/tmp) owned neither by the user nor by the directory's owner; and at a last name that
 * is such a file, which `fs.protected_regular` would not let an open create-or-truncate.
 * `reached` is the file the walk ends at, or would once what is missing on the way is made (through
 * a dangling link: the file opening it would create, and `dangling` names the link); `exists`
 * whether it is there.
 */
export async function followPath(path: string): Promise<{
  reached?: string;
  exists?: boolean;
  foreign?: ForeignLink & { file?: boolean };
  dangling?: { path: string; to: string };
}> {
  const me = process.geteuid?.();
  if (me === undefined) return {};
  const full = resolve(path);
  let dir = parse(full).root;
  // Each name with the link (and its text) it came from, if one did.
  type Name = { name: string; link?: { path: string; to: string } };
  let rest: Name[] = names(full).map((name) => ({ name }));
  let links = 0;
  const shared = async (info: Stats) => {
    const parent = await stat(dir);
    return (
      (parent.mode & STICKY_WORLD_WRITABLE) === STICKY_WORLD_WRITABLE &&
      info.uid !== me &&
      info.uid !== parent.uid
    );
  };
  while (rest.length > 0) {
    const { name, link } = rest.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      dir = dirname(dir);
      continue;
    }
    const here = join(dir, name);
    const info: Stats | null = await lstat(here).catch(() => null);
    // Missing (or unreadable): nothing further is followed; the write creates it, or fails and says why.
    if (!info) {
      return {
        reached: join(here, ...rest.map((n) => n.name)),
        exists: false,
        ...(link ? { dangling: link } : {}),
      };
    }
    if (!info.isSymbolicLink()) {
      if (rest.length === 0 && !info.isDirectory() && (await shared(info))) {
        return { foreign: { path: here, uid: info.uid, dir, file: true } };
      }
      dir = here;
      continue;
    }
    if (++links > MAX_LINKS) return {};
    if (await shared(info)) return { foreign: { path: here, uid: info.uid, dir } };
    const to = await readlink(here);
    if (isAbsolute(to)) dir = parse(to).root;
    const from = { path: here, to };
    rest = [...names(to).map((n) => ({ name: n, link: from })), ...rest];
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

/**
 * The SQLite database whose journal `path` is named as (`<db>-wal`, `-shm`, `-journal`), when that
 * database exists, whether the journal does yet or not.
 */
async function journaledDatabase(path: string): Promise<string | null> {
  const suffix = JOURNAL_SUFFIXES.find((s) => path.endsWith(s) && path.length > s.length);
  if (!suffix) return null;
  const db = path.slice(0, -suffix.length);
  const info = await stat(db).catch(() => null);
  return info?.isFile() && (await isSqliteDatabase(db)) ? db : null;
}

const JOURNAL_SUFFIXES = ['-wal', '-shm', '-journal'];

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
