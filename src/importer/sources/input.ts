// The bytes of an input (a file, or stdin for `-`), with a peek at the start for sniffing.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ImportError } from '../errors.js';

export interface InputOptions {
  /** The stream read for `-` (tests pass their own); default `process.stdin`. */
  stdin?: Readable;
}

export interface OpenedInput {
  /** The path, or `stdin`, for messages. */
  name: string;
  /** The first bytes (up to the first newline, or 64 KiB), already part of `chunks`. */
  sample: Buffer;
  /** Every byte of the input in order, the sample included; pulled on demand (backpressure). */
  chunks: AsyncIterable<Buffer>;
  destroy(): void;
}

const SAMPLE_BYTES = 64 * 1024;

export async function openInput(path: string, options: InputOptions = {}): Promise<OpenedInput> {
  const stream = path === '-' ? (options.stdin ?? process.stdin) : createReadStream(path);
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
    stream.destroy();
    throw readError(name, error);
  }

  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      yield* head;
      head.length = 0;
      while (!ended) {
        let next: IteratorResult<Buffer | string>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw readError(name, error);
        }
        if (next.done) break;
        yield toBuffer(next.value);
      }
    } finally {
      stream.destroy();
    }
  }

  return { name, sample: Buffer.concat(head), chunks: chunks(), destroy: () => stream.destroy() };
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
