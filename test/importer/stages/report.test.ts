// The report stage: counts, events as rows end, reasons grouped for the closing summary.
import { describe, expect, it } from 'vitest';
import type { ImportEvent } from '../../../src/importer/stages/report.js';
import { ImportTally } from '../../../src/importer/stages/report.js';
import type { PlannedRow } from '../../../src/importer/stages/row-planner.js';

const source = (line: number) => ({ row: line - 1, line, record: {} });
const row = (line: number, key = `u${line}`): PlannedRow => ({
  source: source(line),
  input: undefined,
  key,
  lanes: [],
  json: '',
  bytes: 0,
});
const contact = (id: string) => ({
  id,
  external_id: id,
  name: null,
  email: null,
  phonenumber: null,
  custom_attributes: {},
  stripe_accounts: [],
  created_at: 1,
  updated_at: 1,
});

function tally(dryRun = false) {
  const events: ImportEvent[] = [];
  const t = new ImportTally({
    emit: (e) => events.push(e),
    dryRun,
    total: 10,
    progressIntervalMs: 3_600_000,
  });
  return { t, events };
}

describe('ImportTally', () => {
  it('counts what each row came to, and tells rejects and notices as they happen', async () => {
    const { t, events } = tally();
    for (let i = 0; i < 5; i++) t.read();
    t.outcome({ type: 'landed', row: row(2), action: 'created', contact: contact('ct_1') });
    t.outcome({ type: 'landed', row: row(3), action: 'updated', contact: contact('ct_2') });
    t.outcome({ type: 'rejected', row: row(4), reason: 'email: Invalid email' });
    t.skipped();
    t.repeatedKey(6, 'u2 again');
    expect(events.filter((e) => e.type !== 'progress')).toEqual([
      { type: 'reject', line: 4, reason: 'email: Invalid email' },
      { type: 'notice', line: 6, message: 'u2 again' },
    ]);
    const report = await t.close(false, false);
    expect(report).toMatchObject({
      rows: 5,
      created: 1,
      updated: 1,
      rejected: 1,
      skipped: 1,
      repeatedKeys: 1,
      dryRun: false,
      interrupted: false,
      rejectsFile: null,
      checkpointFile: null,
      undo: null,
    });
  });

  it('counts a dry run’s plans, and tells those that change something', async () => {
    const { t, events } = tally(true);
    const plan = (line: number, action: 'create' | 'update' | 'unchanged') => ({
      line,
      external_id: `u${line}`,
      action,
      changes: {},
    });
    t.outcome({ type: 'planned', row: row(2), plan: plan(2, 'create') });
    t.outcome({ type: 'planned', row: row(3), plan: plan(3, 'update') });
    t.outcome({ type: 'planned', row: row(4), plan: plan(4, 'unchanged') });
    expect(events.filter((e) => e.type === 'plan').map((e) => (e as { line: number }).line)).toEqual([2, 3]);
    expect(await t.close(false, false)).toMatchObject({ created: 1, updated: 1, unchanged: 1, dryRun: true });
  });

  it('groups reasons with their row’s own values blanked, keeping the first few lines', async () => {
    const { t } = tally();
    for (let line = 2; line <= 9; line++) {
      t.reject(
        source(line),
        `phonenumber: not a valid number in US: "${line}55 0100"; email: ${line}x@y.co is taken`,
      );
    }
    t.reject(source(10), 'name: Too long');
    const { rejectReasons } = await t.close(false, false);
    expect(rejectReasons.map((r) => [r.reason, r.count, r.lines])).toEqual([
      ['phonenumber: not a valid number in US: "…"', 8, [2, 3, 4, 5, 6]],
      ['email: …@… is taken', 8, [2, 3, 4, 5, 6]],
      ['name: Too long', 1, [10]],
    ]);
    expect(rejectReasons[0]!.example).toBe('phonenumber: not a valid number in US: "255 0100"');
  });

  it("says a reason every row gave alike as it was, its hint's own numbers too", async () => {
    const { t } = tally();
    for (let line = 2; line <= 4; line++)
      t.reject(source(line), 'phonenumber: too short for GB (write 11 digits)');
    t.reject(source(5), 'custom_attributes.vip: "maybe" is not a yes/no value (yes/no, true/false, 1/0)');
    const { rejectReasons } = await t.close(false, false);
    expect(rejectReasons.map((r) => [r.reason, r.count])).toEqual([
      ['phonenumber: too short for GB (write 11 digits)', 3],
      ['custom_attributes.vip: "maybe" is not a yes/no value (yes/no, true/false, 1/0)', 1],
    ]);
  });

  it("blanks only the details the rows give otherwise, keeping a hint's examples", async () => {
    const { t } = tally();
    const hint = '(2024-05-31, 2024-05-31 17:59, 5/31/2024, 31-May-2024)';
    t.reject(source(2), `custom_attributes.created: "April 10, 2026 9:00 AM" is not a date ${hint}`);
    t.reject(source(3), `custom_attributes.created: "April 12, 2026 10:30 AM" is not a date ${hint}`);
    t.reject(source(4), `custom_attributes.created: "May 1, 2026 8:00 AM" is not a date ${hint}`);
    t.reject(source(5), 'phonenumber: too short for GB (line 12 of 40)');
    t.reject(source(6), 'phonenumber: too short for GB (line 13 of 40)');
    t.reject(source(7), 'phonenumber: too short for GB (line 14 of 40)');
    const { rejectReasons } = await t.close(false, false);
    expect(rejectReasons.map((r) => r.reason)).toEqual([
      `custom_attributes.created: "…" is not a date ${hint}`,
      'phonenumber: too short for GB (line N of 40)',
    ]);
  });

  it('tells progress at most once an interval, and always when forced', () => {
    const { t, events } = tally();
    t.progress();
    t.progress();
    t.skipped();
    expect(events.filter((e) => e.type === 'progress')).toHaveLength(1);
    t.progress(true);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'progress', total: 10, stats: { skipped: 1 } });
  });

  it('reports what the reading noticed, the countries placed by the file most first', async () => {
    const { t } = tally();
    const report = await t.close(true, true, {
      multiValue: new Map([['Emails', 3]]),
      lostCharacters: [4, 9],
      lostCharactersCount: 2,
      placedByFile: new Map([
        ['DE', 1],
        ['GB', 5],
        ['AT', 1],
      ]),
      emptyRows: [7],
    });
    expect(report.multiValue).toEqual([{ column: 'Emails', cells: 3 }]);
    expect(report.lostCharacters).toEqual({ count: 2, lines: [4, 9] });
    expect(report.empty).toEqual({ count: 0, lines: [7] });
    expect(report.placedByFile.map((p) => p.country)).toEqual(['GB', 'AT', 'DE']);
    expect(report.interrupted).toBe(true);
  });
});
