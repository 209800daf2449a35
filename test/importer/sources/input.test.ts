// The bytes of an input, with a peek at the start for sniffing: encoding from a BOM or the bytes,
// what it looks like when it is not text, and a hash of what was read for a resume.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/importer/errors.js';
import type { SourceNote } from '../../../src/importer/notes.js';
import { ConsumedBytes, openInput } from '../../../src/importer/sources/input.js';
import { useTempHome } from '../../helpers/cli.js';

const home = useTempHome();
const stdin = (...chunks: (string | Buffer)[]) => ({ stdin: Readable.from(chunks) });
/** The notes an input says, as it says them. */
const heard = () => {
  const notes: SourceNote[] = [];
  return { notes, onNote: (note: SourceNote) => notes.push(note) };
};

async function drain(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

describe('openInput', () => {
  it('samples up to the first line, yields every byte once, and hashes what was read', async () => {
    const text = 'external_id,name\nu1,Ann\nu2,Bo\n';
    const input = await openInput('-', stdin('external_id,name\nu1,', 'Ann\nu2,Bo\n'));
    expect(input.name).toBe('stdin');
    expect(input.path).toBeUndefined();
    expect(input.sampleText).toBe('external_id,name\nu1,');
    expect((await drain(input.chunks)).toString()).toBe(text);
    expect(input.consumed.snapshot()).toEqual({
      bytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
    });
  });

  it('reads the encoding from a BOM, and says so', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n', 'utf16le')]);
    const said = heard();
    const input = await openInput('-', { ...stdin(utf16), onNote: said.onNote });
    expect([input.encoding, input.bom, said.notes]).toEqual(['utf-16le', true, []]);
    const utf8 = await openInput('-', stdin(Buffer.from('\uFEFFa,b\n')));
    expect([utf8.encoding, utf8.bom]).toEqual(['utf-8', true]);
  });

  it('reads ASCII followed by a Latin-1 byte as Windows-1252, noting it; --encoding wins', async () => {
    const latin1 = Buffer.from([...Buffer.from('name\nJos'), 0xe9, 0x0a]);
    const said = heard();
    const guessed = await openInput('-', { ...stdin(latin1), onNote: said.onNote });
    expect(guessed.encoding).toBe('windows-1252');
    expect(said.notes).toEqual([
      {
        code: 'encoding_guessed',
        message: 'stdin is not UTF-8: reading it as Windows-1252 (Latin-1, what Excel writes on Windows)',
        file: 'stdin',
        encoding: 'windows-1252',
      },
    ]);
    const saidAsked = heard();
    const asked = await openInput('-', {
      ...stdin(latin1),
      encoding: 'iso-8859-2',
      onNote: saidAsked.onNote,
    });
    expect([asked.encoding, saidAsked.notes]).toEqual(['iso-8859-2', []]);
  });

  it('says what a file that is not text looks like, and nothing of its encoding', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const said = heard();
    const input = await openInput('-', { ...stdin(png), onNote: said.onNote });
    expect(input.binary).toMatch(/PNG/);
    expect(said.notes).toEqual([]);
  });

  it('names the file it cannot read, and why', async () => {
    await expect(openInput(join(home.dir, 'missing.csv'))).rejects.toThrow(
      new ImportError(`Cannot read ${join(home.dir, 'missing.csv')}: no such file`),
    );
    await expect(openInput(home.dir)).rejects.toThrow(/: is a directory$/);
  });

  it('reads a file by its path', async () => {
    const file = join(home.dir, 'a.csv');
    await writeFile(file, 'x\n1\n');
    const input = await openInput(file);
    expect([input.name, input.path]).toEqual([file, file]);
    expect((await drain(input.chunks)).toString()).toBe('x\n1\n');
  });
});

describe('ConsumedBytes', () => {
  it('counts and hashes as it goes, a snapshot leaving the hash to go on', () => {
    const consumed = new ConsumedBytes();
    consumed.add(Buffer.from('ab'));
    const first = consumed.snapshot();
    consumed.add(Buffer.from('c'));
    expect(first).toEqual({ bytes: 2, sha256: createHash('sha256').update('ab').digest('hex') });
    expect(consumed.snapshot()).toEqual({
      bytes: 3,
      sha256: createHash('sha256').update('abc').digest('hex'),
    });
  });
});
