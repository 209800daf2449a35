// The dry run's plan: for each valid row, what importing it would do to the directory (create,
// update or leave unchanged) and which fields would change, from the contacts as they are now.
// Reads are batched (../bulk/directory.ts): a directory no larger than the file is listed, a
// larger one is asked only for the external_ids the file names. Rows sharing an external_id are
// planned in file order over what the earlier ones would have made. A row that would give its
// contact an email another contact of the directory holds is refused, as the service would refuse
// it (409 `Email already exists`), where the plan knows that contact: a directory read whole, or
// the contacts the file names.
import type { ContactInputParsed } from '../api/contact.js';
import { EMAIL_EXISTS } from '../api/messages.js';
import { DirectoryReader } from '../bulk/directory.js';
import type { ContactsClient } from '../client/client.js';
import { walkUntilConsistent } from '../client/walk.js';
import { applyInput, type ContactState, type FieldChanges, fieldChanges, stateOf } from '../undo/state.js';

export type { FieldChanges } from '../undo/state.js';

export type PlanAction = 'create' | 'update' | 'unchanged';

export interface RowPlan {
  line: number;
  external_id: string;
  action: PlanAction;
  changes: FieldChanges;
}

/** A row the service would refuse: `reason` as the real run's rejects file would give it. */
export interface RowRefusal {
  line: number;
  external_id: string;
  refused: string;
}

export class DryRunPlanner {
  readonly #client: ContactsClient;
  readonly #agentId: string;
  readonly #maxRetries: number;
  #reader: DirectoryReader | undefined;
  /** What each external_id holds now (null: no such contact), as the plan goes. */
  #held = new Map<string, ContactState | null>();
  #listedWhole = false;
  /** Lower-cased email -> the external_id holding it, of the contacts known (`#held`), as the plan goes. */
  #emails = new Map<string, string>();

  constructor(client: ContactsClient, agentId: string, maxRetries: number) {
    this.#client = client;
    this.#agentId = agentId;
    this.#maxRetries = maxRetries;
  }

  /**
   * Reads the directory whole when that is cheaper than asking for the file's ids: when its first
   * page holds all of it, or when it takes no more pages than the file has rows (`rows`, when
   * known). A small file against a large directory asks only for its own ids.
   */
  async start(rows?: number): Promise<void> {
    const reader = await DirectoryReader.open({
      client: this.#client,
      agentId: this.#agentId,
      maxRetries: this.#maxRetries,
    });
    this.#reader = reader;
    if (!reader.listingIsCheaper(rows)) return;
    // Read again from the start when the directory changes under the listing.
    await walkUntilConsistent(() => {
      this.#held.clear();
      this.#emails.clear();
      return reader.list((page) => {
        for (const c of page) this.#know(c.external_id, stateOf(c));
      });
    });
    this.#listedWhole = true;
  }

  /** Plans a batch of rows in order, fetching the contacts they name that are not known yet. */
  async plan(
    rows: readonly { line: number; input: ContactInputParsed }[],
  ): Promise<(RowPlan | RowRefusal)[]> {
    if (!this.#listedWhole && this.#reader) {
      const missing = [...new Set(rows.map((r) => r.input.external_id))].filter((id) => !this.#held.has(id));
      for (const [id, c] of await this.#reader.fetch(missing)) this.#know(id, c && stateOf(c));
    }
    return rows.map((row) => this.#planOne(row.line, row.input));
  }

  /** A contact as read from the directory, before any row of the file. */
  #know(externalId: string, state: ContactState | null): void {
    this.#held.set(externalId, state);
    const email = state?.email;
    // A contact already known keeps its email: the plan's rows may have moved it since.
    if (email && !this.#emails.has(email.toLowerCase())) this.#emails.set(email.toLowerCase(), externalId);
  }

  #planOne(line: number, input: ContactInputParsed): RowPlan | RowRefusal {
    const before = this.#held.get(input.external_id) ?? null;
    const email = input.email?.toLowerCase();
    const holder = email === undefined ? undefined : this.#emails.get(email);
    if (holder !== undefined && holder !== input.external_id) {
      return {
        line,
        external_id: input.external_id,
        refused: `email: ${EMAIL_EXISTS} (held by the contact with external_id ${holder})`,
      };
    }
    const after = applyInput(before, input);
    if (input.email !== undefined) {
      const was = before?.email?.toLowerCase();
      if (was && this.#emails.get(was) === input.external_id) this.#emails.delete(was);
      if (email) this.#emails.set(email, input.external_id);
    }
    // Only the fields the row gives: a new contact's other fields are not changes it makes.
    const changes: FieldChanges = {};
    for (const [field, change] of Object.entries(fieldChanges(before, after))) changes[field] = change;
    this.#held.set(input.external_id, after);
    const action: PlanAction =
      before === null ? 'create' : Object.keys(changes).length > 0 ? 'update' : 'unchanged';
    return { line, external_id: input.external_id, action, changes };
  }
}
