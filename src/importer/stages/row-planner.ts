// The plan stage: each valid row, in file order, gets its lanes (rows sharing an external_id, or
// an email one gives up and another takes, must land in file order) and its request body; a row
// that would take an email another external_id of the file holds at that point is rejected here,
// naming the line that holds it, before it can make the service refuse a whole batch.
// (The dry run's per-contact diff against the directory is `../dry-run-plan.ts`, a sink's business.)
import type { ContactInputParsed } from '../../api/contact.js';
import type { SourceRecord } from '../sources/types.js';
import { EmailLedger } from './email-ledger.js';

const NO_FIELDS: Record<string, unknown> = Object.freeze(Object.create(null));

/** A row ready for a sink: checked, ordered, and (for the sender) serialised once. */
export interface PlannedRow {
  /** The record as read; a CSV row keeps only its cells (all a rejects file needs of it). */
  source: SourceRecord;
  /**
   * The contact as checked, kept only when not serialised (the dry run compares it): a sender
   * holds thousands of rows in flight and needs their JSON alone.
   */
  input: ContactInputParsed | undefined;
  /** The external_id. */
  key: string;
  lanes: string[];
  /** The contact as JSON, as it goes into a request body ('' when not serialised). */
  json: string;
  /** UTF-8 bytes of `json`, or an estimate when it was not serialised. */
  bytes: number;
}

export type PlanResult = { ok: true; row: PlannedRow } | { ok: false; reason: string };

export interface RowPlannerOptions {
  /** Serialise each row's body (the sender needs it; the dry run does not). Default true. */
  serialize?: boolean;
  ledger?: EmailLedger;
}

export class RowPlanner {
  readonly #serialize: boolean;
  readonly #ledger: EmailLedger;

  constructor(options: RowPlannerOptions = {}) {
    this.#serialize = options.serialize ?? true;
    this.#ledger = options.ledger ?? new EmailLedger();
  }

  /** In-file conflicts given up on for room (see EmailLedger). */
  get forgotten(): number {
    return this.#ledger.forgotten;
  }

  plan(source: SourceRecord, input: ContactInputParsed): PlanResult {
    const key = input.external_id;
    const claim = this.#ledger.claim(key, input.email, source.line, source.title);
    if (!claim.ok) {
      return {
        ok: false,
        reason:
          claim.heldByTitle === undefined
            ? `email: ${input.email} is already the email of line ${claim.heldByLine} ` +
              '(another external_id; the service refuses two contacts with one email)'
            : `email: ${input.email} is already the email of ${claim.heldByTitle} (line ${claim.heldByLine}; ` +
              'another external_id: the service refuses two contacts with one email)',
      };
    }
    const lanes = [`key:${key}`];
    for (const lane of claim.emailLanes) if (!lanes.includes(lane)) lanes.push(lane);
    if (!this.#serialize) return { ok: true, row: { source, input, key, lanes, json: '', bytes: 0 } };
    const json = JSON.stringify(input);
    const kept: SourceRecord =
      source.raw === undefined
        ? source
        : { row: source.row, line: source.line, record: NO_FIELDS, raw: source.raw };
    return {
      ok: true,
      row: { source: kept, input: undefined, key, lanes, json, bytes: Buffer.byteLength(json) },
    };
  }

  /** A row that landed in an earlier run: its email is held, whatever the file said before it. */
  landedBefore(source: SourceRecord, input: ContactInputParsed): void {
    this.#ledger.hold(input.external_id, input.email, source.line, source.title);
  }
}
