// The mock's state in SQLite (through libsql, better-sqlite3's API with its binary shipped in
// registry packages): a file for `serve --mock --data FILE` and the embedded `--mock` mode,
// `:memory:` where nothing is kept. Every write is one transaction, committed before the call
// returns; the contract's rules come from `rules.ts`, and uniqueness of external_id and email
// per agent is also the schema's. WAL mode lets several processes share one file through
// SQLite's own locking.
import type Database from 'libsql';
import type { AttributeDefinition, Contact, ContactValidators, ListQuery } from '../api/index.js';
import {
  ATTRIBUTE_EXISTS,
  ATTRIBUTE_NOT_FOUND,
  CONTACT_NOT_FOUND,
  createContactValidators,
  EMAIL_EXISTS,
  EXTERNAL_ID_EXISTS,
  MAX_ATTRIBUTES_REACHED,
  PAGE_OUT_OF_RANGE,
} from '../api/index.js';
import { isCorruption, openDatabase, recoverHint, sqliteCode } from './database-file.js';
import { badRequest, conflict, MockHttpError, notFound } from './errors.js';
import {
  type ContactFields,
  type ContactLookup,
  checkBatch,
  emailKey,
  MAX_ATTRIBUTES,
  mergeFields,
  newDefinition,
  parseOrThrow,
  planPatch,
  planUpsert,
  sameFields,
  stampContact,
  updatedDefinition,
} from './rules.js';
import {
  type ContactPage,
  type ContactPageJson,
  contactId,
  freezeContact,
  freezeDefinition,
  type MockStore,
  type MockStoreOptions,
  parseSnapshot,
  type ResetResult,
  type StoreSnapshot,
  seqAfter,
  toSnapshot,
  type UpsertResult,
} from './store.js';

/** Agents whose parsed definitions (and validators built from them) are kept; past it, started over. */
const DEFINITION_CACHE_AGENTS = 256;

/** The definitions of one agent as stored, parsed, with what is built from them. */
interface Definitions {
  /** Their stored text, joined: the same text, the same definitions. */
  text: string | null;
  list: AttributeDefinition[];
  names: ReadonlySet<string>;
  validators: ContactValidators;
}

class SqliteStore implements MockStore {
  readonly location: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #maxContacts: number;
  readonly #maxAttributes: number;
  readonly #q: ReturnType<typeof prepare>;
  /**
   * By agent, keyed by their stored text: the same text, the same definitions, so building
   * validators again is saved. Used without reading the text again only for the agents in
   * `#definitionsCurrent`.
   */
  readonly #definitions = new Map<string, Definitions>();
  /** Agents whose entry in `#definitions` is what is stored, while `#knows`. */
  readonly #definitionsCurrent = new Set<string>();
  /** The id sequence number as last committed, while `#knows`; undefined when not known. */
  #seqCommitted: number | undefined;
  /**
   * Whether what this connection learnt from its own reads and writes still holds: always for
   * an in-memory database, which no other connection can reach; for a file, inside a write
   * whose start found `PRAGMA data_version` where this connection's last left it (no other
   * connection has committed since; the write lock keeps them out until it ends).
   */
  #knows: boolean;
  /** `PRAGMA data_version` at the start of this connection's last write. */
  #dataVersion: number | undefined;
  readonly #listeners = new Set<() => void>();
  /** The last id sequence number handed out in the open write, written back at its commit. */
  #seq: number | undefined;
  /** Set once SQLite has reported the file damaged: writes are refused from then on. */
  #damaged: MockHttpError | undefined;

  constructor(file: string, options: MockStoreOptions) {
    this.location = file;
    this.#now = options.now ?? Date.now;
    this.#maxContacts = options.maxContacts ?? Number.POSITIVE_INFINITY;
    this.#maxAttributes = options.maxAttributes ?? MAX_ATTRIBUTES;
    this.#knows = file === ':memory:';
    this.#db = openDatabase(file, options.integrityCheck);
    try {
      this.#q = prepare(this.#db);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    if (options.snapshot !== undefined) this.restore(options.snapshot);
  }

  upsertContact(agentId: string, body: unknown): UpsertResult {
    return this.#write(() => {
      const input = parseOrThrow(this.#defs(agentId).validators.input, body);
      const { prev, fields } = planUpsert(this.#upsertLookup(agentId, input), input, this.#maxContacts);
      const { contact, json } = this.#put(agentId, prev, fields);
      return { contact, created: prev === undefined, json };
    });
  }

  batchUpsert(agentId: string, body: unknown): Contact[] {
    return this.#write(() => {
      const { users } = parseOrThrow(this.#defs(agentId).validators.batch, body);
      // The records as they were: an item goes over the one an earlier item of the batch wrote.
      const current = checkBatch(this.#lookup(agentId), users, this.#maxContacts);
      return users.map((item) => {
        const prev = current.get(item.external_id);
        const { contact } = this.#put(agentId, prev, mergeFields(prev, item, item.external_id));
        current.set(item.external_id, contact);
        return contact;
      });
    });
  }

  findContact(agentId: string, key: string): Contact | undefined {
    return this.#guard(() => this.#byExternalId(agentId, key) ?? decode(this.#q.byId.get(agentId, key)));
  }

  getContact(agentId: string, key: string): Contact {
    const contact = this.findContact(agentId, key);
    if (!contact) throw notFound(CONTACT_NOT_FOUND);
    return contact;
  }

  contactJson(agentId: string, key: string): string {
    const json = this.#guard(() => this.#q.record.get(agentId, key));
    if (json === undefined || json === null) throw notFound(CONTACT_NOT_FOUND);
    return json;
  }

  patchContact(agentId: string, key: string, body: unknown): Contact {
    return this.#write(() => {
      const prev = this.getContact(agentId, key);
      const patch = parseOrThrow(this.#defs(agentId).validators.patch, body);
      return this.#put(agentId, prev, planPatch(this.#lookup(agentId), prev, patch)).contact;
    });
  }

  deleteContact(agentId: string, key: string): Contact {
    return this.#write(() => {
      const contact = this.getContact(agentId, key);
      this.#q.delete.run(contact.id);
      return contact;
    });
  }

  listContacts(agentId: string, { page, per_page }: ListQuery): ContactPage {
    // The total and the page from one moment, whatever other processes commit in between.
    return this.#read(() => {
      const total = this.#count(agentId);
      const totalPages = Math.ceil(total / per_page);
      if (total === 0) return { data: [], total: 0, pages: { page, per_page, total_pages: 0 } };
      if (page > totalPages) throw badRequest(PAGE_OUT_OF_RANGE);
      const rows = this.#q.page.all(agentId, per_page, (page - 1) * per_page);
      return { data: rows.map(decodeRecord), total, pages: { page, per_page, total_pages: totalPages } };
    });
  }

  listContactsJson(agentId: string, { page, per_page }: ListQuery): ContactPageJson {
    // One statement: the total and the page's records, joined into its array by SQLite, from one moment.
    const row = this.#guard(() => this.#q.pageJson.get(agentId, per_page, (page - 1) * per_page));
    const total = row?.[0] ?? 0;
    const totalPages = Math.ceil(total / per_page);
    if (total > 0 && page > totalPages) throw badRequest(PAGE_OUT_OF_RANGE);
    return { data: `[${row?.[1] ?? ''}]`, total, pages: { page, per_page, total_pages: totalPages } };
  }

  contacts(agentId: string): Contact[] {
    return this.#guard(() => this.#q.all.all(agentId).map(decodeRecord));
  }

  count(agentId: string): number {
    return this.#guard(() => this.#count(agentId));
  }

  listAttributes(agentId: string): AttributeDefinition[] {
    return this.#guard(() => [...this.#defs(agentId).list]);
  }

  defineAttribute(agentId: string, body: unknown): AttributeDefinition {
    return this.#write(() => {
      const definition = newDefinition(body);
      const { list } = this.#defs(agentId);
      if (list.some((d) => d.name === definition.name)) throw conflict(ATTRIBUTE_EXISTS);
      if (list.length >= this.#maxAttributes) {
        throw badRequest(MAX_ATTRIBUTES_REACHED, [
          {
            field: 'name',
            message: `An agent holds at most ${this.#maxAttributes} custom attribute definitions, archived ones included`,
          },
        ]);
      }
      this.#q.defineAttribute.run(agentId, definition.name, agentId, JSON.stringify(definition));
      this.#definitionsCurrent.delete(agentId);
      return definition;
    });
  }

  updateAttribute(agentId: string, name: string, body: unknown): AttributeDefinition {
    return this.#write(() => {
      const prev = this.#defs(agentId).list.find((d) => d.name === name);
      if (!prev) throw notFound(ATTRIBUTE_NOT_FOUND);
      const definition = updatedDefinition(prev, body);
      this.#q.updateAttribute.run(JSON.stringify(definition), agentId, name);
      this.#definitionsCurrent.delete(agentId);
      return definition;
    });
  }

  attributeNames(agentId: string): ReadonlySet<string> {
    return this.#guard(() => this.#defs(agentId).names);
  }

  validators(agentId: string): ContactValidators {
    return this.#guard(() => this.#defs(agentId).validators);
  }

  agentIds(): string[] {
    return this.#guard(() => this.#q.agentIds.all());
  }

  snapshot(): StoreSnapshot {
    // One read transaction: a snapshot of one moment, even with writers in other processes.
    return this.#read(() => {
      const agents = this.agentIds().map(
        (agentId): [string, { contacts: Contact[]; attributes: AttributeDefinition[] }] => [
          agentId,
          { contacts: this.contacts(agentId), attributes: this.listAttributes(agentId) },
        ],
      );
      return toSnapshot(this.#q.seq.get() ?? 0, agents);
    });
  }

  restore(snapshot: unknown, agent?: string): void {
    const { seq, agents } = parseSnapshot(snapshot);
    this.#write(() => {
      this.reset(agent);
      for (const [agentId, records] of agents) {
        if (agent !== undefined && agentId !== agent) continue;
        for (const d of records.attributes) {
          this.#q.defineAttribute.run(agentId, d.name, agentId, JSON.stringify(d));
        }
        this.#definitionsCurrent.delete(agentId);
        for (const c of records.contacts) this.#insert(agentId, c);
      }
      // Past every id given here and every id already handed out.
      this.#seq = Math.max(this.#seq ?? this.#q.seq.get() ?? 0, seqAfter(seq, agents.values()));
    });
  }

  reset(agent?: string): ResetResult {
    return this.#write(() => {
      if (agent === undefined) {
        const contacts = this.#q.totalContacts.get() ?? 0;
        const attributes = this.#q.totalAttributes.get() ?? 0;
        this.#db.exec('DELETE FROM contacts; DELETE FROM attributes; DELETE FROM agents;');
        this.#definitionsCurrent.clear();
        this.#seq = 0;
        return { agent: null, contacts, attributes };
      }
      const contacts = this.#count(agent);
      const attributes = this.#defs(agent).list.length;
      this.#q.deleteContacts.run(agent);
      this.#q.deleteAttributes.run(agent);
      this.#definitionsCurrent.delete(agent);
      return { agent, contacts, attributes };
    });
  }

  atomically<T>(fn: () => T): T {
    return this.#write(fn);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    if (!this.#db.open) return;
    try {
      // Folds the WAL into the database and empties it: libsql 0.5's close() leaves a connection
      // that prepared statements open (libsql-js #228), so SQLite's own checkpoint at close may not run.
      if (this.location !== ':memory:') this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Another connection is reading: it or the next opener checkpoints.
    }
    this.#db.close();
  }

  /**
   * Runs `fn` as one transaction (BEGIN IMMEDIATE: the write lock is taken before anything is
   * read, so checks and writes see one state whatever other processes do) and commits it
   * before returning. Inside another write (`atomically`) it is part of that one. Anything that
   * throws rolls it back whole.
   */
  #write<T>(fn: () => T): T {
    if (this.#damaged) throw this.#damaged;
    const db = this.#db;
    if (db.inTransaction) return fn();
    const value = this.#guard(() => {
      db.exec('BEGIN IMMEDIATE');
      this.#seq = undefined;
      try {
        this.#learn();
        const result = fn();
        if (this.#seq !== undefined) this.#q.setSeq.run(this.#seq);
        db.exec('COMMIT');
        if (this.#seq !== undefined) this.#seqCommitted = this.#seq;
        return result;
      } catch (error) {
        try {
          if (db.inTransaction) db.exec('ROLLBACK');
        } catch {
          // SQLite has already rolled it back (as after an I/O error): the first error says why.
        }
        // What the write learnt may be what it rolled back.
        this.#seqCommitted = undefined;
        this.#definitionsCurrent.clear();
        throw error;
      } finally {
        if (this.location !== ':memory:') this.#knows = false;
      }
    });
    for (const listener of this.#listeners) listener();
    return value;
  }

  /** Runs `fn` in one read transaction (or the write it is part of). */
  #read<T>(fn: () => T): T {
    const db = this.#db;
    if (db.inTransaction) return fn();
    return this.#guard(() => {
      db.exec('BEGIN');
      try {
        return fn();
      } finally {
        if (db.inTransaction) db.exec('COMMIT');
      }
    });
  }

  /**
   * At the start of a write (the write lock held): for a file, keeps what this connection knows
   * if no other has committed since its last write, else forgets it.
   */
  #learn(): void {
    if (this.location === ':memory:') return;
    const version = this.#q.dataVersion.get();
    if (version !== this.#dataVersion) {
      this.#dataVersion = version;
      this.#seqCommitted = undefined;
      this.#definitionsCurrent.clear();
    }
    this.#knows = true;
  }

  /** Runs `fn`, turning what the database raises into the answer it stands for. */
  #guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof MockHttpError) throw error;
      throw this.#asHttpError(error);
    }
  }

  #asHttpError(error: unknown): unknown {
    const code = sqliteCode(error);
    const message = (error as Error)?.message ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      return new MockHttpError(503, 'The mock database is busy; try again', {
        headers: { 'retry-after': '1' },
        cause: error,
      });
    }
    // A full disk is SQLITE_FULL; a file past its size limit (ulimit -f) fails the write itself.
    if (code.startsWith('SQLITE_FULL') || code === 'SQLITE_IOERR_WRITE') {
      return new MockHttpError(
        507,
        `The mock database ${this.location} cannot store the write (the disk is full, or the file is at its size limit); nothing was written`,
        { cause: error },
      );
    }
    if (isCorruption(error)) {
      this.#damaged = new MockHttpError(
        500,
        `The mock database ${this.location} is damaged (${message}); it takes no more writes. ${recoverHint(this.location)}`,
        { code: 'database_damaged', cause: error },
      );
      return this.#damaged;
    }
    if (code.startsWith('SQLITE_CONSTRAINT') && /email_key/.test(message)) {
      return new MockHttpError(409, EMAIL_EXISTS);
    }
    if (code.startsWith('SQLITE_CONSTRAINT') && /external_id/.test(message)) {
      return new MockHttpError(409, EXTERNAL_ID_EXISTS);
    }
    return error;
  }

  /** The agent's definitions as stored now, with their names and validators. */
  #defs(agentId: string): Definitions {
    const cached = this.#definitions.get(agentId);
    if (cached && this.#knows && this.#definitionsCurrent.has(agentId)) return cached;
    // One value, not a row each: their JSON joined by newlines (JSON.stringify writes none).
    const text = this.#q.attributes.get(agentId) ?? null;
    if (this.#knows) this.#definitionsCurrent.add(agentId);
    if (cached?.text === text) return cached;
    const list = text === null ? [] : text.split('\n').map((r) => freezeDefinition(JSON.parse(r)));
    const defs: Definitions = {
      text,
      list,
      names: new Set(list.map((d) => d.name)),
      validators: createContactValidators(list),
    };
    if (this.#definitions.size >= DEFINITION_CACHE_AGENTS) this.#definitions.clear();
    this.#definitions.set(agentId, defs);
    return defs;
  }

  #count(agentId: string): number {
    return this.#q.count.get(agentId) ?? 0;
  }

  #byExternalId(agentId: string, externalId: string): Contact | undefined {
    return decode(this.#q.byExternalId.get(agentId, externalId));
  }

  /** The rules' view of one agent's contacts, read from the table in the write's transaction. */
  /**
   * `#lookup` for one upsert: the contact of its external_id and the owner of its email (what
   * the rules ask) read in one query.
   */
  #upsertLookup(agentId: string, input: { external_id: string; email?: string | null }): ContactLookup {
    const email = emailKey(input.email ?? null) ?? null;
    const [record, owner] = this.#q.upsertTargets.get(agentId, input.external_id, email) ?? [];
    const lookup = this.#lookup(agentId);
    return {
      count: lookup.count,
      byExternalId: (externalId) =>
        externalId === input.external_id ? decode(record ?? undefined) : lookup.byExternalId(externalId),
      emailOwner: (key) => (key === email ? (owner ?? undefined) : lookup.emailOwner(key)),
    };
  }

  #lookup(agentId: string): ContactLookup {
    return {
      count: () => this.#count(agentId),
      byExternalId: (externalId) => this.#byExternalId(agentId, externalId),
      emailOwner: (email) => this.#q.emailOwner.get(agentId, email),
    };
  }

  /**
   * Writes a checked record, and gives it with its JSON as stored; an unchanged contact stays
   * as it was, `updated_at` too.
   */
  #put(
    agentId: string,
    prev: Contact | undefined,
    fields: ContactFields,
  ): { contact: Contact; json: string } {
    if (prev && sameFields(prev, fields)) return { contact: prev, json: JSON.stringify(prev) };
    if (prev) {
      const contact = stampContact(prev, fields, prev.id, this.#now());
      const json = JSON.stringify(contact);
      this.#q.update.run(contact.external_id, emailKey(contact.email) ?? null, json, prev.id);
      return { contact, json };
    }
    // Read once a write, counted here, and written back at its commit.
    this.#seq = (this.#seq ?? (this.#knows ? this.#seqCommitted : undefined) ?? this.#q.seq.get() ?? 0) + 1;
    const contact = stampContact(undefined, fields, contactId(this.#seq), this.#now());
    return { contact, json: this.#insert(agentId, contact) };
  }

  /** Inserts a record; returns its JSON as stored. */
  #insert(agentId: string, contact: Contact): string {
    const json = JSON.stringify(contact);
    this.#q.insert.run(agentId, contact.id, contact.external_id, emailKey(contact.email) ?? null, json);
    return json;
  }
}

/**
 * The store's statements, prepared once. libsql's `get()` ignores pluck mode, so single values
 * are read in raw mode (an array per row) and taken by hand.
 */
function prepare(db: Database.Database) {
  const raw = (sql: string) => db.prepare(sql).raw();
  const scalar = <T>(sql: string) => {
    const stmt = raw(sql);
    return { get: (...params: unknown[]) => (stmt.get(params) as [T] | undefined)?.[0] };
  };
  const row = <T extends unknown[]>(sql: string) => {
    const stmt = raw(sql);
    return { get: (...params: unknown[]) => stmt.get(params) as T | undefined };
  };
  const column = <T>(sql: string) => {
    const stmt = raw(sql);
    return { all: (...params: unknown[]) => (stmt.all(params) as [T][]).map((r) => r[0]) };
  };
  const write = (sql: string) => {
    const stmt = db.prepare(sql);
    return { run: (...params: unknown[]) => void stmt.run(params) };
  };
  return {
    seq: scalar<number>("SELECT value FROM meta WHERE key = 'seq'"),
    dataVersion: scalar<number>('PRAGMA data_version'),
    setSeq: write("UPDATE meta SET value = ? WHERE key = 'seq'"),
    count: scalar<number>('SELECT contacts FROM agents WHERE agent = ?'),
    totalContacts: scalar<number>('SELECT count(*) FROM contacts'),
    totalAttributes: scalar<number>('SELECT count(*) FROM attributes'),
    byExternalId: scalar<string>('SELECT record FROM contacts WHERE agent = ? AND external_id = ?'),
    byId: scalar<string>('SELECT record FROM contacts WHERE agent = ? AND id = ?'),
    // By external_id first, then by the service id (coalesce reads the second only without the first).
    record: scalar<string | null>(
      'SELECT coalesce((SELECT record FROM contacts WHERE agent = ?1 AND external_id = ?2), (SELECT record FROM contacts WHERE agent = ?1 AND id = ?2))',
    ),
    emailOwner: scalar<string>('SELECT external_id FROM contacts WHERE agent = ? AND email_key = ?'),
    upsertTargets: row<[string | null, string | null]>(
      'SELECT (SELECT record FROM contacts WHERE agent = ?1 AND external_id = ?2), (SELECT external_id FROM contacts WHERE agent = ?1 AND email_key = ?3)',
    ),
    page: column<string>('SELECT record FROM contacts WHERE agent = ? ORDER BY seq LIMIT ? OFFSET ?'),
    all: column<string>('SELECT record FROM contacts WHERE agent = ? ORDER BY seq'),
    // The agent's total and its page's records joined with commas (the inside of a JSON array),
    // in the order the subquery gives them: an ORDER BY inside group_concat would sort the
    // records again (twice the cost), and a subquery with a LIMIT is never flattened into it.
    pageJson: row<[number, string | null]>(
      `SELECT contacts, (SELECT group_concat(record, ',') FROM
         (SELECT record FROM contacts WHERE agent = ?1 ORDER BY seq LIMIT ?2 OFFSET ?3))
       FROM agents WHERE agent = ?1`,
    ),
    insert: write('INSERT INTO contacts (agent, id, external_id, email_key, record) VALUES (?, ?, ?, ?, ?)'),
    update: write('UPDATE contacts SET external_id = ?, email_key = ?, record = ? WHERE id = ?'),
    delete: write('DELETE FROM contacts WHERE id = ?'),
    deleteContacts: write('DELETE FROM contacts WHERE agent = ?'),
    deleteAttributes: write('DELETE FROM attributes WHERE agent = ?'),
    attributes: scalar<string | null>(
      'SELECT group_concat(record, char(10)) FROM (SELECT record FROM attributes WHERE agent = ? ORDER BY position)',
    ),
    defineAttribute: write(
      'INSERT INTO attributes (agent, name, position, record) VALUES (?, ?, (SELECT coalesce(max(position), 0) + 1 FROM attributes WHERE agent = ?), ?)',
    ),
    updateAttribute: write('UPDATE attributes SET record = ? WHERE agent = ? AND name = ?'),
    agentIds: column<string>(
      'SELECT agent FROM agents WHERE contacts > 0 UNION SELECT agent FROM attributes',
    ),
  };
}

const decodeRecord = (record: string): Contact => freezeContact(JSON.parse(record));
const decode = (record: string | undefined) => (record === undefined ? undefined : decodeRecord(record));

/**
 * A store on a SQLite database: a file (created if absent, WAL mode, checked page by page at
 * open) or `:memory:`. Throws `MockDataFileError`, saying what to do, when the file cannot be
 * this mock's database: unwritable, damaged, another application's, or of another schema.
 */
export function openSqliteStore(file: string, options: MockStoreOptions = {}): MockStore {
  return new SqliteStore(file, options);
}

/** A store that keeps nothing: an in-memory SQLite database, for tests and the msw handlers. */
export function createMockStore(options: MockStoreOptions = {}): MockStore {
  return new SqliteStore(':memory:', options);
}
