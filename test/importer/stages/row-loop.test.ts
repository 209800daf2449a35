// The loop of an import against a sink that only keeps what it is given: rows read, validated and
// sent in file order, rejects counted, the file's notes told, a failed read reported after the
// rows before it went on.
import { describe, expect, it } from 'vitest';
import { FileEvidence } from '../../../src/importer/file-evidence.js';
import type { ImportNote } from '../../../src/importer/notes.js';
import { planImport } from '../../../src/importer/plan.js';
import { createRowValidator } from '../../../src/importer/row-validator.js';
import { openSource } from '../../../src/importer/sources/index.js';
import { LookAhead } from '../../../src/importer/stages/look-ahead.js';
import { type ImportEvent, ImportTally } from '../../../src/importer/stages/report.js';
import { runRows } from '../../../src/importer/stages/row-loop.js';
import type { PlannedRow } from '../../../src/importer/stages/row-planner.js';
import type { ImportSink } from '../../../src/importer/stages/sink.js';
import { DEFINITIONS, fixture } from '../helpers.js';

async function loop(name: string, text: string, landed?: (row: number) => boolean) {
  const source = await openSource(await fixture(name, text));
  const plan = await planImport(source, { definitions: DEFINITIONS });
  const sent: PlannedRow[] = [];
  const sink: ImportSink = {
    accept: async (row) => {
      sent.push(row);
    },
    finish: async () => {},
    stop: () => 0,
    failure: undefined,
    link: { inFlight: 0, limit: 0, requests: 0, throttled: 0 },
  };
  const events: ImportEvent[] = [];
  const notes: ImportNote[] = [];
  const tally = new ImportTally({ emit: (e) => events.push(e), dryRun: false, progressIntervalMs: 1e9 });
  const evidence = new FileEvidence(plan.mapping, DEFINITIONS, {
    watchLocalTimes: plan.watchLocalTimes,
  });
  const say = (note: ImportNote) => notes.push(note);
  const end = await runRows({
    plan,
    source,
    signal: undefined,
    validate: createRowValidator({ definitions: DEFINITIONS, mapping: plan.mapping, evidence }),
    lookAhead: plan.mapping ? new LookAhead(evidence, source.name, say) : undefined,
    landed,
    sink,
    tally,
    say,
    dryRun: false,
  });
  return { end, sent, events, notes, stats: tally.stats };
}

describe('runRows', () => {
  it('sends the valid rows in file order and counts the rest, every row read once', async () => {
    const { end, sent, events, stats } = await loop(
      'p.csv',
      'external_id,email,seats\nu1,a@example.com,1\n,b@example.com,2\nu3,c@example.com,3\nu4,not-an-email,4\n',
    );
    expect(end).toEqual({ readFailure: undefined, readToEnd: true });
    expect(sent.map((r) => [r.key, r.source.line])).toEqual([
      ['u1', 2],
      ['u3', 4],
    ]);
    expect(stats).toMatchObject({ read: 4, rejected: 2 });
    expect(events.filter((e) => e.type === 'reject').map((e) => e.type === 'reject' && e.line)).toEqual([
      3, 5,
    ]);
  });

  it('skips the rows a resumed run landed', async () => {
    const { sent, stats } = await loop('r.csv', 'User ID\nu1\nu2\nu3\n', (row) => row === 2);
    expect(sent.map((r) => r.key)).toEqual(['u1', 'u3']);
    expect(stats.skipped).toBe(1);
  });

  it('tells what the rows read ahead decided before the first row is sent, and reads the first row so', async () => {
    const { sent, notes } = await loop('d.csv', 'User ID,Signup Date\nu1,3/4/2024\nu2,31/12/2024\n');
    expect(notes).toMatchObject([{ code: 'date_order_decided', order: 'dmy' }]);
    expect(sent.map((r) => JSON.parse(r.json).custom_attributes.signup_date)).toEqual([
      '2024-04-03',
      '2024-12-31',
    ]);
  });

  it('tells of the first date-time without a zone, met by the validator past the rows read ahead', async () => {
    const rows = Array.from(
      { length: 1005 },
      (_, i) => `u${i},${i === 1002 ? '2024-03-22 17:59' : '2024-03-22'}`,
    );
    const { notes } = await loop('t.csv', `User ID,Signup Date\n${rows.join('\n')}\n`);
    expect(notes).toMatchObject([
      { code: 'local_times', column: 'Signup Date', example: '2024-03-22 17:59' },
    ]);
  });

  it('reports a read that fails after sending the rows before it', async () => {
    const { end, sent } = await loop('broken.csv', 'User ID,Name\nu1,Ann\nu2,"Bo\n');
    expect(sent.map((r) => r.key)).toEqual(['u1']);
    expect(end.readToEnd).toBe(false);
    expect(end.readFailure?.error).toMatchObject({ message: expect.stringMatching(/broken\.csv: line 3/) });
  });

  it('sends nothing when a date column no row decides stops the import', async () => {
    const { end, sent } = await loop('open.csv', 'User ID,Signup Date\nu1,3/4/2024\nu2,5/6/2024\n');
    expect(sent).toEqual([]);
    expect(end.readFailure?.error).toMatchObject({
      detail: { code: 'date_order_undecided', column: 'Signup Date' },
    });
  });
});
