// Issue "nothing lost, nothing injected", a FIFO as input: no counting pass drains it, rows are
// sent as they come, and the first Ctrl-C stops a read that waits for more.
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { envFor, textSink, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';

const home = useTempHome();

describe('a FIFO as input', () => {
  it('sends rows as they arrive, and the first Ctrl-C ends a read that waits for more', async () => {
    const mock = await startTestMock();
    const fifo = join(home.dir, 'rows.ndjson');
    execFileSync('mkfifo', [fifo]);
    const signals = new EventEmitter();
    const stderr = textSink();
    const io: CliIo = {
      stdout: textSink(),
      stderr,
      stdin: Readable.from([]),
      env: envFor(home, mock),
      cwd: home.dir,
      signals: signals as unknown as NonNullable<CliIo['signals']>,
    };
    const importing = run(['import', fifo, '--agent', 'a1', '--batch-size', '1'], io);
    // The writer keeps the FIFO open: the importer never sees its end.
    const writer = await open(fifo, 'w');
    await writer.write('{"external_id":"f1"}\n{"external_id":"f2"}\n');
    // Both rows land though the input has not ended: nothing waited on a count of the FIFO.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (mock.store.contacts('a1').length === 2) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    signals.emit('SIGINT');
    // The writer still holds the FIFO open: only the Ctrl-C can end the import here.
    const code = await importing;
    await writer.close();
    expect(code).toBe(130);
    expect(stderr.text).toMatch(/Interrupted after/);
    expect(mock.store.contacts('a1').map((c) => c.external_id)).toEqual(['f1', 'f2']);
  });
});
