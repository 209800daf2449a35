import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { colorAllowed, createIo, type OutStream } from '../../../src/cli/output/terminal.js';

class Sink implements OutStream {
  text = '';
  columns = 80;
  constructor(readonly isTTY = false) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  // What ora needs of a terminal stream to clear its line.
  cursorTo(): boolean {
    return true;
  }
  moveCursor(): boolean {
    return true;
  }
  clearLine(): boolean {
    return true;
  }
}

function io(options: { tty?: boolean; quiet?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const stdout = new Sink(options.tty);
  const stderr = new Sink(options.tty);
  const stdin = Object.assign(Readable.from([]), { isTTY: options.tty ?? false });
  return {
    stdout,
    stderr,
    io: createIo({ stdout, stderr, stdin, env: options.env ?? {}, quiet: options.quiet ?? false }),
  };
}

describe('colorAllowed', () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
    [true, { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    [false, { FORCE_COLOR: '1' }, true],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { TERM: 'dumb' }, false],
  ] as const)('tty=%s env=%j -> %s', (isTTY, env, expected) => {
    expect(colorAllowed({ isTTY }, env)).toBe(expected);
  });
});

describe('createIo', () => {
  it('reports terminals and colour per stream, and a flag beats the environment', () => {
    const { io: tty } = io({ tty: true });
    expect(tty.isTTY).toEqual({ stdout: true, stderr: true, stdin: true });
    expect(tty.color).toEqual({ stdout: true, stderr: true });
    expect(io({ tty: true, env: { NO_COLOR: '1' } }).io.color).toEqual({ stdout: false, stderr: false });
    expect(io().io.color).toEqual({ stdout: false, stderr: false });

    const stdout = new Sink(true);
    const forcedOff = createIo({ stdout, stderr: stdout, stdin: Readable.from([]), env: {}, color: false });
    expect(forcedOff.color.stdout).toBe(false);
  });

  it('writes notes and warnings to stderr only', () => {
    const { io: x, stdout, stderr } = io();
    x.note('Fetched 3 contacts');
    x.warn('attribute "old" is archived');
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe('Fetched 3 contacts\nwarning: attribute "old" is archived\n');
  });

  it('silences notes and warnings under --quiet, but not what explains a failure', () => {
    const { io: x, stderr } = io({ quiet: true });
    x.note('progress');
    x.warn('careful');
    x.failure('3 rows landed before it stopped');
    expect(stderr.text).toBe('warning: 3 rows landed before it stopped\n');
  });

  it('redacts keys in notes and warnings', () => {
    const { io: x, stderr } = io();
    x.note('using bk_live_abcdefgh1234');
    x.warn('Bearer bk_live_abcdefgh1234');
    expect(stderr.text).not.toContain('abcdefgh1234');
  });
});

describe('spinner', () => {
  it('is silent without a terminal, but still reports the outcome', async () => {
    const { io: x, stderr, stdout } = io();
    const spinner = await x.spinner('Fetching');
    spinner.update('Fetching page 2');
    spinner.succeed('Fetched 250 contacts');
    expect(stderr.text).toBe('Fetched 250 contacts\n');
    expect(stdout.text).toBe('');
  });

  it('says nothing at all under --quiet, even on a terminal', async () => {
    const { io: x, stderr } = io({ tty: true, quiet: true });
    const spinner = await x.spinner('Fetching');
    spinner.succeed('Done');
    expect(stderr.text).toBe('');
  });

  it('spins with ora on a terminal stderr and ends with the final text', async () => {
    const { io: x, stderr, stdout } = io({ tty: true, env: { NO_COLOR: '1' } });
    const spinner = await x.spinner('Fetching');
    expect(stderr.text).toContain('Fetching');
    spinner.succeed('Fetched 3 contacts');
    expect(stderr.text).toContain('Fetched 3 contacts');
    expect(stdout.text).toBe('');
  });
});
