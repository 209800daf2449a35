// The process's streams and environment, passed in so the whole CLI runs in-process in tests.

export interface CliStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
  once?(event: 'drain', listener: () => void): unknown;
}

export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
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
  };
}
