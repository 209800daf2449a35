// The process's streams as the CLI sees them: what is a terminal, whether colour is wanted,
// and the stderr side-channel (notes, warnings, spinners) that keeps stdout for data alone.
import { redactSecrets } from '../../core/redact.js';
import type { InStream, OutStream } from '../io.js';
import type { TableOptions } from './table.js';
import { visible } from './visible.js';

export type { InStream, OutStream };

export interface CreateIoOptions {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: NodeJS.ProcessEnv;
  /** `--quiet`: no notes and no spinners; warnings, errors and data still appear. */
  quiet?: boolean;
  /** A `--color`/`--no-color` flag, which beats the environment. */
  color?: boolean;
  /** Literal secrets (the key in use) to redact from every line; the list may grow later. */
  secrets?: readonly string[];
  /** `--no-truncate`: tables print every character instead of fitting the terminal. */
  truncate?: boolean;
}

export interface Spinner {
  update(text: string): void;
  /** Stops with a success mark; the text goes to stderr even without a spinner. */
  succeed(text?: string): void;
  /** Stops with a failure mark; the text goes to stderr even without a spinner. */
  fail(text?: string): void;
  /** Stops and clears the line. */
  stop(): void;
}

export interface Io {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly stdin: InStream;
  readonly env: NodeJS.ProcessEnv;
  readonly isTTY: { readonly stdout: boolean; readonly stderr: boolean; readonly stdin: boolean };
  readonly color: { readonly stdout: boolean; readonly stderr: boolean };
  readonly quiet: boolean;
  /** How tables are drawn on stdout: colour, the terminal's width to fit, truncation. */
  readonly table: TableOptions;
  /** Progress or information for a person, on stderr; silent under --quiet. */
  note(message: string): void;
  /** Something the user should know even under --quiet, on stderr. */
  warn(message: string): void;
  /** A started spinner on stderr when it is a terminal and not --quiet, else a silent stand-in. */
  spinner(text: string): Promise<Spinner>;
}

/**
 * Whether to colour a stream: NO_COLOR (any non-empty value, per no-color.org) wins, then
 * FORCE_COLOR, then `TERM=dumb`, then whether the stream is a terminal.
 */
export function colorAllowed(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env['NO_COLOR']) return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

export function createIo(options: CreateIoOptions): Io {
  const { stdout, stderr, stdin, env } = options;
  const quiet = options.quiet ?? false;
  const isTTY = { stdout: stdout.isTTY === true, stderr: stderr.isTTY === true, stdin: stdin.isTTY === true };
  const color = {
    stdout: options.color ?? colorAllowed(stdout, env),
    stderr: options.color ?? colorAllowed(stderr, env),
  };
  const secrets = options.secrets ?? [];
  // Notes carry data (names, ids, a server's words): redacted, and control characters shown
  // rather than obeyed, so a contact's name cannot retitle or clear the user's terminal.
  const human = (text: string) => visible(redactSecrets(text, secrets));
  // While a spinner turns, ora hooks stderr's write to clear and redraw around these lines.
  const line = (text: string, label = '') => {
    stderr.write(`${label}${human(text)}\n`);
  };
  const note = (message: string) => {
    if (!quiet) line(message);
  };

  return {
    stdout,
    stderr,
    stdin,
    env,
    isTTY,
    color,
    quiet,
    table: {
      color: color.stdout,
      width: isTTY.stdout && stdout.columns ? stdout.columns : undefined,
      truncate: options.truncate ?? true,
    },
    note,
    // The label's colour is ours, added after the message is made safe to show.
    warn: (message) => line(message, color.stderr ? '\u001b[33mwarning:\u001b[39m ' : 'warning: '),
    async spinner(text) {
      // A terminal of 0 columns (a pty given no size: `script`, Emacs' shell, some CI runners) is
      // no place to redraw: ora divides by the width, and its clearing loop would never end.
      if (quiet || !isTTY.stderr || env['TERM'] === 'dumb' || !((stderr.columns ?? 80) > 0)) {
        return silentSpinner(note);
      }
      // Loaded here so commands that never spin never load ora.
      const { default: ora } = await import('ora');
      const spinner = ora({
        text: human(text),
        // Only reached when stderr is a real terminal, i.e. a process stream.
        stream: stderr as unknown as NodeJS.WritableStream,
        isEnabled: true,
        color: color.stderr ? 'cyan' : false,
        // ora would otherwise put stdin in raw mode, which breaks prompts and piped input.
        discardStdin: false,
      }).start();
      return {
        update: (t) => {
          spinner.text = human(t);
        },
        succeed: (t) => {
          spinner.succeed(t === undefined ? undefined : human(t));
        },
        fail: (t) => {
          spinner.fail(t === undefined ? undefined : human(t));
        },
        stop: () => {
          spinner.stop();
        },
      };
    },
  };
}

/** Without a terminal the progress is dropped, but the outcome is still said, once. */
function silentSpinner(note: (message: string) => void): Spinner {
  return {
    update: () => {},
    succeed: (t) => {
      if (t) note(t);
    },
    fail: (t) => {
      if (t) note(t);
    },
    stop: () => {},
  };
}
