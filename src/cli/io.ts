// The process's streams and environment, passed in so the whole CLI runs in-process in tests.

/**
 * The one shape of an output stream in the CLI: process.stdout/stderr, a file stream, or a test's
 * collector. `once('drain')` is what lets writers honour backpressure.
 */
export interface OutStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
  once?(event: 'drain', listener: () => void): unknown;
}

/** Standard input as the CLI reads it: a stream, perhaps a terminal. */
export type InStream = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** Where Ctrl-C comes from: the process, or a test's own emitter pressing it in-process. */
export interface SignalSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Ctrl-C and SIGTERM; `process` for the binary. */
  signals?: SignalSource;
  /** Ends the process at once (a second Ctrl-C); absent in-process, where the test decides. */
  exitNow?: (code: number) => never;
  /** Literal secrets in use (the API key once resolved): redacted from everything printed. */
  secrets?: string[];
  /** Set by a command that finished but wants a non-zero exit (an import with rejected rows). */
  exitCode?: number;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    signals: process,
    exitNow: (code) => process.exit(code),
  };
}
