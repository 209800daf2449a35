// Runs the CLI two ways: in-process through run() with captured streams (fast, for parsing),
// and as a real child process of bin/contacts.js (for flows, exit codes and TTY-less output).
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { TEST_KEY } from './mock.js';

export const BIN = fileURLToPath(new URL('../../bin/contacts.js', import.meta.url));

/**
 * The time a test that kills an import and resumes it may take: two runs of the CLI over
 * thousands of requests, which on a machine with both cores busy take longer than the default.
 * A bound on a hang, not an assertion: nothing in such a test depends on how long it took.
 */
export const KILL_AND_RESUME_TIMEOUT = 120_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temporary config directory and working directory; never the user's real ones. */
export async function tempHome(): Promise<{ dir: string; env: NodeJS.ProcessEnv; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'contacts-cli-test-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'xdg'),
    CONTACTS_CONFIG_DIR: join(dir, 'config'),
    NO_COLOR: '1',
  };
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The current test's home: read `dir` and `env` inside a test or hook, never at collection time. */
export interface TestHome {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * A fresh tempHome() for every test of the calling file (or describe block), removed after it.
 * Call it at module or describe level: it registers the beforeEach/afterEach hooks itself.
 */
export function useTempHome(): TestHome {
  let current: Awaited<ReturnType<typeof tempHome>> | undefined;
  beforeEach(async () => {
    current = await tempHome();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('useTempHome(): the home exists only while a test runs');
    return current;
  };
  return {
    get dir() {
      return now().dir;
    },
    get env() {
      return now().env;
    },
  };
}

/**
 * The environment of a CLI run in `home` against `mock` with TEST_KEY; `extra` adds to it or
 * overrides it (another key, an agent, a proxy).
 */
export function envFor(
  home: Pick<TestHome, 'env'>,
  mock: { url: string },
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return { ...home.env, CONTACTS_API_KEY: TEST_KEY, CONTACTS_BASE_URL: mock.url, ...extra };
}

class Capture extends PassThrough {
  text = '';
  isTTY: boolean;
  columns: number | undefined;
  constructor(isTTY = false, columns?: number) {
    super();
    this.isTTY = isTTY;
    this.columns = columns;
    if (isTTY) {
      // What a spinner (ora) asks of a terminal, as no-ops: the test reads the text written.
      Object.assign(this, { cursorTo: () => true, moveCursor: () => true, clearLine: () => true });
    }
    this.on('data', (c: Buffer) => {
      this.text += c.toString();
    });
  }
}

/** Runs `contacts <argv>` in this process. */
export async function runInProcess(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; cwd?: string; tty?: boolean; columns?: number } = {},
): Promise<CliResult> {
  const stdout = new Capture(options.tty, options.columns);
  const stderr = new Capture(options.tty);
  const io: CliIo = {
    stdout,
    stderr,
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  };
  const code = await run(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Runs `bin/contacts.js <argv>` as a child process with only the given environment. */
export function runBin(
  argv: string[],
  options: { env: NodeJS.ProcessEnv; stdin?: string; cwd?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** A writable stream that keeps what is written to it as `text` (stdout/stderr of an in-process run). */
export function textSink(): PassThrough & { text: string } {
  const s = Object.assign(new PassThrough(), { text: '' });
  s.on('data', (c: Buffer) => {
    s.text += c.toString();
  });
  return s;
}

/**
 * `contacts import FILE ...args` in a child process, killed with SIGKILL the moment its checkpoint
 * (`FILE.import-checkpoint.json`, beside the file) first lands on disk: mid-import, rows in flight.
 * The watch starts before the child, so a quick first checkpoint cannot be missed.
 */
export async function killImportAtFirstCheckpoint(
  file: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<NodeJS.Signals | null> {
  const dir = dirname(file);
  const name = `${basename(file)}.import-checkpoint.json`;
  let watcher: ReturnType<typeof watch> | undefined;
  const landed = new Promise<void>((resolve) => {
    watcher = watch(dir, (_event, changed) => {
      if (changed === name) resolve();
    });
  });
  const child = spawn(process.execPath, [BIN, 'import', file, ...args], {
    env: options.env,
    cwd: options.cwd,
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  // An import that ends before its first checkpoint is said by its exit, not waited for.
  const ended = await Promise.race([landed.then(() => false), exited.then(() => true)]);
  watcher?.close();
  if (ended) throw new Error(`The import exited (exit code ${child.exitCode}) before its first checkpoint`);
  child.kill('SIGKILL');
  return exited;
}
