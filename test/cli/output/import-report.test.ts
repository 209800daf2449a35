import { EventEmitter } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/io.js';
import { run } from '../../../src/cli/main.js';
import {
  closingLines,
  keepColumnHint,
  progressLine,
  RateMeter,
  summaryLine,
  summaryRecord,
} from '../../../src/cli/output/import-report.js';
import type { ImportReport } from '../../../src/importer/pipeline.js';
import { useTempHome } from '../../helpers/cli.js';
import { startTestMock } from '../../helpers/mock.js';

const event = (
  over: Partial<Record<'created' | 'updated' | 'rejected' | 'skipped' | 'empty', number>>,
  total?: number,
) => ({
  type: 'progress' as const,
  total,
  concurrency: 8,
  inFlight: 3,
  stats: {
    read: 0,
    created: 0,
    updated: 0,
    rejected: 0,
    skipped: 0,
    empty: 0,
    unchanged: 0,
    fixed: 0,
    startedAt: 1_000,
    ...over,
  },
});

describe('import progress line', () => {
  it('shows rows done of the total, the rate, the requests in flight and the rejects', () => {
    expect(progressLine(event({ created: 300, updated: 150, rejected: 50 }, 2000), false, 250)).toBe(
      '500 of 2000 (25%) rows done, 250 rows/s, 3 in flight, 50 rejected',
    );
  });

  it('counts rows an earlier run landed as done', () => {
    expect(progressLine(event({ created: 100, skipped: 900 }, 1000), false, 100)).toBe(
      '1000 of 1000 (100%) rows done, 100 rows/s, 3 in flight, 0 rejected',
    );
  });

  it('counts rows with nothing but a key, not sent, as done', () => {
    expect(progressLine(event({ created: 90, empty: 10 }, 100), false, 100)).toBe(
      '100 of 100 (100%) rows done, 100 rows/s, 3 in flight, 0 rejected',
    );
  });

  it('has no total for stdin, and says "checked" in a dry run', () => {
    expect(progressLine(event({ updated: 10 }), true, 10)).toBe('10 rows checked, 10 rows/s, 0 rejected');
  });
});

describe('the rate', () => {
  it('is the current rate over the last seconds, not the average since the start', () => {
    const meter = new RateMeter(5_000);
    meter.rate(0, 0);
    meter.rate(10_000, 10_000); // 1,000 rows/s for ten seconds
    expect(meter.rate(10_000, 20_000)).toBeLessThan(500); // then an outage: nothing lands
    meter.rate(10_000, 26_000);
    expect(meter.rate(10_500, 27_000)).toBeLessThanOrEqual(500);
    expect(meter.rate(12_500, 29_000)).toBeGreaterThan(500); // back: the figure follows at once
  });
});

describe('the closing sentence', () => {
  const report = (over: Partial<ImportReport>): ImportReport => ({
    rows: 70553,
    repeatedKeys: 0,
    placedByFile: [],
    sectionsNotRead: [],
    sheetsNotRead: [],
    undo: null,
    created: 70000,
    updated: 500,
    rejected: 3,
    skipped: 0,
    empty: { count: 0, lines: [] },
    unchanged: 0,
    durationMs: 2600,
    rowsPerSecond: 27136,
    requests: 71,
    throttled: 0,
    dryRun: false,
    interrupted: false,
    rejectsFile: null,
    fixed: 0,
    fixesFile: null,
    rejectReasons: [],
    fixReasons: [],
    problemCodes: [],
    multiValue: [],
    lostCharacters: { count: 0, lines: [] },
    resultsFile: null,
    checkpointFile: null,
    ...over,
  });

  it('reads as a sentence whatever happened', () => {
    expect(summaryLine(report({}))).toBe(
      'Read 70553 rows in 2.6s (27136 rows/s): 70000 created, 500 updated, 3 rejected.',
    );
    expect(summaryLine(report({ rows: 1, created: 1, updated: 0, rejected: 0 }))).toBe(
      'Imported 1 row in 2.6s (27136 rows/s): 1 created, 0 updated, 0 rejected.',
    );
    expect(
      closingLines(
        report({
          multiValue: [
            { column: 'E-mail 1 - Value', cells: 1 },
            { column: 'Phone 1 - Value', cells: 2 },
          ],
        }),
      ),
    ).toContain('Cells with several values: E-mail 1 - Value: 1 cell, Phone 1 - Value: 2 cells.');
    expect(summaryRecord(report({ dryRun: true }))).not.toHaveProperty('rows_per_second');
    expect(summaryRecord(report({}))).toHaveProperty('rows_per_second', 27136);
    expect(summaryLine(report({ interrupted: true }))).toBe(
      'Interrupted after 2.6s: 70500 of the 70553 rows read had landed (70000 created, 500 updated, 3 rejected).',
    );
    expect(summaryLine(report({ dryRun: true }))).toBe(
      'Checked 70553 rows in 2.6s: 70000 to create, 500 to update, 0 unchanged, 3 rejected.',
    );
  });

  it('counts the rows with nothing but a key apart, and names their first lines', () => {
    const empty = report({ rejected: 0, empty: { count: 53, lines: [4, 9] } });
    expect(summaryLine(empty)).toBe(
      'Imported 70553 rows in 2.6s (27136 rows/s): 70000 created, 500 updated, 0 rejected, 53 with nothing to import not sent.',
    );
    expect(closingLines(empty)).toContain(
      '53 rows had no value to import but a key, or none at all (lines 4, 9, …): not sent, so no empty contact is made.',
    );
    expect(summaryRecord(empty)).toHaveProperty('empty_rows', 53);
    expect(closingLines(report({ empty: { count: 1, lines: [4] }, dryRun: true }))).toContain(
      '1 row had no value to import but a key, or none at all (line 4): not to send, so no empty contact is made.',
    );
  });
});

describe('Ctrl-C during an import on a terminal', () => {
  const home = useTempHome();
  it('ends with the summary and the --resume hint, in-process, through the CLI io', async () => {
    const mock = await startTestMock({ faults: { latencyMs: 20 } });
    const file = join(home.dir, 'big.csv');
    let text = 'external_id,name\n';
    for (let i = 0; i < 5000; i++) text += `u${i},Name ${i}\n`;
    await writeFile(file, text);
    const signals = new EventEmitter();
    const capture = (tty: boolean) => {
      // What ora needs of a terminal, as no-ops: the text written is what the test reads.
      const stream = Object.assign(new PassThrough(), {
        isTTY: tty,
        columns: 100,
        text: '',
        cursorTo: () => true,
        moveCursor: () => true,
        clearLine: () => true,
      });
      stream.on('data', (c: Buffer) => {
        stream.text += c.toString();
      });
      return stream;
    };
    const stdout = capture(true);
    const stderr = capture(true);
    const io: CliIo = {
      stdout,
      stderr,
      stdin: Readable.from([]),
      env: {
        ...home.env,
        CONTACTS_API_KEY: 'bk_test_interrupt_1234',
        CONTACTS_BASE_URL: mock.url,
        NO_COLOR: '1',
      },
      cwd: home.dir,
      signals: signals as unknown as NonNullable<CliIo['signals']>,
    };
    // Press Ctrl-C once the first rows have landed: the mock has answered some requests.
    const pressed = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (mock.requests.length > 20) {
          clearInterval(timer);
          signals.emit('SIGINT');
          resolve();
        }
      }, 5);
    });
    const code = await run(['import', file, '--agent', 'a1', '--batch-size', '1'], io);
    await pressed;
    expect(code).toBe(130);
    expect(stderr.text).toMatch(/warning: Interrupted: letting the requests in flight finish/);
    expect(stderr.text).not.toMatch(/warning: \n/);
    expect(stderr.text).toMatch(/Interrupted after [\d.]+s: \d+ of the \d+ rows read had landed/);
    expect(stderr.text).toMatch(/warning: Run the same command with --resume to send the rest\./);
    // On a terminal the sentence is the summary; no second copy as a table.
    expect(stdout.text).toBe('');
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });
});

describe('keepColumnHint', () => {
  it('names the attribute of the first usable column, with the type its values ask for', () => {
    expect(keepColumnHint(['Signed Up', 'Notes'], { 'Signed Up': 'date', Notes: 'text' })).toBe(
      'To import a column, define the attribute it fills first, e.g. contacts attrs define signed_up --type date (or text, number, boolean)',
    );
    expect(keepColumnHint(['Job Title'])).toBe(
      'To import a column, define the attribute it fills first, e.g. contacts attrs define job_title --type text (or number, boolean, date)',
    );
    // A column given no type (its attribute is defined, another column fills it) is passed over.
    expect(keepColumnHint(['plan', 'Notes'], { Notes: 'text' })).toMatch(/attrs define notes --type text/);
    // Accents go, as attribute names have none.
    expect(keepColumnHint(['Société'], { Société: 'text' })).toMatch(/attrs define societe --type text/);
    // A name that makes no attribute is passed over.
    expect(keepColumnHint(['Fecha de creación', 'Seats'], { Seats: 'number' })).toMatch(
      /attrs define seats --type number \(or text, boolean, date\)$/,
    );
  });
});
