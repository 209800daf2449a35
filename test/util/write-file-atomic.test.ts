import { spawnSync } from 'node:child_process';
import {
  chmod,
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
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAtomicFile, removeStaleTemps, writeFileAtomic } from '../../src/util/write-file-atomic.js';

// The fsyncs and renames the module makes, in order, and failures to inject into them: what a
// crash would lose cannot be seen from the files themselves.
const fsLog = vi.hoisted(() => ({
  events: [] as string[],
  failSync: new Map<string, string>(),
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const fail = (path: string) => {
    const code = fsLog.failSync.get(path);
    if (code) throw Object.assign(new Error(`${code}: injected, fsync '${path}'`), { code });
  };
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      const path = String(args[0]);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        fail(path);
        await sync();
        fsLog.events.push(`sync ${path}`);
      };
      return handle;
    },
    rename: async (from: string, to: string) => {
      await real.rename(from, to);
      fsLog.events.push(`rename ${from} -> ${to}`);
    },
  };
});

const posix = process.platform !== 'win32';
let dir: string;
beforeEach(async () => {
  // Real path: on macOS the temp directory is itself behind a symlink.
  dir = await realpath(await mkdtemp(join(tmpdir(), 'contacts-atomic-')));
  fsLog.events.length = 0;
  fsLog.failSync.clear();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces the content whole, leaving nothing beside it', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, 'a much longer old content than the new one\n');
    await writeFileAtomic(file, 'new\n');
    expect(await readFile(file, 'utf8')).toBe('new\n');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('creates a file that does not exist yet', async () => {
    const file = join(dir, 'fresh.json');
    await writeFileAtomic(file, '{}');
    expect(await readFile(file, 'utf8')).toBe('{}');
  });

  it('fails, leaving nothing behind, when the directory does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'x.json'), '{}')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('openAtomicFile', () => {
  it('shows nothing at the target until commit, then all of it', async () => {
    const file = join(dir, 'out.csv');
    await writeFile(file, 'old\n');
    const atomic = await openAtomicFile(file);
    expect(dirname(atomic.temp)).toBe(dir);
    expect(basename(atomic.temp)).toMatch(
      new RegExp(`^\\.out\\.csv\\.${process.pid}-[0-9a-f]{8}\\.partial$`),
    );
    await atomic.write('a,b\n');
    await atomic.write(Buffer.from('1,2\n'));
    expect(await readFile(file, 'utf8')).toBe('old\n');
    await atomic.commit();
    expect(await readFile(file, 'utf8')).toBe('a,b\n1,2\n');
    expect(await readdir(dir)).toEqual(['out.csv']);
  });

  it('writes a stream whole, waiting for it to end', async () => {
    const file = join(dir, 'big.ndjson');
    const atomic = await openAtomicFile(file);
    const stream = atomic.stream();
    expect(atomic.stream()).toBe(stream);
    const line = `${JSON.stringify({ filler: 'x'.repeat(1000) })}\n`;
    for (let i = 0; i < 2000; i++) {
      // Respect backpressure as the export's writers do.
      if (!stream.write(line)) await new Promise((resolve) => stream.once('drain', resolve));
    }
    await atomic.commit();
    expect(await readFile(file, 'utf8')).toBe(line.repeat(2000));
  });

  it('gives two writers of one target two temporary files', async () => {
    const file = join(dir, 'x');
    const [a, b] = await Promise.all([openAtomicFile(file), openAtomicFile(file)]);
    expect(a.temp).not.toBe(b.temp);
    await a.write('a');
    await b.write('b');
    await a.commit();
    await b.commit();
    expect(await readFile(file, 'utf8')).toBe('b');
    expect(await readdir(dir)).toEqual(['x']);
  });

  it('abort removes the temporary file and leaves the target as it was', async () => {
    const file = join(dir, 'out.csv');
    await writeFile(file, 'old\n');
    const atomic = await openAtomicFile(file);
    atomic.stream().write('half a fi');
    expect(await readdir(dir)).toContain(basename(atomic.temp));
    await atomic.abort();
    await atomic.abort();
    expect(await readdir(dir)).toEqual(['out.csv']);
    expect(await readFile(file, 'utf8')).toBe('old\n');
    await expect(atomic.write('more')).rejects.toThrow('already aborted');
    await expect(atomic.commit()).rejects.toThrow('already aborted');
  });

  it('abort after a commit leaves the new file', async () => {
    const file = join(dir, 'out.csv');
    const atomic = await openAtomicFile(file);
    await atomic.write('new');
    await atomic.commit();
    await atomic.abort();
    expect(await readFile(file, 'utf8')).toBe('new');
  });

  it('removes the temporary file when the rename fails', async () => {
    // A directory (not empty) cannot be replaced by a file.
    const target = join(dir, 'taken');
    await mkdir(target);
    await writeFile(join(target, 'inside'), 'kept');
    const atomic = await openAtomicFile(target);
    await atomic.write('new');
    await expect(atomic.commit()).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('removes the temporary file, and renames nothing, when its fsync fails', async () => {
    const file = join(dir, 'out.csv');
    await writeFile(file, 'old\n');
    const atomic = await openAtomicFile(file);
    await atomic.write('new\n');
    fsLog.failSync.set(atomic.temp, 'EIO');
    await expect(atomic.commit()).rejects.toMatchObject({ code: 'EIO' });
    expect(fsLog.events.filter((e) => e.startsWith('rename'))).toEqual([]);
    expect(await readdir(dir)).toEqual(['out.csv']);
    expect(await readFile(file, 'utf8')).toBe('old\n');
  });

  it('removes the temporary file when the stream failed', async () => {
    const file = join(dir, 'out.csv');
    const atomic = await openAtomicFile(file);
    const stream = atomic.stream();
    const seen = new Promise((resolve) => stream.once('error', resolve));
    stream.destroy(new Error('the writer broke'));
    await seen;
    await expect(atomic.commit()).rejects.toThrow('the writer broke');
    expect(await readdir(dir)).toEqual([]);
  });

  it('finish leaves the whole content in the temporary file, for the caller to keep', async () => {
    const file = join(dir, 'out.csv');
    const atomic = await openAtomicFile(file);
    await atomic.write('kept\n');
    await atomic.finish();
    expect(await readFile(atomic.temp, 'utf8')).toBe('kept\n');
    expect(await readdir(dir)).toEqual([basename(atomic.temp)]);
    await atomic.commit();
    expect(await readFile(file, 'utf8')).toBe('kept\n');
  });
});

describe('durability', () => {
  it('fsyncs the file before the rename and the directory after it', async () => {
    const file = join(dir, 'out.csv');
    const atomic = await openAtomicFile(file);
    await atomic.write('x');
    await atomic.commit();
    expect(fsLog.events).toEqual([`sync ${atomic.temp}`, `rename ${atomic.temp} -> ${file}`, `sync ${dir}`]);
  });

  it('does the same for a whole string', async () => {
    const file = join(dir, 'state.json');
    await writeFileAtomic(file, '{}');
    expect(fsLog.events).toHaveLength(3);
    expect(fsLog.events[0]).toMatch(/^sync .*\.partial$/);
    expect(fsLog.events[1]).toMatch(new RegExp(`^rename .* -> ${file}$`));
    expect(fsLog.events[2]).toBe(`sync ${dir}`);
  });

  it('commits where the file system cannot fsync a directory', async () => {
    const file = join(dir, 'out.csv');
    fsLog.failSync.set(dir, 'EINVAL');
    await writeFileAtomic(file, 'x');
    expect(await readFile(file, 'utf8')).toBe('x');
  });

  it('reports an I/O error syncing the directory (the rename may not survive a crash)', async () => {
    const file = join(dir, 'out.csv');
    fsLog.failSync.set(dir, 'EIO');
    await expect(writeFileAtomic(file, 'x')).rejects.toMatchObject({ code: 'EIO' });
    // The new name is already in place; only its durability is in doubt.
    expect(await readFile(file, 'utf8')).toBe('x');
  });
});

describe.skipIf(!posix)('permissions and symlinks', () => {
  it('keeps a private file private, the temporary file included', async () => {
    const file = join(dir, 'secret.csv');
    await writeFile(file, 'old');
    await chmod(file, 0o600);
    const atomic = await openAtomicFile(file);
    expect((await stat(atomic.temp)).mode & 0o777).toBe(0o600);
    await atomic.write('new');
    await atomic.commit();
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    await chmod(file, 0o640);
    await writeFileAtomic(file, 'newer');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it('keeps modes the umask would take away', async () => {
    const file = join(dir, 'shared.csv');
    await writeFile(file, 'old');
    await chmod(file, 0o666);
    await writeFileAtomic(file, 'new');
    expect((await stat(file)).mode & 0o777).toBe(0o666);
  });

  it('gives a new file the mode any new file gets', async () => {
    await writeFile(join(dir, 'plain'), '');
    await writeFileAtomic(join(dir, 'fresh'), '');
    expect((await stat(join(dir, 'fresh'))).mode).toBe((await stat(join(dir, 'plain'))).mode);
  });

  it('writes through a symlink to the file it points at, keeping the link', async () => {
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    const real = join(dir, 'b', 'real.csv');
    const link = join(dir, 'a', 'link.csv');
    await writeFile(real, 'old');
    await chmod(real, 0o600);
    await symlink('../b/real.csv', link);

    const atomic = await openAtomicFile(link);
    expect(atomic.target).toBe(real);
    // Beside the real file: a rename from the link's directory could cross file systems.
    expect(dirname(atomic.temp)).toBe(join(dir, 'b'));
    await atomic.write('new');
    await atomic.commit();

    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, 'utf8')).toBe('new');
    expect((await stat(real)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, 'a'))).toEqual(['link.csv']);
    expect(await readdir(join(dir, 'b'))).toEqual(['real.csv']);

    await writeFileAtomic(link, 'newer');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, 'utf8')).toBe('newer');
  });
});

describe('removeStaleTemps', () => {
  it("removes what a killed writer of the file left, never a running one's nor another file's", async () => {
    // A process that has ended: its pid names no running process now.
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const names = {
      dead: `.out.csv.${gone}-deadbeef.partial`,
      own: `.out.csv.${process.pid}-01234567.partial`,
      running: `.out.csv.${process.ppid}-cafebabe.partial`,
      otherFile: `.other.csv.${gone}-deadbeef.partial`,
      notATemp: '.out.csv.notes',
    };
    for (const name of Object.values(names)) await writeFile(join(dir, name), 'x');
    const removed = await removeStaleTemps(join(dir, 'out.csv'));
    expect(removed.map((f) => basename(f)).sort()).toEqual([names.dead, names.own].sort());
    expect((await readdir(dir)).sort()).toEqual([names.notATemp, names.running, names.otherFile].sort());
  });
});
