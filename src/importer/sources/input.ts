// The bytes of an input (a file, or stdin for `-`), with a peek at the start for sniffing.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { ImportError } from '../errors.js';
import type { SourceNote } from '../notes.js';
import { binaryKind, looksBinary } from './binary.js';
import { firstInvalidUtf8, legacyEncoding } from './utf8.js';

export interface InputOptions {
  /** The stream read for `-` (tests pass their own); default `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** A TextDecoder label (`--encoding`); by default UTF-8, or UTF-16 when a BOM says so. */
  encoding?: string | undefined;
  /** Told what reading decides on its own (the legacy encoding a non-UTF-8 file is read in). */
  onNote?: ((note: SourceNote) => void) | undefined;
}

export interface OpenedInput {
  /** The path, or `stdin`, for messages. */
  name: string;
  /** The path read; undefined for stdin (which cannot be opened again). */
  path: string | undefined;
  /** The first bytes (up to the first newline, or 64 KiB), already part of `chunks`. */
  sample: Buffer;
  /** The sample decoded (leniently) in the input's encoding, BOM dropped: for sniffing. */
  sampleText: string;
  /** The TextDecoder encoding the text is read in: the one asked for, or found from a BOM. */
  encoding: string;
  /** The input began with a byte-order mark (a rejects file keeps one, for spreadsheets). */
  bom: boolean;
  /**
   * What the input looks like when it is not text (`a PNG image`, `a zip archive`, as a workbook
   * is); undefined for text. Its encoding is then not guessed (and nothing said about it).
   */
  binary: string | undefined;
  /**
   * Says what reading decided on its own, for the user (the legacy encoding a non-UTF-8 file is
   * read in, rows skipped): readers tell it as they go (`InputOptions.onNote`).
   */
  note(note: SourceNote): void;
  /** Every byte of the input in order, the sample included; pulled on demand (backpressure). */
  chunks: AsyncIterable<Buffer>;
  /** The bytes pulled from `chunks` so far, and their hash. */
  consumed: ConsumedBytes;
  destroy(): void;
}

const SAMPLE_BYTES = 64 * 1024;

/**
 * How many bytes of the input the reader has taken, and the SHA-256 of them: what a resume
 * checks, so that a change anywhere in the part already read is seen, whatever its size or mtime.
 */
export class ConsumedBytes {
  #bytes = 0;
  readonly #hash: Hash = createHash('sha256');

  add(chunk: Buffer): void {
    this.#bytes += chunk.length;
    this.#hash.update(chunk);
  }

  /** The count and hex digest of the bytes taken so far (reading goes on). */
  snapshot(): { bytes: number; sha256: string } {
    return { bytes: this.#bytes, sha256: this.#hash.copy().digest('hex') };
  }
}

export async function openInput(path: string, options: InputOptions = {}): Promise<OpenedInput> {
  const stream: NodeJS.ReadableStream & { destroy?(): void } =
    path === '-' ? (options.stdin ?? process.stdin) : createReadStream(path);
  const name = path === '-' ? 'stdin' : path;
  const iterator: AsyncIterator<Buffer | string> = stream[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < SAMPLE_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      const chunk = toBuffer(next.value);
      head.push(chunk);
      headBytes += chunk.length;
      if (chunk.includes(0x0a)) break;
    }
  } catch (error) {
    stream.destroy?.();
    throw readError(name, error);
  }

  const consumed = new ConsumedBytes();
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for (const chunk of head) {
        consumed.add(chunk);
        yield chunk;
      }
      head.length = 0;
      while (!ended) {
        let next: IteratorResult<Buffer | string>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw readError(name, error);
        }
        if (next.done) break;
        const chunk = toBuffer(next.value);
        consumed.add(chunk);
        yield chunk;
      }
    } finally {
      stream.destroy?.();
    }
  }

  const sample = Buffer.concat(head);
  const found = bomEncoding(sample);
  let guessed: SourceNote | undefined;
  const kind = binaryKind(sample);
  let encoding = options.encoding ?? found;
  if (encoding === undefined && kind === undefined) {
    // No BOM and no --encoding: UTF-8 unless the bytes say otherwise. A NUL every other byte is
    // UTF-16 (NUL is valid UTF-8, but no UTF-8 text has it). Else, where the first bytes cannot be
    // UTF-8, the legacy encoding they look like (Outlook and Excel on Windows write Windows-1252).
    // Only when the text before the first bad byte is plain ASCII: real UTF-8 before it means a
    // file that mixes encodings, which the UTF-8 reader refuses, naming the line.
    const legacy = legacyEncoding(sample);
    const bad = firstInvalidUtf8(sample);
    if (
      legacy.label.startsWith('utf-16') ||
      (bad < sample.length && sample.subarray(0, bad).every((b) => b < 0x80))
    ) {
      encoding = legacy.label;
      guessed = {
        code: 'encoding_guessed',
        message: `${name} is not UTF-8: reading it as ${legacy.name}`,
        file: name,
        encoding: legacy.label,
      };
    }
  }
  encoding ??= 'utf-8';
  const sampleText = new TextDecoder(encoding).decode(sample);
  const binary = kind ?? (looksBinary(sampleText) ? 'binary data' : undefined);
  const note = options.onNote ?? (() => {});
  if (guessed && binary === undefined) note(guessed);
  return {
    name,
    path: path === '-' ? undefined : path,
    sample,
    sampleText,
    encoding,
    note,
    bom: found !== undefined,
    binary,
    chunks: chunks(),
    consumed,
    destroy: () => stream.destroy?.(),
  };
}

/** The encoding a byte-order mark announces (Excel's "Unicode text" CSV is UTF-16LE with one). */
function bomEncoding(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

const toBuffer = (chunk: Buffer | string) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk);

function readError(name: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : String((error as Error | undefined)?.message ?? error);
  return new ImportError(`Cannot read ${name}: ${why}`, { cause: error });
}
