// The dry run's sink: says what each row would do, in file order, a batch of rows per round of
// reads; stops and fails as a sending sink does.
import { describe, expect, it } from 'vitest';
import type { DryRunPlanner, RowPlan } from '../../../src/importer/dry-run-plan.js';
import { DryRunSink } from '../../../src/importer/stages/dry-run-sink.js';
import type { PlannedRow } from '../../../src/importer/stages/row-planner.js';
import type { RowOutcome } from '../../../src/importer/stages/sink.js';

const row = (i: number, input = true): PlannedRow => ({
  source: { row: i, line: i + 1, record: {} },
  input: input ? { external_id: `u${i}` } : undefined,
  key: `u${i}`,
  lanes: [`id:u${i}`],
  json: '',
  bytes: 10,
});

/** A planner that plans every row as a create, and remembers the batches it was given. */
function planner(fail?: Error) {
  const batches: number[][] = [];
  return {
    batches,
    planner: {
      plan: async (rows: readonly { line: number; input: { external_id: string } }[]): Promise<RowPlan[]> => {
        if (fail) throw fail;
        batches.push(rows.map((r) => r.line));
        return rows.map((r) => ({
          line: r.line,
          external_id: r.input.external_id,
          action: 'create',
          changes: {},
        }));
      },
    } as unknown as DryRunPlanner,
  };
}

describe('DryRunSink', () => {
  it('plans rows in batches of 200, the rest at finish, each outcome in file order', async () => {
    const { planner: p, batches } = planner();
    const outcomes: RowOutcome[] = [];
    const sink = new DryRunSink(p, (o) => outcomes.push(o));
    for (let i = 1; i <= 450; i++) await sink.accept(row(i));
    expect(batches.map((b) => b.length)).toEqual([200, 200]);
    await sink.finish();
    expect(batches.map((b) => b.length)).toEqual([200, 200, 50]);
    expect(outcomes.map((o) => (o.type === 'planned' ? o.plan.line : -1))).toEqual(
      Array.from({ length: 450 }, (_, i) => i + 2),
    );
    expect(outcomes.every((o) => o.type === 'planned' && o.row.key === o.plan.external_id)).toBe(true);
    expect(sink.link).toEqual({ inFlight: 0, limit: 0, requests: 0, throttled: 0 });
    expect(sink.failure).toBeUndefined();
  });

  it('stop drops the rows not planned yet, and takes no more', async () => {
    const { planner: p, batches } = planner();
    const sink = new DryRunSink(p, () => {});
    for (let i = 1; i <= 30; i++) await sink.accept(row(i));
    expect(sink.stop()).toBe(30);
    await sink.accept(row(31));
    await sink.finish();
    expect(batches).toEqual([]);
  });

  it('a failed read is the sink’s failure, and it plans nothing after it', async () => {
    const error = new Error('connection refused');
    const { planner: p } = planner(error);
    const outcomes: RowOutcome[] = [];
    const sink = new DryRunSink(p, (o) => outcomes.push(o));
    await sink.accept(row(1));
    await sink.finish();
    expect(sink.failure).toEqual({ error });
    expect(outcomes).toEqual([]);
  });

  it('needs rows planned with their input kept', async () => {
    const { planner: p } = planner();
    const sink = new DryRunSink(p, () => {});
    await sink.accept(row(1, false));
    await sink.finish();
    expect((sink.failure!.error as Error).message).toBe(
      'The dry run needs rows planned with their input kept',
    );
  });
});
