import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExitCode, InterruptedError, UsageError } from '../../src/cli/errors.js';
import { readAllStdin, readSecret } from '../../src/cli/prompt.js';

class Sink {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

/** A fake terminal: stdin that says it is a TTY, fed by the test. */
function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = new Sink();
  return { stdin, stderr, io: { stdin, stderr, isTTY: { stdin: true } } };
}

describe('readSecret', () => {
  it('reads a line without echoing it', async () => {
    const t = terminal();
    const answer = readSecret('API key: ', t.io);
    t.stdin.write('bk_typed_secret_1234\r');
    await expect(answer).resolves.toBe('bk_typed_secret_1234');
    expect(t.stderr.text).toContain('API key: ');
    expect(t.stderr.text).not.toContain('bk_typed');
  });

  it('rejects with an interruption (exit 130) on Ctrl-C', async () => {
    const t = terminal();
    const answer = readSecret('API key: ', t.io);
    t.stdin.write('bk_par');
    t.stdin.write('\x03');
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).exitCode).toBe(ExitCode.INTERRUPTED);
    expect(t.stderr.text).not.toContain('bk_par');
  });

  it('rejects when the input ends before a line', async () => {
    const t = terminal();
    const answer = readSecret('API key: ', t.io);
    t.stdin.end();
    await expect(answer).rejects.toBeInstanceOf(UsageError);
  });

  it('refuses to prompt when stdin is not a terminal, pointing at --with-key', async () => {
    const io = { stdin: Readable.from([]), stderr: new Sink(), isTTY: { stdin: false } };
    const error = await readSecret('API key: ', io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).hint).toContain('--with-key');
  });
});

describe('readAllStdin', () => {
  it('joins chunks and drops the trailing newline', async () => {
    expect(await readAllStdin(Readable.from(['bk_abc', 'def\n']))).toBe('bk_abcdef');
    expect(await readAllStdin(Readable.from([Buffer.from('bk_crlf\r\n\r\n')]))).toBe('bk_crlf');
    expect(await readAllStdin(Readable.from([]))).toBe('');
  });

  it('keeps inner newlines and leading text', async () => {
    expect(await readAllStdin(Readable.from(['  a\nb\n']))).toBe('  a\nb');
  });

  it('refuses input beyond the limit', async () => {
    await expect(readAllStdin(Readable.from(['x'.repeat(11)]), { maxBytes: 10 })).rejects.toBeInstanceOf(
      UsageError,
    );
  });
});
