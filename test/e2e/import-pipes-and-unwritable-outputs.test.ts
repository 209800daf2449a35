// Issue "nothing lost, nothing injected", items 10 and 12, with the import's defaults (batches):
// rows from a FIFO or stdin that trickle are sent as they come, not held for a full batch, and the
// first Ctrl-C ends a read that waits for more; an output path that cannot be written (rejects,
// results, checkpoint) stops the import before anything is sent, naming the path and the reason.
import { execFileSync, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { chmod, mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import type { MockServer } from '../../src/mock/server.js';
import { BIN, envFor, textSink, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';
import { type Unprivileged, unprivileged } from '../helpers/unprivileged.js';

const home = useTempHome();

function ioFor(mock: MockServer, stdin: NodeJS.ReadableStream = Readable.from([])) {
  const signals = new EventEmitter();
  const stderr = textSink();
  const io: CliIo = {
    stdout: textSink(),
    stderr,
    stdin,
    env: envFor(home, mock),
    cwd: home.dir,
    signals: signals as unknown as NonNullable<CliIo['signals']>,
  };
  return { io, signals, stderr };
}

const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });

describe('inputs that trickle, with the default batches', () => {
  it('sends rows from a FIFO as they come, and the first Ctrl-C ends the wait for more', async () => {
    const mock = await startTestMock();
    const fifo = join(home.dir, 'rows.ndjson');
    execFileSync('mkfifo', [fifo]);
    const { io, signals, stderr } = ioFor(mock);
    const importing = run(['import', fifo, '--agent', 'a1'], io);
    // The writer keeps the FIFO open: the importer never sees its end, nor a full batch.
    const writer = await open(fifo, 'w');
    await writer.write('{"external_id":"f1"}\n{"external_id":"f2"}\n');
    await until(() => mock.store.contacts('a1').length === 2);
    await writer.write('{"external_id":"f3"}\n');
    await until(() => mock.store.contacts('a1').length === 3);
    signals.emit('SIGINT');
    // The writer still holds the FIFO open: only the Ctrl-C can end the import here.
    const code = await importing;
    await writer.close();
    expect(code).toBe(ExitCode.INTERRUPTED);
    expect(stderr.text).toMatch(/Interrupted after/);
    expect(mock.store.contacts('a1').map((c) => c.external_id)).toEqual(['f1', 'f2', 'f3']);
    // A FIFO is never counted first (that would drain it) and leaves no checkpoint.
    expect((await readdir(home.dir)).filter((f) => f.includes('checkpoint'))).toEqual([]);
  });

  it('sends rows from stdin as they come', async () => {
    const mock = await startTestMock();
    const stdin = new PassThrough();
    const { io, signals } = ioFor(mock, stdin);
    const importing = run(['import', '-', '--format', 'ndjson', '--agent', 'a1'], io);
    stdin.write('{"external_id":"s1"}\n');
    await until(() => mock.store.contacts('a1').length === 1);
    stdin.write('{"external_id":"s2"}\n');
    await until(() => mock.store.contacts('a1').length === 2);
    signals.emit('SIGINT');
    expect(await importing).toBe(ExitCode.INTERRUPTED);
  });
});

/** Runs the CLI without the power to write where the user may not (see helpers/unprivileged.ts). */
function runAsUser(argv: string[], mock: MockServer) {
  const { command, args } = (unprivileged as Unprivileged)(process.execPath, [BIN, ...argv]);
  return new Promise<{ code: number; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, {
      env: envFor(home, mock),
      cwd: home.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe.skipIf(!unprivileged)('output paths that cannot be written, refused before anything is sent', () => {
  const sentNothing = (mock: MockServer) => {
    expect(mock.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(mock.store.contacts('a1')).toEqual([]);
  };

  beforeEach(async () => {
    await writeFile(join(home.dir, 'in.csv'), 'external_id,email\nu1,u1@example.com\nu2,bad\n');
    await mkdir(join(home.dir, 'locked'), { mode: 0o555 });
    await chmod(join(home.dir, 'locked'), 0o555);
  });

  it('a rejects file in a directory the user cannot write: permission denied', async () => {
    const mock = await startTestMock();
    const r = await runAsUser(['import', 'in.csv', '--agent', 'a1', '--rejects', 'locked/r.csv'], mock);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(
      /Cannot write --rejects locked\/r\.csv: permission denied: its directory .*locked is not writable/,
    );
    sentNothing(mock);
  });

  it('a results file that is read-only, in a missing directory, or a directory', async () => {
    const mock = await startTestMock();
    await writeFile(join(home.dir, 'results.csv'), 'old\n', { mode: 0o444 });
    await chmod(join(home.dir, 'results.csv'), 0o444);
    const readOnly = await runAsUser(['import', 'in.csv', '--agent', 'a1', '--results', 'results.csv'], mock);
    expect(readOnly.code).toBe(ExitCode.USAGE);
    expect(readOnly.stderr).toMatch(
      /Cannot write --results results\.csv: permission denied: the file is read-only/,
    );
    const missing = await runAsUser(
      ['import', 'in.csv', '--agent', 'a1', '--results', 'nowhere/r.csv'],
      mock,
    );
    expect(missing.stderr).toMatch(
      /Cannot write --results nowhere\/r\.csv: its directory .*nowhere does not exist/,
    );
    await mkdir(join(home.dir, 'adir.csv'));
    const dir = await runAsUser(['import', 'in.csv', '--agent', 'a1', '--results', 'adir.csv'], mock);
    expect(dir.stderr).toMatch(/Cannot write --results adir\.csv: it is a directory/);
    sentNothing(mock);
  });

  it('the checkpoint, beside an input in a directory the user cannot write', async () => {
    const mock = await startTestMock();
    await chmod(join(home.dir, 'locked'), 0o755);
    await writeFile(join(home.dir, 'locked', 'in.csv'), 'external_id\nu1\n');
    await chmod(join(home.dir, 'locked'), 0o555);
    const r = await runAsUser(['import', 'locked/in.csv', '--agent', 'a1', '--rejects', 'r.csv'], mock);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(
      /Cannot write the resume checkpoint .*locked\/in\.csv\.import-checkpoint\.json: permission denied: its directory .*locked is not writable/,
    );
    sentNothing(mock);
  });
});
