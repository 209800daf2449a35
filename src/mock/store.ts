// What the mock's store promises (`MockStore`, kept in SQLite by `sqlite-store.ts`), and the
// snapshot format: a seed file's exact form, and what `snapshot()` gives a test.
import * as z from 'zod';
import {
  type AttributeDefinition,
  AttributeDefinitionSchema,
  type Contact,
  ContactSchema,
  type ContactValidators,
  type ListQuery,
  type Pagination,
  toIssues,
} from '../api/index.js';
import { emailKey, freezeAccounts } from './rules.js';

const SNAPSHOT_VERSION = 1;

const AgentSnapshotSchema = z.object({
  contacts: z.array(ContactSchema),
  attributes: z.array(AttributeDefinitionSchema),
});

/**
 * What `snapshot()` returns and `restore()` accepts: plain JSON (a seed file's exact form, ids
 * and timestamps included). Agent ids come from outside (any id a
 * request names, `__proto__` too), so `agents` is read entry by entry, never through a record
 * schema that would assign `obj[id]`.
 */
export const StoreSnapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  seq: z.number().int().nonnegative(),
  agents: z.custom<Record<string, z.infer<typeof AgentSnapshotSchema>>>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    'Expected an object of agents',
  ),
});
export type StoreSnapshot = z.infer<typeof StoreSnapshotSchema>;

/** One agent's records, checked and frozen, in creation order. */
export interface AgentRecords {
  contacts: Contact[];
  attributes: AttributeDefinition[];
}

/** A page of the list, with the total it was cut from. */
export interface ContactPage {
  readonly data: readonly Contact[];
  readonly total: number;
  readonly pages: Pagination;
}

/** A page of the list with its contacts as JSON text: `data` is the page's array, as answered. */
export interface ContactPageJson {
  readonly data: string;
  readonly total: number;
  readonly pages: Pagination;
}

export interface UpsertResult {
  contact: Contact;
  created: boolean;
  /** The contact's JSON as stored, and as answered. */
  json: string;
}

/** What a reset removed: one agent's records, or every agent's (`agent` null). */
export interface ResetResult {
  agent: string | null;
  contacts: number;
  attributes: number;
}

/**
 * The mock's state and every contract rule that touches it. Bodies come in unvalidated
 * (`unknown`) and are checked here, so the store is safe to drive directly (seeding, tests);
 * contract errors are thrown as `MockHttpError` (a database that is full or damaged as its 5xx),
 * anything else as itself, which the handler answers with a 500. Every operation is
 * synchronous and every write is its own transaction, committed before the call returns: a
 * request is read, checked and written with no await in between, so concurrent upserts of one
 * external_id make one contact, and an answer is only ever about a committed write.
 */
export interface MockStore {
  /** The SQLite database's path, or `:memory:` when nothing is kept. */
  readonly location: string;
  upsertContact(agentId: string, body: unknown): UpsertResult;
  /** All or nothing: every item is validated and checked for conflicts before any is written. */
  batchUpsert(agentId: string, body: unknown): Contact[];
  /** By external_id first, then by the service id; undefined when neither matches. */
  findContact(agentId: string, key: string): Contact | undefined;
  getContact(agentId: string, key: string): Contact;
  /** `getContact`'s contact as JSON text, as stored and as answered (no record is parsed). */
  contactJson(agentId: string, key: string): string;
  patchContact(agentId: string, key: string, body: unknown): Contact;
  deleteContact(agentId: string, key: string): Contact;
  listContacts(agentId: string, query: ListQuery): ContactPage;
  /** `listContacts`'s page with its contacts as JSON text, written by SQLite in one query. */
  listContactsJson(agentId: string, query: ListQuery): ContactPageJson;
  /** Every contact of the agent in creation order. */
  contacts(agentId: string): Contact[];
  /** How many contacts the agent holds. */
  count(agentId: string): number;
  listAttributes(agentId: string): AttributeDefinition[];
  defineAttribute(agentId: string, body: unknown): AttributeDefinition;
  updateAttribute(agentId: string, name: string, body: unknown): AttributeDefinition;
  /** Names of the agent's attribute definitions (archived ones too), for dropping unknown keys. */
  attributeNames(agentId: string): ReadonlySet<string>;
  /** The agent's contact validators for its current definitions. */
  validators(agentId: string): ContactValidators;
  agentIds(): string[];
  snapshot(): StoreSnapshot;
  /**
   * Replaces the whole state at once (with `agent`, that agent's records only, from the
   * snapshot's); throws (changing nothing) when the snapshot is not a valid one.
   */
  restore(snapshot: unknown, agent?: string): void;
  /** Removes every agent's records, or with `agent` that agent's only; says what it removed. */
  reset(agent?: string): ResetResult;
  /**
   * Runs `fn` as one transaction: nothing another process writes falls between its reads and
   * its writes (a reset and its seed; a conversion into an empty store), and if it throws, none
   * of its writes stay.
   */
  atomically<T>(fn: () => T): T;
  /** Called after each committed write made through this store; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Releases the database; unusable afterwards. */
  close(): void;
}

export interface MockStoreOptions {
  /** Clock in milliseconds, for tests. */
  now?: () => number;
  /**
   * Contacts an agent may hold (prod's plan quota): a write that would create one past it is
   * `400 "Maximum contacts limit reached"`, and a batch then writes nothing. Unlimited by default.
   */
  maxContacts?: number;
  /**
   * Attribute definitions an agent may hold, archived ones included (the spec sets none; every
   * `--attr` command downloads them all): past it, `400 "Maximum custom attributes limit
   * reached"`. `MAX_ATTRIBUTES` by default.
   */
  maxAttributes?: number;
  /** Initial state, as from `snapshot()`. */
  snapshot?: unknown;
  /**
   * When a database file is read page by page at open (damage named at once rather than met by
   * a request): `always` (the default), or `after-unclean-stop` for a short-lived process that
   * opens the file often, such as the embedded `--mock` of each command.
   */
  integrityCheck?: 'always' | 'after-unclean-stop';
}

const notSnapshot = (detail: string) => new Error(`Not a mock store snapshot (${detail})`);

/** A frozen copy of a contact holding only the contract's fields. */
export function freezeContact(c: Contact): Contact {
  return Object.freeze({
    id: c.id,
    external_id: c.external_id,
    name: c.name,
    email: c.email,
    phonenumber: c.phonenumber,
    custom_attributes: Object.freeze({ ...c.custom_attributes }),
    stripe_accounts: freezeAccounts(c.stripe_accounts),
    created_at: c.created_at,
    updated_at: c.updated_at,
  });
}

export function freezeDefinition(d: AttributeDefinition): AttributeDefinition {
  const { name, type, label, description, archived } = d;
  return Object.freeze({ name, type, label, description, archived });
}

/**
 * A snapshot checked whole (shape, then each agent, then the uniqueness of ids, external_ids and
 * emails per agent): the agents' records frozen, or an error naming what is wrong.
 */
export function parseSnapshot(snapshot: unknown): { seq: number; agents: Map<string, AgentRecords> } {
  const parsed = StoreSnapshotSchema.safeParse(snapshot);
  if (!parsed.success) {
    throw notSnapshot(
      toIssues(parsed.error)
        .slice(0, 3)
        .map((i) => `${i.field}: ${i.message}`)
        .join('; '),
    );
  }
  const agents = new Map<string, AgentRecords>();
  // Contact ids are the service's, unique across agents.
  const ids = new Set<string>();
  for (const [agentId, raw] of Object.entries(parsed.data.agents)) {
    const checked = AgentSnapshotSchema.safeParse(raw);
    if (!checked.success) {
      throw notSnapshot(
        toIssues(checked.error)
          .slice(0, 3)
          .map((i) => `agents.${agentId}.${i.field}: ${i.message}`)
          .join('; '),
      );
    }
    const externalIds = new Set<string>();
    const emails = new Set<string>();
    for (const c of checked.data.contacts) {
      if (ids.has(c.id) || externalIds.has(c.external_id)) {
        throw notSnapshot(`agent ${agentId}: contact ${c.id} appears twice`);
      }
      const email = emailKey(c.email);
      if (email !== undefined && emails.has(email)) {
        throw notSnapshot(`agent ${agentId}: email of ${c.id} is not unique`);
      }
      ids.add(c.id);
      externalIds.add(c.external_id);
      if (email !== undefined) emails.add(email);
    }
    agents.set(agentId, {
      contacts: checked.data.contacts.map(freezeContact),
      attributes: checked.data.attributes.map(freezeDefinition),
    });
  }
  return { seq: parsed.data.seq, agents };
}

/** A snapshot of the given agents' records (agents with none are left out). */
export function toSnapshot(seq: number, agents: Iterable<[string, AgentRecords]>): StoreSnapshot {
  // No prototype: an agent called `__proto__` is an entry like any other.
  const out: StoreSnapshot['agents'] = Object.create(null);
  for (const [agentId, records] of agents) {
    if (records.contacts.length === 0 && records.attributes.length === 0) continue;
    out[agentId] = { contacts: records.contacts, attributes: records.attributes };
  }
  return { version: SNAPSHOT_VERSION, seq, agents: out };
}

/** `ct_` + a fixed-width base-36 sequence number (so ids sort in creation order) + a random tail. */
export function contactId(seq: number): string {
  const tail = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `ct_${seq.toString(36).padStart(10, '0')}${tail}`;
}

/**
 * The sequence to go on from after a restore: past the snapshot's own and past every id it
 * holds (a hand-written snapshot may say less), so a new id never repeats an old one's prefix.
 */
export function seqAfter(seq: number, agents: Iterable<AgentRecords>): number {
  let high = seq;
  for (const { contacts } of agents) {
    high = Math.max(high, contacts.length);
    for (const c of contacts) {
      const n = /^ct_([0-9a-z]{10})/.exec(c.id);
      if (n) high = Math.max(high, Number.parseInt(n[1]!, 36));
    }
  }
  return high;
}
