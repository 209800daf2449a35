// What the plan stage hands its rows to: a sink that sends them (the batch or single-row sender)
// or only reads the directory to say what they would do (the dry run), and tells, row by row,
// how each ended. A results file, a teardown or another sink stand on these outcomes.
import type { Contact } from '../../api/contact.js';
import type { RowPlan } from '../dry-run-plan.js';
import type { PlannedRow } from './row-planner.js';

export type RowOutcome =
  /** The service holds the row now. */
  | { type: 'landed'; row: PlannedRow; action: 'created' | 'updated'; contact: Contact }
  /** The service refused the row (400, 409, 413), with its reason. */
  | { type: 'rejected'; row: PlannedRow; reason: string }
  /** Dry run: what the row would do to the directory. */
  | { type: 'planned'; row: PlannedRow; plan: RowPlan };

/** How the link stands, for progress. */
export interface LinkState {
  /** Requests in flight now. */
  inFlight: number;
  /** Requests allowed in flight now. */
  limit: number;
  /** Attempts sent so far, retries included. */
  requests: number;
  /** Answers that were 429. */
  throttled: number;
}

export interface ImportSink {
  /** Takes a row in file order; resolves when the sink can take another (its memory is bounded). */
  accept(row: PlannedRow): Promise<void>;
  /** No more rows: resolves when every row taken has its outcome, or the sink stopped or failed. */
  finish(): Promise<void>;
  /**
   * Ctrl-C: no new requests; those in flight finish; rows not sent get no outcome (a resume sends
   * them). Returns how many rows were left unsent.
   */
  stop(): number;
  /** An error that is not about a row (the key, the service, the network): the import stops. */
  readonly failure: { error: unknown } | undefined;
  readonly link: LinkState;
}
