// The mock's state in Maps: each agent's contacts and attribute definitions, indexed for the
// contract's write rules (`rules.ts`: upsert by external_id, unique emails, merging, the quota)
// and for paging. Nothing outlives the process; `sqlite-store.ts` is the one that keeps state.
import type { AttributeDefinition, Contact, ContactValidators, ListQuery } from '../api/index.js';
import { createContactValidators } from '../api/index.js';
import { badRequest, conflict, notFound } from './errors.js';
import {
  ATTRIBUTE_EXISTS,
  ATTRIBUTE_NOT_FOUND,
  CONTACT_NOT_FOUND,
  type ContactFields,
  type ContactLookup,
  checkBatch,
  emailKey,
  mergeFields,
  newDefinition,
  parseOrThrow,
  planPatch,
  planUpsert,
  sameEmailKey,
  sameFields,
  stampContact,
  updatedDefinition,
} from './rules.js';
import {
  ChangeListeners,
  type ContactPage,
  contactId,
  type MockStore,
  type MockStoreOptions,
  parseSnapshot,
  type StoreSnapshot,
  seqAfter,
  toSnapshot,
  type UpsertResult,
} from './store.js';

interface AgentState {
  /** By service id; a Map keeps insertion order, and `set` on an existing key keeps its place. */
  contacts: Map<string, Contact>;
  /** The current record by external_id (replaced with it on every write). */
  byExternalId: Map<string, Contact>;
  byEmail: Map<string, string>;
  attributes: Map<string, AttributeDefinition>;
  /** Ids in creation order for paging; dropped on delete, rebuilt on demand. */
  order: string[] | null;
  /**
   * Pages served since the last change of a contact, by `page/per_page`. Frozen, so the JSON
   * serialiser caches their text too: a repeated list GET costs a lookup.
   */
  pages: Map<string, ContactPage>;
  validators: ContactValidators | null;
  /** Names of the agent's attributes, archived ones too; null until asked after a change. */
  attributeNames: ReadonlySet<string> | null;
  /** The rules' view of its indexes, made once. */
  lookup: ContactLookup | null;
}

const EMPTY_NAMES: ReadonlySet<string> = new Set();

const newAgent = (): AgentState => ({
  contacts: new Map(),
  byExternalId: new Map(),
  byEmail: new Map(),
  attributes: new Map(),
  order: null,
  pages: new Map(),
  validators: null,
  attributeNames: null,
  lookup: null,
});

/** Distinct pages kept per agent; past it the cache starts over. */
const PAGE_CACHE_LIMIT = 64;

/** The rules' view of one agent's indexes. */
function lookupOf(agent: AgentState): ContactLookup {
  agent.lookup ??= {
    count: () => agent.contacts.size,
    byExternalId: (externalId) => agent.byExternalId.get(externalId),
    emailOwner: (email) => {
      const id = agent.byEmail.get(email);
      return id === undefined ? undefined : agent.contacts.get(id)?.external_id;
    },
  };
  return agent.lookup;
}

class MemoryStore implements MockStore {
  private agents = new Map<string, AgentState>();
  private seq = 0;
  private listeners = new ChangeListeners();
  readonly location = 'memory';
  private readonly now: () => number;
  private readonly maxContacts: number;

  constructor(options: MockStoreOptions) {
    this.now = options.now ?? Date.now;
    this.maxContacts = options.maxContacts ?? Number.POSITIVE_INFINITY;
    if (options.snapshot !== undefined) this.restore(options.snapshot);
  }

  upsertContact(agentId: string, body: unknown): UpsertResult {
    // Nothing is kept for an agent until a write to it succeeds: a refused request allocates nothing.
    const agent = this.agents.get(agentId) ?? newAgent();
    const input = parseOrThrow(this.validatorsOf(agent).input, body);
    const { prev, fields } = planUpsert(lookupOf(agent), input, this.maxContacts);
    const contact = this.write(agent, prev, fields);
    this.keep(agentId, agent);
    if (contact !== prev) this.changed();
    return { contact, created: prev === undefined };
  }

  batchUpsert(agentId: string, body: unknown): Contact[] {
    const agent = this.agents.get(agentId) ?? newAgent();
    const { users } = parseOrThrow(this.validatorsOf(agent).batch, body);
    // Nothing is written unless every item can be.
    checkBatch(lookupOf(agent), users, this.maxContacts);
    this.keep(agentId, agent);

    let changed = false;
    const out = users.map((item) => {
      const prev = agent.byExternalId.get(item.external_id);
      const contact = this.write(agent, prev, mergeFields(prev, item, item.external_id));
      changed ||= contact !== prev;
      return contact;
    });
    if (changed) this.changed();
    return out;
  }

  findContact(agentId: string, key: string): Contact | undefined {
    const agent = this.agents.get(agentId);
    if (!agent) return undefined;
    return agent.byExternalId.get(key) ?? agent.contacts.get(key);
  }

  getContact(agentId: string, key: string): Contact {
    const contact = this.findContact(agentId, key);
    if (!contact) throw notFound(CONTACT_NOT_FOUND);
    return contact;
  }

  patchContact(agentId: string, key: string, body: unknown): Contact {
    const prev = this.getContact(agentId, key);
    const agent = this.agent(agentId);
    const patch = parseOrThrow(this.validatorsOf(agent).patch, body);
    const contact = this.write(agent, prev, planPatch(lookupOf(agent), prev, patch));
    if (contact !== prev) this.changed();
    return contact;
  }

  deleteContact(agentId: string, key: string): Contact {
    const contact = this.getContact(agentId, key);
    const agent = this.agent(agentId);
    agent.contacts.delete(contact.id);
    agent.byExternalId.delete(contact.external_id);
    const email = emailKey(contact.email);
    if (email !== undefined) agent.byEmail.delete(email);
    agent.order = null;
    agent.pages.clear();
    this.changed();
    return contact;
  }

  listContacts(agentId: string, { page, per_page }: ListQuery): ContactPage {
    const agent = this.agents.get(agentId);
    const total = agent?.contacts.size ?? 0;
    const totalPages = Math.ceil(total / per_page);
    if (!agent || total === 0) return { data: [], total: 0, pages: { page, per_page, total_pages: 0 } };
    if (page > totalPages) throw badRequest('Page number out of range');
    const key = `${page}/${per_page}`;
    let cached = agent.pages.get(key);
    if (!cached) {
      agent.order ??= [...agent.contacts.keys()];
      const start = (page - 1) * per_page;
      const order = agent.order;
      cached = Object.freeze({
        data: Object.freeze(order.slice(start, start + per_page).map((id) => agent.contacts.get(id)!)),
        total,
        pages: Object.freeze({ page, per_page, total_pages: totalPages }),
      });
      if (agent.pages.size >= PAGE_CACHE_LIMIT) agent.pages.clear();
      agent.pages.set(key, cached);
    }
    return cached;
  }

  count(agentId: string): number {
    return this.agents.get(agentId)?.contacts.size ?? 0;
  }

  contacts(agentId: string): Contact[] {
    return [...(this.agents.get(agentId)?.contacts.values() ?? [])];
  }

  listAttributes(agentId: string): AttributeDefinition[] {
    return [...(this.agents.get(agentId)?.attributes.values() ?? [])];
  }

  defineAttribute(agentId: string, body: unknown): AttributeDefinition {
    const definition = newDefinition(body);
    const agent = this.agents.get(agentId) ?? newAgent();
    if (agent.attributes.has(definition.name)) throw conflict(ATTRIBUTE_EXISTS);
    this.keep(agentId, agent);
    agent.attributes.set(definition.name, definition);
    agent.validators = null;
    agent.attributeNames = null;
    this.changed();
    return definition;
  }

  updateAttribute(agentId: string, name: string, body: unknown): AttributeDefinition {
    const agent = this.agents.get(agentId);
    const prev = agent?.attributes.get(name);
    if (!agent || !prev) throw notFound(ATTRIBUTE_NOT_FOUND);
    const definition = updatedDefinition(prev, body);
    agent.attributes.set(name, definition);
    agent.validators = null;
    this.changed();
    return definition;
  }

  attributeNames(agentId: string): ReadonlySet<string> {
    const agent = this.agents.get(agentId);
    if (!agent) return EMPTY_NAMES;
    agent.attributeNames ??= new Set(agent.attributes.keys());
    return agent.attributeNames;
  }

  validators(agentId: string): ContactValidators {
    return this.validatorsOf(this.agents.get(agentId) ?? newAgent());
  }

  agentIds(): string[] {
    return [...this.agents.keys()];
  }

  snapshot(): StoreSnapshot {
    const agents = [...this.agents].map(
      ([agentId, agent]): [string, { contacts: Contact[]; attributes: AttributeDefinition[] }] => [
        agentId,
        { contacts: [...agent.contacts.values()], attributes: [...agent.attributes.values()] },
      ],
    );
    return toSnapshot(this.seq, agents);
  }

  restore(snapshot: unknown): void {
    const { seq, agents: records } = parseSnapshot(snapshot);
    const agents = new Map<string, AgentState>();
    for (const [agentId, saved] of records) {
      const agent = newAgent();
      for (const d of saved.attributes) agent.attributes.set(d.name, d);
      for (const c of saved.contacts) {
        agent.contacts.set(c.id, c);
        agent.byExternalId.set(c.external_id, c);
        const email = emailKey(c.email);
        if (email !== undefined) agent.byEmail.set(email, c.id);
      }
      agents.set(agentId, agent);
    }
    this.agents = agents;
    this.seq = seqAfter(seq, records.values());
  }

  reset(): void {
    this.agents = new Map();
    this.seq = 0;
    this.changed();
  }

  onChange(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  atomically<T>(fn: () => T): T {
    // One process, synchronous operations: nothing can fall in between. A seed or a snapshot is
    // checked whole before it is applied, so `fn` does not fail half-way.
    return fn();
  }

  pending(): undefined {
    return undefined;
  }

  close(): void {}

  /** Keeps an agent met for the first time, once a write to it has passed every check. */
  private keep(agentId: string, agent: AgentState): void {
    if (!this.agents.has(agentId)) this.agents.set(agentId, agent);
  }

  private agent(agentId: string): AgentState {
    let agent = this.agents.get(agentId);
    if (!agent) {
      agent = newAgent();
      this.agents.set(agentId, agent);
    }
    return agent;
  }

  private validatorsOf(agent: AgentState): ContactValidators {
    agent.validators ??= createContactValidators(agent.attributes.values());
    return agent.validators;
  }

  /** Commits a checked write and keeps the indexes in step; an unchanged contact stays as it was. */
  private write(agent: AgentState, prev: Contact | undefined, fields: ContactFields): Contact {
    if (prev && sameFields(prev, fields)) return prev;
    const contact = stampContact(prev, fields, prev ? prev.id : this.nextId(), this.now());
    if (prev && prev.external_id !== contact.external_id) agent.byExternalId.delete(prev.external_id);
    agent.byExternalId.set(contact.external_id, contact);
    if (!sameEmailKey(prev?.email ?? null, contact.email)) {
      const before = emailKey(prev?.email ?? null);
      const after = emailKey(contact.email);
      if (before !== undefined) agent.byEmail.delete(before);
      if (after !== undefined) agent.byEmail.set(after, contact.id);
    }
    if (!prev) agent.order?.push(contact.id);
    agent.contacts.set(contact.id, contact);
    if (agent.pages.size > 0) agent.pages.clear();
    return contact;
  }

  private nextId(): string {
    this.seq += 1;
    return contactId(this.seq);
  }

  private changed(): void {
    this.listeners.notify();
  }
}

/** A store in memory. */
export function createMockStore(options: MockStoreOptions = {}): MockStore {
  return new MemoryStore(options);
}
