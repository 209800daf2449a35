// The dry run's plan: for each valid row, what importing it would do to the directory (create,
// update or leave unchanged) and which fields would change, from the contacts as they are now.
// Reads are batched: a directory no larger than the file is listed (a page per thousand), a
// larger one is asked only for the external_ids the file names, several at a time. Rows sharing an external_id are planned in
// file order over what the earlier ones would have made.
import type { AttributeValue } from '../api/attribute.js';
import type { Contact, ContactInputParsed } from '../api/contact.js';
import type { ContactsClient } from '../client/client.js';
import { AgentNotFoundError, NotFoundError } from '../client/errors.js';

export type PlanAction = 'create' | 'update' | 'unchanged';

/** `field` is name, email, phonenumber, stripe_accounts or custom_attributes.<name>. */
export type FieldChanges = Record<string, [unknown, unknown]>;

export interface RowPlan {
  line: number;
  external_id: string;
  action: PlanAction;
  changes: FieldChanges;
}

/** The fields the plan compares: a contact as the service would hold it. */
interface Held {
  name: string | null;
  email: string | null;
  phonenumber: string | null;
  stripe_accounts: unknown[];
  custom_attributes: Record<string, AttributeValue>;
}

const READS_IN_FLIGHT = 8;
const PER_PAGE = 1000;

export class DryRunPlanner {
  readonly #client: ContactsClient;
  readonly #agentId: string;
  readonly #maxRetries: number;
  /** What each external_id holds now (null: no such contact), as the plan goes. */
  #held = new Map<string, Held | null>();
  #listedWhole = false;

  constructor(client: ContactsClient, agentId: string, maxRetries: number) {
    this.#client = client;
    this.#agentId = agentId;
    this.#maxRetries = maxRetries;
  }

  /**
   * Reads the directory whole when that is cheaper than asking for the file's ids: when its first
   * page holds all of it, or when it holds no more contacts than the file has rows (`rows`, when
   * known). A small file against a large directory asks only for its own ids.
   */
  async start(rows?: number): Promise<void> {
    const first = await this.#client.contacts.list({
      agentId: this.#agentId,
      perPage: PER_PAGE,
      maxRetries: this.#maxRetries,
    });
    const whole = first.totalPages <= 1 || (rows !== undefined && first.total <= rows);
    if (!whole) return;
    for await (const page of first.pages()) for (const c of page.data) this.#held.set(c.external_id, held(c));
    this.#listedWhole = true;
  }

  /** Plans a batch of rows in order, fetching the contacts they name that are not known yet. */
  async plan(rows: readonly { line: number; input: ContactInputParsed }[]): Promise<RowPlan[]> {
    if (!this.#listedWhole) await this.#fetch([...new Set(rows.map((r) => r.input.external_id))]);
    return rows.map((row) => this.#planOne(row.line, row.input));
  }

  async #fetch(ids: string[]): Promise<void> {
    const missing = ids.filter((id) => !this.#held.has(id));
    for (let i = 0; i < missing.length; i += READS_IN_FLIGHT) {
      await Promise.all(
        missing.slice(i, i + READS_IN_FLIGHT).map(async (id) => {
          try {
            const c = await this.#client.contacts.get(id, {
              agentId: this.#agentId,
              maxRetries: this.#maxRetries,
            });
            // The service resolves :id as an external_id first, then as its own id.
            this.#held.set(id, c.external_id === id ? held(c) : null);
          } catch (error) {
            if (error instanceof NotFoundError && !(error instanceof AgentNotFoundError))
              this.#held.set(id, null);
            else throw error;
          }
        }),
      );
    }
  }

  #planOne(line: number, input: ContactInputParsed): RowPlan {
    const before = this.#held.get(input.external_id) ?? null;
    const after: Held = before
      ? { ...before, custom_attributes: { ...before.custom_attributes } }
      : { name: null, email: null, phonenumber: null, stripe_accounts: [], custom_attributes: {} };
    const changes: FieldChanges = {};
    const change = (field: string, old: unknown, next: unknown) => {
      if (JSON.stringify(old) !== JSON.stringify(next)) changes[field] = [old, next];
    };
    for (const field of ['name', 'email', 'phonenumber'] as const) {
      const next = input[field];
      if (next === undefined) continue;
      change(field, after[field], next);
      after[field] = next;
    }
    if (input.stripe_accounts !== undefined) {
      const next = input.stripe_accounts ?? [];
      change('stripe_accounts', after.stripe_accounts, next);
      after.stripe_accounts = next;
    }
    for (const [name, value] of Object.entries(input.custom_attributes ?? {})) {
      // Own values only: `constructor` is an attribute name like any other.
      const old = Object.hasOwn(after.custom_attributes, name) ? after.custom_attributes[name] : null;
      change(`custom_attributes.${name}`, old, value);
      if (value === null) delete after.custom_attributes[name];
      else after.custom_attributes[name] = value;
    }
    this.#held.set(input.external_id, after);
    const action: PlanAction =
      before === null ? 'create' : Object.keys(changes).length > 0 ? 'update' : 'unchanged';
    return { line, external_id: input.external_id, action, changes };
  }
}

function held(c: Contact): Held {
  return {
    name: c.name,
    email: c.email,
    phonenumber: c.phonenumber,
    stripe_accounts: c.stripe_accounts ?? [],
    custom_attributes: { ...c.custom_attributes },
  };
}
