// The one way the import writes its files of records: in place, measured, cut back on resume to
// the length a checkpoint recorded, and stopped for good by the first write that fails.
import { link, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputWriteError } from '../../src/importer/errors.js';
import { type OpenOutput, OutputFile } from '../../src/importer/output-file.js';
import { tempDir } from './helpers.js';

/**
 * Opens files as the importer does, but with room for `room` bytes more in all: the write that
 * goes past it is cut short and the next one fails with `code`, as on a full disk.
 */
function diskWithRoom(room: number, code = 'ENOSPC'): OpenOutput {
  let left = room;
  return async (path) => {
    const handle = await open(path, 'a+');
    const write = handle.write.bind(handle) as (
      data: Uint8Array,
      offset: number,
      length: number,
    ) => Promise<{ bytesWritten: number }>;
    return Object.assign(handle, {
      write: async (data: Uint8Array, offset = 0, length = data.length - offset) => {
        if (left === 0) throw Object.assign(new Error(`${code}: no space left on device, write`), { code });
        const taken = Math.min(left, length);
        left -= taken;
        return write(data, offset, taken);
      },
    });
  };
}

describe('OutputFile', () => {
  it('measures what it was given before it is written, and writes it in order on flush', async () => {
    const path = join(await tempDir(), 'out.csv');
    const file = new OutputFile({ path, what: 'the test file', preamble: 'h\n' });
    file.write('a,é\n');
    file.write('b\n');
    expect(file.length).toBe(Buffer.byteLength('h\na,é\nb\n'));
    expect(file.records).toBe(2);
    await expect(readFile(path)).rejects.toThrow();
    await file.flush();
    expect(await readFile(path, 'utf8')).toBe('h\na,é\nb\n');
    await file.close();
  });

  it('on resume, cuts the file back to the recorded length and appends, without a second preamble', async () => {
    const path = join(await tempDir(), 'out.csv');
    // What a killed run left: two records the checkpoint claims, then one it does not, half-written.
    await writeFile(path, 'h\na\nb\nc,"half');
    const file = new OutputFile({ path, what: 'the test file', preamble: 'h\n', keep: 'h\na\nb\n'.length });
    await file.open();
    expect([file.length, file.short]).toEqual(['h\na\nb\n'.length, false]);
    file.write('c\n');
    await file.close();
    expect(await readFile(path, 'utf8')).toBe('h\na\nb\nc\n');
  });

  it('on resume, keeps whole records when it has no length, or when the file is shorter than recorded', async () => {
    const dir = await tempDir();
    const whole = join(dir, 'whole.csv');
    await writeFile(whole, 'h\n"a\nb"\nc,"ha');
    const kept = new OutputFile({ path: whole, what: 'the test file', csv: true, keep: 'whole-records' });
    await kept.open();
    await kept.close();
    expect(await readFile(whole, 'utf8')).toBe('h\n"a\nb"\n');

    const cut = join(dir, 'cut.ndjson');
    await writeFile(cut, '{"a":1}\n{"b":');
    const short = new OutputFile({ path: cut, what: 'the test file', keep: 100 });
    await short.open();
    expect([short.short, short.length]).toEqual([true, 8]);
    await short.close();

    // Deleted since: begun again, with its preamble.
    const gone = new OutputFile({
      path: join(dir, 'gone.csv'),
      what: 'the test file',
      preamble: 'h\n',
      keep: 50,
    });
    await gone.open();
    gone.write('x\n');
    await gone.close();
    expect([gone.short, await readFile(join(dir, 'gone.csv'), 'utf8')]).toEqual([true, 'h\nx\n']);
  });

  it('makes no file until the first record, and removes one of its own left from before when it has none', async () => {
    const dir = await tempDir();
    const path = join(dir, 'out.csv');
    await writeFile(path, 'old\n');
    const ours = async () => true;
    const idle = new OutputFile({ path, what: 'the test file', isOurs: ours });
    await idle.flush();
    expect(await readFile(path, 'utf8')).toBe('old\n');
    await idle.close();
    expect(await readdir(dir)).toEqual([]);

    await writeFile(path, 'not ours\n');
    await new OutputFile({ path, what: 'the test file', isOurs: async () => false }).close();
    expect(await readFile(path, 'utf8')).toBe('not ours\n');
  });

  it('never writes into the protected file, whatever alias the path is', async () => {
    const dir = await tempDir();
    const input = join(dir, 'in.csv');
    await writeFile(input, 'precious\n');
    const path = join(dir, 'alias.csv');
    await link(input, path);
    const eager = new OutputFile({ path, what: 'the test file', protect: input, eager: true });
    await expect(eager.open()).rejects.toThrow(`the test file ${path} is the input ${input}`);
    const kept = new OutputFile({ path, what: 'the test file', protect: input, keep: 3 });
    await expect(kept.open()).rejects.toThrow('is the input');
    expect(await readFile(input, 'utf8')).toBe('precious\n');
  });

  it('stops at the first failed write: says which file and why, once, and drops what comes after', async () => {
    const path = join(await tempDir(), 'out.csv');
    const failures: Error[] = [];
    const file = new OutputFile({
      path,
      what: 'the rejects file',
      openFile: diskWithRoom(5),
      onFailure: (e) => failures.push(e),
    });
    file.write('abc\n');
    await file.flush();
    file.write('defgh\n');
    const error = await file.flush().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputWriteError);
    expect(error).toMatchObject({
      file: path,
      errno: 'ENOSPC',
      message: `Cannot write the rejects file ${path}: the disk is full (ENOSPC)`,
    });
    expect(file.failure).toBe(error);
    file.write('later\n');
    await expect(file.flush()).rejects.toBe(error);
    await expect(file.close()).rejects.toBe(error);
    expect(failures).toEqual([error]);
    // The short write was not taken for a whole one: nothing past it was written.
    expect(await readFile(path, 'utf8')).toBe('abc\nd');
  });

  it('names a file size limit, a quota and an I/O error in words', async () => {
    const dir = await tempDir();
    for (const [code, words] of [
      ['EFBIG', 'the file size limit was reached'],
      ['EDQUOT', 'the disk quota is used up'],
      ['EIO', 'the disk reported an I/O error'],
    ]) {
      const path = join(dir, `${code}.csv`);
      const file = new OutputFile({ path, what: 'the fixes file', openFile: diskWithRoom(0, code) });
      file.write('x\n');
      await expect(file.flush()).rejects.toThrow(`Cannot write the fixes file ${path}: ${words} (${code})`);
    }
  });

  it('writes what it holds once it holds enough, unasked, so memory stays bounded', async () => {
    const path = join(await tempDir(), 'big.ndjson');
    let wrote!: (bytes: number) => void;
    const written = new Promise<number>((resolve) => {
      wrote = resolve;
    });
    const file = new OutputFile({
      path,
      what: 'the test file',
      openFile: async (p) => {
        const handle = await open(p, 'a+');
        const write = handle.write.bind(handle) as (
          d: Uint8Array,
          o: number,
          l: number,
        ) => Promise<{ bytesWritten: number }>;
        return Object.assign(handle, {
          write: async (data: Uint8Array, offset = 0, length = data.length - offset) => {
            const result = await write(data, offset, length);
            wrote(result.bytesWritten);
            return result;
          },
        });
      },
    });
    const record = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) file.write(record);
    // No flush asked for: the write comes by itself.
    expect(await written).toBe(64 * 1024);
    await file.close();
    expect((await readFile(path, 'utf8')).length).toBe(64 * 1024);
  });
});
