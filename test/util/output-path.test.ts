// The one output-path rule: identity through any alias, the protected files, two outputs that are
// one file, and links another user planted in a shared (sticky, world-writable) directory.
import { execFileSync } from 'node:child_process';
import {
  chmod,
  chown,
  lchown,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputPaths, OutputPathError, sameFile, writeTarget } from '../../src/util/output-path.js';
import { openAtomicFile } from '../../src/util/write-file-atomic.js';

let dir: string;
const at = (...names: string[]) => join(dir, ...names);
beforeEach(async () => {
  // Real path: on macOS the temp directory is itself behind a symlink.
  dir = await realpath(await mkdtemp(join(tmpdir(), 'contacts-output-path-')));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The refusal `checkOutputPaths` throws, or a failure when it throws none. */
async function refusal(...args: Parameters<typeof checkOutputPaths>): Promise<OutputPathError> {
  const error = await checkOutputPaths(...args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutputPathError);
  return error as OutputPathError;
}

const posix = process.platform !== 'win32';

describe('sameFile', () => {
  it('sees one file through a symlink, a hard link and `..`, existing or not', async () => {
    await writeFile(at('a.csv'), 'x');
    await mkdir(at('sub'));
    await symlink('a.csv', at('link.csv'));
    await link(at('a.csv'), at('hard.csv'));
    await symlink('.', at('here'));
    expect(await sameFile(at('a.csv'), at('link.csv'))).toBe(true);
    expect(await sameFile(at('a.csv'), at('hard.csv'))).toBe(true);
    expect(await sameFile(at('a.csv'), at('sub', '..', 'a.csv'))).toBe(true);
    // Not there yet: the same real path through the directory's link.
    expect(await sameFile(at('new.csv'), at('here', 'new.csv'))).toBe(true);
    expect(await sameFile(at('a.csv'), at('new.csv'))).toBe(false);
    // A dangling link: opening it creates the file it names.
    await symlink('gone.csv', at('dangling.csv'));
    if (posix) expect(await sameFile(at('gone.csv'), at('dangling.csv'))).toBe(true);
  });
});

describe('checkOutputPaths', () => {
  it('refuses a protected file through any alias, naming it; passes another file', async () => {
    await mkdir(at('cfg'));
    await writeFile(at('cfg', 'config.json'), '{"key":"k"}');
    await symlink(at('cfg', 'config.json'), at('out.csv'));
    const protect = [{ path: at('cfg', 'config.json'), what: 'the config file' }];
    for (const path of [at('cfg', 'config.json'), at('out.csv'), at('cfg', '..', 'cfg', 'config.json')]) {
      const e = await refusal([{ path, what: 'the rejects file', output: 'rejects' }], protect);
      expect(e.code).toBe('protected_file');
      expect(e.output).toBe('rejects');
      expect(e.conflict).toEqual({ path: at('cfg', 'config.json'), what: 'the config file' });
      expect(e.message).toBe(
        `Cannot write the rejects file ${path}: it is the config file (${at('cfg', 'config.json')}), which would be overwritten`,
      );
    }
    await expect(checkOutputPaths([{ path: at('r.csv'), what: 'the rejects file' }], protect)).resolves.toBe(
      undefined,
    );
    expect(await readFile(at('cfg', 'config.json'), 'utf8')).toBe('{"key":"k"}');
  });

  it("refuses a database's journal before it exists, and anything in a protected directory", async () => {
    const db = at('mock.db');
    const protect = [
      { path: `${db}-wal`, what: 'a journal' },
      { path: at('undo'), what: 'the undo records directory', directory: true },
    ];
    await mkdir(at('undo'));
    expect((await refusal([{ path: `${db}-wal`, what: 'x' }], protect)).code).toBe('protected_file');
    const inside = await refusal([{ path: at('undo', '..', 'undo', 'r.csv'), what: 'x' }], protect);
    expect(inside.reason).toBe(
      `it is in the undo records directory (${at('undo')}), which only this tool writes`,
    );
    // A sibling whose name begins the same is not inside.
    await mkdir(at('undone'));
    await expect(checkOutputPaths([{ path: at('undone', 'r.csv'), what: 'x' }], protect)).resolves.toBe(
      undefined,
    );
  });

  it('refuses an existing SQLite database wherever it is', async () => {
    await writeFile(
      at('data.bin'),
      Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]),
    );
    const e = await refusal([{ path: at('data.bin'), what: 'the results file', inPlace: true }]);
    expect(e.code).toBe('protected_file');
    expect(e.reason).toBe('it holds a SQLite database, which would be overwritten');
  });

  it('refuses two outputs that are one file, through a symlink, a hard link or `..`, naming both', async () => {
    await writeFile(at('x.csv'), 'old');
    await link(at('x.csv'), at('hard.csv'));
    await symlink('x.csv', at('soft.csv'));
    await mkdir(at('sub'));
    for (const alias of ['x.csv', 'hard.csv', 'soft.csv', join('sub', '..', 'x.csv')]) {
      const e = await refusal([
        { path: at('x.csv'), what: 'the fixes file', output: 'fixes' },
        { path: at(alias), what: 'the results file', output: 'results', inPlace: true },
      ]);
      expect(e.code, alias).toBe('same_file');
      expect(e.output).toBe('results');
      expect(e.conflict).toEqual({ path: at('x.csv'), what: 'the fixes file', output: 'fixes' });
      expect(e.message).toMatch(/^Cannot write the results file .*: it is also the fixes file \(.*x\.csv\)/);
    }
    // Neither exists yet: the same path is still one file.
    const fresh = await refusal([
      { path: at('new.csv'), what: 'the fixes file' },
      { path: at('sub', '..', 'new.csv'), what: 'the results file' },
    ]);
    expect(fresh.code).toBe('same_file');
    expect(await readFile(at('x.csv'), 'utf8')).toBe('old');
  });

  it('refuses a device, a named pipe and a dangling link, saying what each is; writes nothing', async () => {
    if (!posix) return;
    // /dev/null exists everywhere and is a character device: the check writes nothing to it.
    const device = await refusal([{ path: '/dev/null', what: 'x' }]);
    expect(device.code).toBe('not_regular_file');
    expect(device.reason).toBe('it is a character device, not a regular file');
    await expect(writeTarget('/dev/null')).rejects.toMatchObject({ code: 'not_regular_file' });
    expect((await lstat('/dev/null')).isCharacterDevice()).toBe(true);

    execFileSync('mkfifo', [at('pipe')]);
    const fifo = await refusal([{ path: at('pipe'), what: 'x' }]);
    expect(fifo.code).toBe('not_regular_file');
    expect(fifo.reason).toBe('it is a named pipe, not a regular file');
    await expect(openAtomicFile(at('pipe'))).rejects.toMatchObject({ code: 'not_regular_file' });
    expect((await lstat(at('pipe'))).isFIFO()).toBe(true);

    await symlink(join('nowhere', 'x.csv'), at('dangling.csv'));
    const dangling = await refusal([{ path: at('dangling.csv'), what: 'x' }]);
    expect(dangling.code).toBe('dangling_symlink');
    expect(dangling.reason).toBe(
      `${at('dangling.csv')} is a symbolic link to nowhere/x.csv, which does not exist`,
    );
    await expect(openAtomicFile(at('dangling.csv'))).rejects.toMatchObject({ code: 'dangling_symlink' });
    expect((await lstat(at('dangling.csv'))).isSymbolicLink()).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['dangling.csv', 'pipe']);
  });

  it("refuses a SQLite database's -wal, -shm and -journal, there or not yet, but not a plain file's", async () => {
    await writeFile(
      at('srv.db'),
      Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]),
    );
    await writeFile(at('srv.db-wal'), 'acknowledged writes');
    for (const name of ['srv.db-wal', 'srv.db-shm', 'srv.db-journal']) {
      const e = await refusal([{ path: at(name), what: 'x' }]);
      expect(e.code, name).toBe('protected_file');
      expect(e.reason).toBe(
        `it is a journal of the SQLite database ${at('srv.db')}, whose data it would destroy`,
      );
    }
    // The mock's own database, opened where it is, is what it is for.
    await expect(checkOutputPaths([{ path: at('srv.db-wal'), what: 'x', database: true }])).resolves.toBe(
      undefined,
    );
    await writeFile(at('notes.txt'), 'plain');
    await expect(checkOutputPaths([{ path: at('notes.txt-wal'), what: 'x' }])).resolves.toBe(undefined);
    expect(await readFile(at('srv.db-wal'), 'utf8')).toBe('acknowledged writes');
  });

  it('refuses a directory and a path with no directory', async () => {
    await mkdir(at('adir'));
    expect((await refusal([{ path: at('adir'), what: 'x' }])).code).toBe('is_directory');
    expect((await refusal([{ path: at('nowhere', 'r.csv'), what: 'x' }])).code).toBe('no_directory');
  });
});

// Linux's fs.protected_symlinks: in a sticky, world-writable directory a link is followed only
// when it belongs to the follower or to the directory's owner. Making a link that belongs to
// another user takes root (lchown).
const root = posix && process.getuid?.() === 0;
if (!root) {
  console.info(
    'output-path.test.ts: links owned by another user are not tested: it takes root to lchown one',
  );
}

describe.skipIf(!root)('a symbolic link another user planted in a shared directory', () => {
  const NOBODY = 65534;
  let shared: string;
  beforeEach(async () => {
    shared = at('shared');
    await mkdir(shared);
    // As /tmp: sticky and writable by everyone.
    await chmod(shared, 0o1777);
    await writeFile(at('victim.txt'), 'mine');
  });

  it('is refused, naming the link, its owner and the directory; the target keeps its content', async () => {
    const planted = join(shared, 'in.rejects.csv');
    await symlink(at('victim.txt'), planted);
    await lchown(planted, NOBODY, NOBODY);
    const e = await refusal([{ path: planted, what: 'the rejects file', output: 'rejects' }]);
    expect(e.code).toBe('foreign_symlink');
    expect(e.link).toEqual({ path: planted, uid: NOBODY, dir: shared });
    expect(e.reason).toBe(
      `${planted} is a symbolic link owned by another user (uid ${NOBODY}) in the shared directory ${shared}; refusing to follow it`,
    );
    // Where the file is opened too, however long after the check.
    await expect(writeTarget(planted)).rejects.toMatchObject({ code: 'foreign_symlink' });
    await expect(openAtomicFile(planted)).rejects.toBeInstanceOf(OutputPathError);
    expect(await readFile(at('victim.txt'), 'utf8')).toBe('mine');
  });

  it('is refused on the way to the file too (a directory link)', async () => {
    await mkdir(at('elsewhere'));
    const planted = join(shared, 'out');
    await symlink(at('elsewhere'), planted);
    await lchown(planted, NOBODY, NOBODY);
    const e = await refusal([{ path: join(planted, 'r.csv'), what: 'the rejects file' }]);
    expect(e.code).toBe('foreign_symlink');
    expect(e.link?.path).toBe(planted);
  });

  it('a regular file another user owns there is refused (fs.protected_regular), at the check and at the open', async () => {
    const planted = join(shared, 'in.rejects.csv');
    await writeFile(planted, 'theirs');
    await chown(planted, NOBODY, NOBODY);
    await chmod(planted, 0o666);
    const e = await refusal([{ path: planted, what: 'the rejects file', output: 'rejects' }]);
    expect(e.code).toBe('foreign_file');
    expect(e.link).toEqual({ path: planted, uid: NOBODY, dir: shared });
    expect(e.reason).toBe(
      `it is owned by another user (uid ${NOBODY}) in the shared directory ${shared}; refusing to write into a file someone else put there`,
    );
    await expect(openAtomicFile(planted)).rejects.toMatchObject({ code: 'foreign_file' });
    expect(await readFile(planted, 'utf8')).toBe('theirs');

    // Outside a shared directory, another user's file is replaced, but its mode is not copied:
    // the new file gets the creator's umask, not the 0666 the other user chose.
    const elsewhere = at('theirs.csv');
    await writeFile(elsewhere, 'theirs');
    await chown(elsewhere, NOBODY, NOBODY);
    await chmod(elsewhere, 0o666);
    const old = process.umask(0o077);
    try {
      const atomic = await openAtomicFile(elsewhere);
      await atomic.write('mine');
      await atomic.commit();
    } finally {
      process.umask(old);
    }
    const after = await stat(elsewhere);
    expect(after.mode & 0o777).toBe(0o600);
    expect(after.uid).toBe(process.getuid!());
  });

  it("is followed when it is the user's own, or the directory owner's, or the directory is not sticky", async () => {
    const own = join(shared, 'own.csv');
    await symlink(at('victim.txt'), own);
    await expect(checkOutputPaths([{ path: own, what: 'x' }])).resolves.toBe(undefined);
    expect(await writeTarget(own)).toBe(at('victim.txt'));

    const owners = at('owners');
    await mkdir(owners);
    await chown(owners, NOBODY, NOBODY);
    await chmod(owners, 0o1777);
    const theirs = join(owners, 'r.csv');
    await symlink(at('victim.txt'), theirs);
    await lchown(theirs, NOBODY, NOBODY);
    await expect(checkOutputPaths([{ path: theirs, what: 'x' }])).resolves.toBe(undefined);

    const plain = at('plain');
    await mkdir(plain);
    await chmod(plain, 0o777);
    const notSticky = join(plain, 'r.csv');
    await symlink(at('victim.txt'), notSticky);
    await lchown(notSticky, NOBODY, NOBODY);
    await expect(checkOutputPaths([{ path: notSticky, what: 'x' }])).resolves.toBe(undefined);
  });
});
