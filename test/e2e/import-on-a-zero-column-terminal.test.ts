// A terminal that reports 0 columns (a pty given no size: `script`, Emacs' M-x shell, some CI
// runners) once made every import spin forever redrawing its progress line (issue 21).
import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { BIN, envFor, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';

/** More than any import's progress writes: past it, the display is looping. */
const RUNAWAY_BYTES = 1024 * 1024;

const home = useTempHome();

async function setUp() {
  const mock = await startTestMock();
  const file = join(home.dir, 'people.csv');
  await writeFile(file, 'external_id,name\nu1,Ada\nu2,Grace\nu3,Edsger\n');
  return { file, env: envFor(home, mock), home, mock };
}

describe('an import on a terminal of 0 columns', () => {
  it('finishes and says what it did (in-process, a TTY stream of 0 columns)', async () => {
    const t = await setUp();
    const terminal = () => {
      let written = 0;
      // The old loop never yields: it is ended with an error rather than hang the test run.
      const count = (bytes: number) => {
        written += bytes;
        if (written > RUNAWAY_BYTES) throw new Error('the progress display is looping');
        return true;
      };
      const stream = Object.assign(new PassThrough(), {
        isTTY: true,
        columns: 0,
        rows: 0,
        text: '',
        // What ora asks of a terminal; each counts as the escape sequence it would write.
        cursorTo: () => count(4),
        moveCursor: () => count(4),
        clearLine: () => count(4),
      });
      const write = stream.write.bind(stream);
      stream.write = ((chunk: string | Buffer) => {
        count(chunk.length);
        stream.text += chunk.toString();
        return write(chunk);
      }) as typeof stream.write;
      return stream;
    };
    const stdout = terminal();
    const stderr = terminal();
    const io: CliIo = { stdout, stderr, stdin: Readable.from([]), env: t.env, cwd: t.home.dir };
    const code = await run(['import', t.file, '--agent', 'a1'], io);
    expect(stderr.text).toContain('Imported 3 rows');
    expect(code).toBe(0);
  });

  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasScript)('finishes under a real pty of 0 x 0 (util-linux script)', async () => {
    const t = await setUp();
    const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const command = [process.execPath, BIN, 'import', t.file, '--agent', 'a1'].map(quote).join(' ');
    // stdin is not a terminal, so script gives the pty no size: 0 columns, 0 rows.
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      env: t.env,
      cwd: t.home.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let runaway = false;
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.length > RUNAWAY_BYTES && !runaway) {
        runaway = true;
        child.kill('SIGKILL');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(runaway).toBe(false);
    expect(output).toContain('Imported 3 rows');
    expect(code).toBe(0);
  });
});
