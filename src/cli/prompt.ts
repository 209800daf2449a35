// Reading a secret without it touching argv or the screen: a muted prompt on a terminal, or
// all of stdin for `--with-key`.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { InterruptedError, UsageError } from './errors.js';
import type { InStream, OutStream } from './output/terminal.js';

export interface PromptIo {
  stdin: InStream;
  stderr: OutStream;
  isTTY: { stdin: boolean };
}

/**
 * Asks on stderr and reads one line from a terminal without echoing it. Ctrl-C rejects with
 * an InterruptedError (exit 130), Ctrl-D on an empty line with a UsageError.
 */
export function readSecret(prompt: string, io: PromptIo): Promise<string> {
  if (!io.isTTY.stdin) {
    return Promise.reject(
      new UsageError('Cannot prompt for a secret: stdin is not a terminal', {
        hint: 'Pipe it in with --with-key instead, e.g. `contacts auth login --with-key < key.txt`.',
      }),
    );
  }
  let muted = false;
  // readline echoes keystrokes to its output; this one drops them once the prompt is out.
  const output = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
      if (!muted) io.stderr.write(String(chunk));
      callback();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });

  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      // The Enter (or ^C) was muted too; end the prompt's line ourselves.
      io.stderr.write('\n');
      rl.close();
      outcome();
    };
    rl.on('SIGINT', () => finish(() => reject(new InterruptedError())));
    rl.on('close', () => finish(() => reject(new UsageError('No input: the prompt was closed'))));
    rl.question(prompt, (answer) => finish(() => resolve(answer.trim())));
    muted = true;
  });
}

export interface ReadAllStdinOptions {
  /** Refuse more than this many bytes: a secret is short, an accidental pipe may not be. */
  maxBytes?: number;
}

/** All of stdin as UTF-8, without the trailing newline(s) `echo` and editors add. */
export async function readAllStdin(
  stdin: AsyncIterable<string | Uint8Array>,
  { maxBytes = 64 * 1024 }: ReadAllStdinOptions = {},
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    size += buffer.length;
    if (size > maxBytes) throw new UsageError(`Input on stdin is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/[\r\n]+$/, '');
}

/** Asks a yes/no question on a terminal; anything but y/yes is no. */
export function confirm(question: string, io: PromptIo): Promise<boolean> {
  const output = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
      io.stderr.write(String(chunk));
      callback();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      rl.close();
      outcome();
    };
    rl.on('SIGINT', () => finish(() => reject(new InterruptedError())));
    rl.on('close', () => finish(() => resolve(false)));
    rl.question(`${question} [y/N] `, (answer) => finish(() => resolve(/^y(es)?$/i.test(answer.trim()))));
  });
}
