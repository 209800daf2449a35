// The dry-run sink: instead of sending rows, says what each would do to the directory (create,
// update, or nothing), in file order, a batch of rows at a time with one round of reads; a row the
// service would refuse (an email another contact holds) is rejected as the real run would be.
import type { DryRunPlanner } from '../dry-run-plan.js';
import type { PlannedRow } from './row-planner.js';
import type { ImportSink, LinkState, RowOutcome } from './sink.js';

/** Rows planned together, with one round of reads for the contacts they name. */
const PLAN_BATCH = 200;

export class DryRunSink implements ImportSink {
  readonly #planner: DryRunPlanner;
  readonly #onOutcome: (outcome: RowOutcome) => void;
  #rows: PlannedRow[] = [];
  #stopped = false;
  #failure: { error: unknown } | undefined;

  constructor(planner: DryRunPlanner, onOutcome: (outcome: RowOutcome) => void) {
    this.#planner = planner;
    this.#onOutcome = onOutcome;
  }

  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  get link(): LinkState {
    return { inFlight: 0, limit: 0, requests: 0, throttled: 0 };
  }

  async accept(row: PlannedRow): Promise<void> {
    if (this.#stopped || this.#failure) return;
    this.#rows.push(row);
    if (this.#rows.length >= PLAN_BATCH) await this.#flush();
  }

  async finish(): Promise<void> {
    if (!this.#stopped && !this.#failure) await this.#flush();
  }

  stop(): number {
    this.#stopped = true;
    const dropped = this.#rows.length;
    this.#rows = [];
    return dropped;
  }

  async #flush(): Promise<void> {
    const rows = this.#rows;
    this.#rows = [];
    if (rows.length === 0) return;
    try {
      const plans = await this.#planner.plan(
        rows.map((r) => {
          if (!r.input) throw new Error('The dry run needs rows planned with their input kept');
          return { line: r.source.line, input: r.input };
        }),
      );
      plans.forEach((plan, i) => {
        const row = rows[i]!;
        if ('refused' in plan) this.#onOutcome({ type: 'rejected', row, reason: plan.refused });
        else this.#onOutcome({ type: 'planned', row, plan });
      });
    } catch (error) {
      this.#failure ??= { error };
    }
  }
}
