// The mock's state in SQLite (through libsql, better-sqlite3's API with its binary shipped in
// registry packages): the store behind `contacts serve --mock --data FILE` and the embedded
// `--mock` mode. The writes of one event-loop turn share one transaction, committed at the end
// of the turn (new contacts, and updates that keep their keys, are written together just
// before), and an answer waits for that commit (`pending()`), so it is only ever sent about a
// write that is on the database. WAL mode lets several processes share one file through
// SQLite's own locking. The contract's rules come from `rules.ts`, as in the memory store;
// uniqueness of external_id and email per agent is also the schema's, and so is the per-agent
// count the quota and the list's total read.
import { accessSync, closeSync, constants, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import type { AttributeDefinition, Contact, ContactValidators, ListQuery } from '../api/index.js';
import { createContactValidators } from '../api/index.js';
import { badRequest, conflict, MockDataFileError, MockHttpError, notFound } from './errors.js';
import { rememberJson } from './json.js';
import {
  ATTRIBUTE_EXISTS,
  ATTRIBUTE_NOT_FOUND,
  CONTACT_NOT_FOUND,
  type ContactFields,
  type ContactLookup,
  checkBatch,
  EMAIL_EXISTS,
  EXTERNAL_ID_EXISTS,
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
  freezeContact,
  type MockStore,
  type MockStoreOptions,
  parseSnapshot,
  type StoreSnapshot,
  seqAfter,
  toSnapshot,
  type UpsertResult,
} from './store.js';

/** `PRAGMA application_id`: marks a database as this mock's ("Cntc"). */
const APPLICATION_ID = 0x436e7463;
/** `PRAGMA user_version`: the schema's version. */
const SCHEMA_VERSION = 3;
/** How long a write waits for another process's transaction before answering 503. */
const BUSY_TIMEOUT_MS = 10_000;
/** Page boundaries kept per agent and page size; past it the oldest page size is forgotten. */
const BOUNDARY_SIZES = 8;
/**
 * Characters of JSON text whose records `#records` keeps decoded, across agents; past it the
 * cache starts over. The decoded objects (and the text of those answered) take a few times that.
 */
export const RECORD_CACHE_CHARS = 4 * 1024 * 1024;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
INSERT OR IGNORE INTO meta (key, value) VALUES ('seq', 0);
-- One row per agent that has held a contact: the count the quota and the list's total read.
-- The store adds the contacts a transaction created before it commits (one statement an agent,
-- inside the write lock, not a trigger a row); a delete trigger takes deleted ones off.
-- deletes: how many of its contacts were ever deleted, so that any process can tell whether
-- the pages it has seen moved (rows are only ever added after the last one otherwise).
CREATE TABLE IF NOT EXISTS agents (
  agent TEXT PRIMARY KEY,
  contacts INTEGER NOT NULL DEFAULT 0 CHECK (contacts >= 0),
  deletes INTEGER NOT NULL DEFAULT 0
) STRICT;
-- seq is the creation order (paging walks it); the record is the contact's JSON as answered.
CREATE TABLE IF NOT EXISTS contacts (
  seq INTEGER PRIMARY KEY,
  agent TEXT NOT NULL,
  id TEXT NOT NULL UNIQUE,
  external_id TEXT NOT NULL,
  email_key TEXT,
  record TEXT NOT NULL,
  -- 1 when the store counted the row itself; rows inserted by a process of schema 2 (which
  -- still has the file open after a newer one moved it to schema 3) get 0, and the trigger
  -- below counts them.
  counted INTEGER NOT NULL DEFAULT 0,
  UNIQUE (agent, external_id),
  UNIQUE (agent, email_key)
) STRICT;
CREATE INDEX IF NOT EXISTS contacts_by_agent ON contacts (agent, seq);
CREATE TABLE IF NOT EXISTS attributes (
  agent TEXT NOT NULL,
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (agent, name)
) STRICT;
CREATE TRIGGER IF NOT EXISTS contacts_counted AFTER INSERT ON contacts WHEN NEW.counted = 0 BEGIN
  INSERT INTO agents (agent, contacts) VALUES (NEW.agent, 1)
    ON CONFLICT (agent) DO UPDATE SET contacts = contacts + 1;
END;
CREATE TRIGGER IF NOT EXISTS contacts_uncounted AFTER DELETE ON contacts BEGIN
  UPDATE agents SET contacts = contacts - 1, deletes = deletes + 1 WHERE agent = OLD.agent;
END;
`;

const SQLITE_HEADER = 'SQLite format 3\0';

interface SqliteError extends Error {
  code?: string;
}

/** A contact's row: [seq, record JSON]. */
type Row = [number, string];

/** What is in a file given as a database: nothing yet, SQLite, or something else (first bytes). */
function sniff(file: string): 'absent' | 'empty' | 'sqlite' | { other: string } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'absent';
    if (code === 'EISDIR')
      throw new MockDataFileError(file, `Cannot open mock database ${file}: it is a directory`);
    throw new MockDataFileError(file, `Cannot open mock database ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    if (n === 0) return 'empty';
    const text = head.subarray(0, n).toString('latin1');
    return text === SQLITE_HEADER ? 'sqlite' : { other: text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new MockDataFileError(file, `Cannot open mock database ${file}: ${why}`, { cause: error });
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses, with a message saying what to do, a file that is not a database this mock can use;
 * creates an absent one readable by its owner only (contacts are personal data).
 */
function prepareDataFile(file: string): void {
  const found = sniff(file);
  if (typeof found === 'object') {
    if (found.other.trimStart().startsWith('{')) {
      throw new MockDataFileError(
        file,
        `${file} is a JSON data file of an earlier contacts-cli; the mock now keeps its state in SQLite`,
        {
          hint: `Convert it once (it is read, never changed): contacts serve --mock --data NEW.db --seed ${file}`,
        },
      );
    }
    throw new MockDataFileError(
      file,
      `${file} is not a SQLite database (the mock keeps its state in SQLite)`,
    );
  }
  // SQLite would open a read-only file read-only and fail each write later: refuse now instead.
  try {
    accessSync(dirname(file), constants.W_OK);
    if (found !== 'absent') accessSync(file, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new MockDataFileError(
      file,
      `Cannot write the mock database ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its directory does not exist' : 'permission denied'}`,
      { cause: error },
    );
  }
  // Not exclusive: a symlink to a file not there yet is written through (the file it names is
  // created), and another process creating the same database at the same moment is no error.
  if (found === 'absent') closeSync(openSync(file, constants.O_CREAT | constants.O_WRONLY, 0o600));
}

/** Errors the database raises, as the answers they stand for. */
function asHttpError(error: unknown): unknown {
  const code = (error as SqliteError)?.code ?? '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new MockHttpError(503, 'The mock database is busy; try again', {
      headers: { 'retry-after': '1' },
    });
  }
  if (code.startsWith('SQLITE_FULL')) {
    return new MockHttpError(507, 'The mock database cannot commit the write: the disk is full');
  }
  if (code.startsWith('SQLITE_CONSTRAINT') && /email_key/.test((error as Error).message)) {
    return new MockHttpError(409, EMAIL_EXISTS);
  }
  if (code.startsWith('SQLITE_CONSTRAINT') && /external_id/.test((error as Error).message)) {
    return new MockHttpError(409, EXTERNAL_ID_EXISTS);
  }
  return error;
}

/** The transaction of the current turn of the event loop, committed when it ends. */
interface OpenTransaction {
  committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
  /** Writes in it that changed something: listeners are told once each, after the commit. */
  changes: number;
  /** The sequence of the last contact created in it (undefined until one is), saved at commit. */
  seq?: number | undefined;
  /**
   * Whether its start looked at other connections' commits: while it holds the write lock no
   * other connection can commit, so one look is enough.
   */
  synced: boolean;
}

interface AgentCache {
  validators?: ContactValidators;
  lookup?: ContactLookup;
  names?: ReadonlySet<string>;
  /** By page size: the seq of the last row of each full page seen (index = page - 1). */
  boundaries: Map<number, number[]>;
  /** The agent's `deletes` count the boundaries hold for: another count means rows moved. */
  deletes: number;
}

/** An error from `atomically`'s function, whose writes were already undone: the turn goes on. */
class Undone extends Error {
  constructor(override readonly cause: unknown) {
    super('undone');
  }
}

/** Rows written by one multi-row statement, largest first: a turn's rows take a few statements. */
const CHUNKS = [64, 32, 16, 8, 4, 2, 1];

/**
 * Runs the multi-row statements that write `params` (`width` a row): as few as the chunk sizes
 * allow, each from `statement(rows)`.
 */
function writeInChunks(
  params: unknown[],
  width: number,
  statement: (rows: number) => Database.Statement,
): void {
  const total = params.length / width;
  let done = 0;
  for (const size of CHUNKS) {
    while (total - done >= size) {
      statement(size).run(size === total ? params : params.slice(done * width, (done + size) * width));
      done += size;
    }
  }
}

/** The map under `key` in `maps`, made when absent. */
function mapIn<V>(maps: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = maps.get(key);
  if (!map) {
    map = new Map();
    maps.set(key, map);
  }
  return map;
}

/** Commits the turn's transaction of every store of this process but `except`. */
function commitOthers(except?: SqliteStore): void {
  for (const other of OPEN_TRANSACTIONS) if (other !== except) other.commitTurn();
}

/** The stores of this process with a turn's transaction open. */
const OPEN_TRANSACTIONS = new Set<SqliteStore>();

class SqliteStore implements MockStore {
  readonly location: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #maxContacts: number;
  readonly #listeners = new ChangeListeners();
  readonly #cache = new Map<string, AgentCache>();
  #dataVersion = -1;
  #tx: OpenTransaction | null = null;
  /** Writes running now (`#write` nests in `atomically`): a waiting insert that fails fails them. */
  #writing = 0;
  readonly #q: ReturnType<typeof prepare>;
  /**
   * Contacts created in this turn's transaction whose rows are not inserted yet: the parameters
   * (six a row, in creation order), the records by agent and external_id, their external_ids by
   * agent and email key, and how many each agent gained. They are inserted together, a few
   * multi-row statements, before any other statement runs and before the commit; until then the
   * two lookups an upsert makes read them here first.
   */
  #rows: unknown[] = [];
  #created = new Map<string, Map<string, { contact: Contact; seq: number }>>();
  #createdEmails = new Map<string, Map<string, string>>();
  #createdCounts = new Map<string, number>();
  /**
   * Updates of this turn that keep both keys, waiting like the created rows: each row's newest
   * record by its row id. They are written together after the inserts (the same moments), and
   * the look-up by external_id reads them first too (through `#records`, or after writing them).
   */
  #updates = new Map<number, string>();
  readonly #inserts = new Map<number, Database.Statement>();
  readonly #updateStatements = new Map<number, Database.Statement>();
  /** Runs before every statement but the waiting rows' own lookups: writes what waits. */
  readonly #before: () => void;
  /**
   * Records decoded, with their row ids, by agent and external_id: the ones this store updated
   * or read lately (not those it created: see `#put`), as the table holds them once the turn's
   * waiting writes are in. An update of a contact met before then reads no row and parses no
   * JSON. Only this connection's view: emptied whenever another connection has committed
   * (`#sync`), and whenever a transaction of this one is undone. Bounded by the length of their
   * text (`RECORD_CACHE_CHARS`): a few large records take the room of many small ones.
   */
  #records = new Map<string, Map<string, { contact: Contact; seq: number; chars: number }>>();
  #recordChars = 0;

  constructor(file: string, options: MockStoreOptions) {
    this.location = file;
    this.#now = options.now ?? Date.now;
    this.#maxContacts = options.maxContacts ?? Number.POSITIVE_INFINITY;
    if (file !== ':memory:') prepareDataFile(file);
    try {
      this.#db = new Database(file);
    } catch (error) {
      throw new MockDataFileError(file, `Cannot open mock database ${file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      this.#open(file);
      this.#before = () => {
        if (this.#writing > 0) return this.#flush();
        try {
          this.#flush();
        } catch {
          // A read outside any write: the turn's writes fail with the insert (`#fail` rolled
          // them back and rejected them), and the read goes on, answering what is committed.
        }
      };
      this.#q = prepare(this.#db, this.#before);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    if (options.snapshot !== undefined) this.restore(options.snapshot);
  }

  #open(file: string): void {
    const db = this.#db;
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // libsql's get() ignores pluck mode: a value is read as a raw row.
    const value = (sql: string) => (db.prepare(sql).raw().get() as [unknown] | undefined)?.[0];
    const appId = value('PRAGMA application_id');
    const tables = value("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") as number;
    if (tables > 0 && appId !== APPLICATION_ID) {
      throw new MockDataFileError(
        file,
        `${file} is a SQLite database of another application, not this mock's`,
      );
    }
    const version = value('PRAGMA user_version') as number;
    if (version > SCHEMA_VERSION) {
      throw new MockDataFileError(
        file,
        `${file} was written by a newer contacts-cli (schema ${version}); upgrade to use it`,
      );
    }
    if (file !== ':memory:') {
      // WAL: readers never wait for the writer, and several processes share the file. NORMAL:
      // a commit is in the WAL (the OS holds it) before the call returns, so a killed process
      // loses nothing it acknowledged; SQLite syncs the WAL at each checkpoint.
      const mode = value('PRAGMA journal_mode = WAL');
      if (mode !== 'wal')
        throw new MockDataFileError(file, `Cannot put ${file} in WAL mode (got ${String(mode)})`);
    }
    db.pragma('synchronous = NORMAL');
    // A store of this process holding the write lock would make this wait for itself.
    commitOthers();
    try {
      // Taking the write lock proves the file (and its WAL beside it) can be written.
      db.exec('BEGIN IMMEDIATE');
      // Version 1 (a development build) kept no delete count.
      if (version === 1) {
        db.exec('ALTER TABLE agents ADD COLUMN deletes INTEGER NOT NULL DEFAULT 0');
        db.exec('DROP TRIGGER IF EXISTS contacts_uncounted');
      }
      // Schema 2 counted every insert by trigger; from 3 the store counts its own (`counted`).
      if (version === 1 || version === 2) {
        db.exec('ALTER TABLE contacts ADD COLUMN counted INTEGER NOT NULL DEFAULT 0');
        db.exec('DROP TRIGGER IF EXISTS contacts_counted');
      }
      db.exec(SCHEMA);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw new MockDataFileError(
        file,
        `Cannot write the mock database ${file}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  upsertContact(agentId: string, body: unknown): UpsertResult {
    return this.#write(() => {
      const input = parseOrThrow(this.#validators(agentId).input, body);
      const { prev, fields } = planUpsert(this.#lookup(agentId), input, this.#maxContacts);
      const contact = this.#put(agentId, prev, fields);
      return { value: { contact, created: prev === undefined }, changed: contact !== prev };
    });
  }

  batchUpsert(agentId: string, body: unknown): Contact[] {
    return this.#write(() => {
      const { users } = parseOrThrow(this.#validators(agentId).batch, body);
      const lookup = this.#lookup(agentId);
      checkBatch(lookup, users, this.#maxContacts);
      let changed = false;
      const out = users.map((item) => {
        // Read again: an earlier item of this batch may have written it.
        const prev = this.#byExternalId(agentId, item.external_id);
        const contact = this.#put(agentId, prev, mergeFields(prev, item, item.external_id), false);
        changed ||= contact !== prev;
        return contact;
      });
      return { value: out, changed };
    });
  }

  findContact(agentId: string, key: string): Contact | undefined {
    this.#sync();
    return this.#find(agentId, key);
  }

  getContact(agentId: string, key: string): Contact {
    this.#sync();
    return this.#get(agentId, key);
  }

  /** Without the look at other connections: inside a write, the transaction's start made it. */
  #find(agentId: string, key: string): Contact | undefined {
    return this.#byExternalId(agentId, key) ?? this.#read(agentId, this.#q.byId.get(agentId, key));
  }

  #get(agentId: string, key: string): Contact {
    const contact = this.#find(agentId, key);
    if (!contact) throw notFound(CONTACT_NOT_FOUND);
    return contact;
  }

  patchContact(agentId: string, key: string, body: unknown): Contact {
    return this.#write(() => {
      const prev = this.#get(agentId, key);
      const patch = parseOrThrow(this.#validators(agentId).patch, body);
      const contact = this.#put(agentId, prev, planPatch(this.#lookup(agentId), prev, patch));
      return { value: contact, changed: contact !== prev };
    });
  }

  deleteContact(agentId: string, key: string): Contact {
    return this.#write(() => {
      const contact = this.#get(agentId, key);
      const seq = this.#q.seqOf.get(contact.id)!;
      const before = this.#q.counts.get(agentId)?.[1] ?? 0;
      this.#q.delete.run(contact.id);
      this.#forgetRecord(agentId, contact.external_id);
      const cache = this.#cache.get(agentId);
      if (cache) {
        // Pages after the row moved up by one; those before it are as they were, unless someone
        // else deleted meanwhile (then nothing seen is sure).
        if (cache.deletes !== before) cache.boundaries.clear();
        for (const boundaries of cache.boundaries.values()) {
          const stale = boundaries.findIndex((b) => b !== undefined && b >= seq);
          if (stale >= 0) boundaries.length = stale;
        }
        cache.deletes = before + 1;
      }
      return { value: contact, changed: true };
    });
  }

  listContacts(agentId: string, query: ListQuery): ContactPage {
    this.#sync();
    if (this.#tx) return this.#listPage(agentId, query);
    // The count and the page from one moment, whatever other processes commit in between.
    this.#db.exec('BEGIN');
    try {
      return this.#listPage(agentId, query);
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  #listPage(agentId: string, { page, per_page }: ListQuery): ContactPage {
    const [total, deletes] = this.#q.counts.get(agentId) ?? [0, 0];
    const totalPages = Math.ceil(total / per_page);
    if (total === 0) return { data: [], total: 0, pages: { page, per_page, total_pages: 0 } };
    if (page > totalPages) throw badRequest('Page number out of range');
    const cache = this.#agentCache(agentId);
    if (cache.deletes !== deletes) {
      cache.boundaries.clear();
      cache.deletes = deletes;
    }
    let boundaries = cache.boundaries.get(per_page);
    if (!boundaries) {
      if (cache.boundaries.size >= BOUNDARY_SIZES)
        cache.boundaries.delete(cache.boundaries.keys().next().value!);
      boundaries = [];
      cache.boundaries.set(per_page, boundaries);
    }
    // Keyset paging: from the end of the nearest earlier page seen (the one before, when a
    // client walks the pages in order), so no page costs a scan of every row before it.
    let after = 0;
    let skip = (page - 1) * per_page;
    for (let k = Math.min(page - 1, boundaries.length); k > 0; k--) {
      const seq = boundaries[k - 1];
      if (seq !== undefined) {
        after = seq;
        skip = (page - 1 - k) * per_page;
        break;
      }
    }
    const rows = this.#q.page.all(agentId, after, per_page, skip);
    // Rows are only ever added after the last one: a full page's end stays where it is until a delete.
    if (rows.length === per_page) boundaries[page - 1] = rows[rows.length - 1]![0];
    return {
      data: rows.map((r) => decode(r)!),
      total,
      pages: { page, per_page, total_pages: totalPages },
    };
  }

  contacts(agentId: string): Contact[] {
    this.#sync();
    return this.#q.all.all(agentId).map((r) => decode(r)!);
  }

  count(agentId: string): number {
    this.#sync();
    return this.#q.count.get(agentId) ?? 0;
  }

  listAttributes(agentId: string): AttributeDefinition[] {
    this.#sync();
    return this.#q.attributes.all(agentId).map((r) => Object.freeze(JSON.parse(r)));
  }

  defineAttribute(agentId: string, body: unknown): AttributeDefinition {
    return this.#write(() => {
      const definition = newDefinition(body);
      if (this.#q.attribute.get(agentId, definition.name) !== undefined) throw conflict(ATTRIBUTE_EXISTS);
      this.#q.defineAttribute.run(agentId, definition.name, agentId, JSON.stringify(definition));
      this.#cache.delete(agentId);
      return { value: definition, changed: true };
    });
  }

  updateAttribute(agentId: string, name: string, body: unknown): AttributeDefinition {
    return this.#write(() => {
      const record = this.#q.attribute.get(agentId, name);
      if (record === undefined) throw notFound(ATTRIBUTE_NOT_FOUND);
      const definition = updatedDefinition(Object.freeze(JSON.parse(record)), body);
      this.#q.updateAttribute.run(JSON.stringify(definition), agentId, name);
      this.#cache.delete(agentId);
      return { value: definition, changed: true };
    });
  }

  attributeNames(agentId: string): ReadonlySet<string> {
    this.#sync();
    const cache = this.#agentCache(agentId);
    cache.names ??= new Set(this.#q.attributeNames.all(agentId));
    return cache.names;
  }

  validators(agentId: string): ContactValidators {
    this.#sync();
    return this.#validators(agentId);
  }

  agentIds(): string[] {
    return this.#q.agentIds.all();
  }

  snapshot(): StoreSnapshot {
    this.#commit();
    // One read transaction: a snapshot of one moment, even with writers in other processes.
    this.#db.exec('BEGIN');
    try {
      const agents = this.agentIds().map(
        (agentId): [string, { contacts: Contact[]; attributes: AttributeDefinition[] }] => [
          agentId,
          { contacts: this.contacts(agentId), attributes: this.listAttributes(agentId) },
        ],
      );
      return toSnapshot(this.#q.seq.get() ?? 0, agents);
    } finally {
      this.#db.exec('COMMIT');
    }
  }

  restore(snapshot: unknown): void {
    const { seq, agents } = parseSnapshot(snapshot);
    this.#write(() => {
      this.#clear();
      let n = 0;
      for (const [agentId, records] of agents) {
        for (const d of records.attributes) {
          this.#q.defineAttribute.run(agentId, d.name, agentId, JSON.stringify(d));
        }
        for (const c of records.contacts) {
          n += 1;
          this.#queue(n, agentId, c, JSON.stringify(c));
        }
      }
      // Past every row number given here (across agents) and every id held.
      this.#tx!.seq = Math.max(n, seqAfter(seq, agents.values()));
      return { value: undefined, changed: true };
    });
  }

  reset(): void {
    this.#write(() => {
      this.#clear();
      this.#tx!.seq = 0;
      return { value: undefined, changed: true };
    });
  }

  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  atomically<T>(fn: () => T): T {
    const db = this.#db;
    return this.#write(() => {
      const tx = this.#tx!;
      const seq = tx.seq;
      this.#flush();
      db.exec('SAVEPOINT atomically');
      try {
        const value = fn();
        db.exec('RELEASE atomically');
        return { value, changed: true };
      } catch (error) {
        if (this.#tx !== tx) throw error; // the transaction itself failed (and was rolled back)
        // Only fn's writes undone (the rows it queued inserted first, to go with them); the
        // turn's other writes stand.
        this.#flush();
        db.exec('ROLLBACK TO atomically');
        db.exec('RELEASE atomically');
        tx.seq = seq;
        this.#cache.clear();
        this.#forgetRecords();
        throw new Undone(error);
      }
    });
  }

  pending(): Promise<void> | undefined {
    return this.#tx?.committed;
  }

  close(): void {
    if (!this.#db.open) return;
    this.#commit();
    try {
      // Folds the WAL into the database and empties it: libsql 0.5's close() leaves a connection
      // that prepared statements open (libsql-js #228), so SQLite's own checkpoint at close may not run.
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Another connection is reading: it or the next opener checkpoints.
    }
    this.#db.close();
  }

  #clear(): void {
    // Agents' rows stay: the delete trigger counted every removed contact in them, which tells
    // every process (this one too) that the pages it has seen are gone.
    this.#flush();
    this.#db.exec('DELETE FROM contacts; DELETE FROM attributes;');
    this.#forgetRecords();
    for (const cache of this.#cache.values()) {
      cache.validators = undefined;
      cache.names = undefined;
    }
  }

  /**
   * Runs `fn` in the transaction of this turn of the event loop: the first write of a turn takes
   * the write lock (BEGIN IMMEDIATE, before anything is read, so checks and writes see one state
   * whatever other processes do) and the turn's writes commit together once it ends (group
   * commit); `pending()` is what an answer waits for. Every `fn` checks everything before it
   * writes anything, so a contract error leaves nothing to undo; anything the database raises
   * rolls the whole transaction back and fails every write in it, as a 5xx.
   */
  #write<T>(fn: () => { value: T; changed: boolean }): T {
    const db = this.#db;
    if (!this.#tx) {
      // Another store of this process holding a turn's transaction on the same file would make
      // this one wait for a commit that only this thread can run: commit theirs first.
      commitOthers(this);
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        throw asHttpError(error);
      }
      let resolve: () => void = () => {};
      let reject: (error: unknown) => void = () => {};
      const committed = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Whoever waits for it sees a failure; a write nobody answers must not crash the process.
      committed.catch(() => {});
      this.#tx = { committed, resolve, reject, changes: 0, synced: false };
      OPEN_TRANSACTIONS.add(this);
      setImmediate(() => this.#commit());
      this.#sync();
    }
    const tx = this.#tx;
    let result: { value: T; changed: boolean };
    this.#writing += 1;
    try {
      result = fn();
    } catch (error) {
      if (error instanceof MockHttpError) throw error;
      if (error instanceof Undone) throw error.cause;
      if (this.#tx === tx) this.#fail(tx, error);
      throw asHttpError(error);
    } finally {
      this.#writing -= 1;
    }
    if (result.changed) tx.changes += 1;
    return result.value;
  }

  /** Commits this turn's transaction now (another store of this process needs the file). */
  commitTurn(): void {
    this.#commit();
  }

  /** Commits this turn's transaction, if one is open. */
  #commit(): void {
    const tx = this.#tx;
    if (!tx) return;
    try {
      this.#flush();
    } catch {
      return; // the rows could not be written: the transaction failed, and says so to its writes
    }
    try {
      if (tx.seq !== undefined) this.#q.setSeq.run(tx.seq);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#fail(tx, error);
      return;
    }
    this.#tx = null;
    OPEN_TRANSACTIONS.delete(this);
    tx.resolve();
    for (let i = 0; i < tx.changes; i++) this.#listeners.notify();
  }

  #fail(tx: OpenTransaction, error: unknown): void {
    if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
    this.#forgetWaiting();
    this.#tx = null;
    OPEN_TRANSACTIONS.delete(this);
    // What the transaction cached may be what it failed to write.
    this.#cache.clear();
    this.#forgetRecords();
    tx.reject(asHttpError(error));
  }

  /** Forgets what was cached when another connection has committed since the last look. */
  #sync(): void {
    // Another store of this process on the same file: what it wrote this turn is visible here.
    if (OPEN_TRANSACTIONS.size > (this.#tx ? 1 : 0)) commitOthers(this);
    const tx = this.#tx;
    if (tx) {
      if (tx.synced) return;
      tx.synced = true;
    }
    const version = this.#q.dataVersion.get() ?? 0;
    if (version !== this.#dataVersion) {
      this.#dataVersion = version;
      // Any record may have changed.
      this.#forgetRecords();
      // Definitions may have changed. Page boundaries stay: each list checks its agent's
      // `deletes` count, so another process's write to another agent costs nothing here.
      for (const cache of this.#cache.values()) {
        cache.validators = undefined;
        cache.names = undefined;
      }
    }
  }

  #agentCache(agentId: string): AgentCache {
    let cache = this.#cache.get(agentId);
    if (!cache) {
      cache = { boundaries: new Map(), deletes: 0 };
      this.#cache.set(agentId, cache);
    }
    return cache;
  }

  #validators(agentId: string): ContactValidators {
    const cache = this.#agentCache(agentId);
    cache.validators ??= createContactValidators(
      this.#q.attributes.all(agentId).map((r) => JSON.parse(r) as AttributeDefinition),
    );
    return cache.validators;
  }

  /**
   * The record under an external_id as this transaction sees it: a row created in this turn and
   * still waiting, else the record kept decoded, else the table's (with the turn's waiting
   * updates written first; its waiting inserts need not be, `#created` has them all).
   */
  #byExternalId(agentId: string, externalId: string): Contact | undefined {
    const waiting = this.#created.get(agentId)?.get(externalId);
    if (waiting) return waiting.contact;
    const known = this.#records.get(agentId)?.get(externalId);
    if (known) return known.contact;
    if (this.#updates.size > 0) this.#before();
    return this.#read(agentId, this.#q.byExternalId.get(agentId, externalId));
  }

  /** A row read from the table, decoded and kept. */
  #read(agentId: string, row: Row | undefined): Contact | undefined {
    if (row === undefined) return undefined;
    const contact = freezeContact(JSON.parse(row[1]));
    this.#remember(agentId, contact, row[0], row[1].length);
    return contact;
  }

  /**
   * Keeps a record as row `seq` holds it, or will once the turn's waiting writes are in; `chars`
   * is its text's length (see `#records`).
   */
  #remember(agentId: string, contact: Contact, seq: number, chars: number): void {
    const held = this.#records.get(agentId)?.get(contact.external_id)?.chars ?? 0;
    if (this.#recordChars - held + chars > RECORD_CACHE_CHARS) this.#forgetRecords();
    else this.#recordChars -= held;
    mapIn(this.#records, agentId).set(contact.external_id, { contact, seq, chars });
    this.#recordChars += chars;
  }

  #forgetRecord(agentId: string, externalId: string): void {
    const records = this.#records.get(agentId);
    const known = records?.get(externalId);
    if (known) {
      records!.delete(externalId);
      this.#recordChars -= known.chars;
    }
  }

  #forgetRecords(): void {
    if (this.#recordChars === 0) return;
    this.#records = new Map();
    this.#recordChars = 0;
  }

  #emailOwner(agentId: string, email: string): string | undefined {
    return this.#createdEmails.get(agentId)?.get(email) ?? this.#q.emailOwner.get(agentId, email);
  }

  /** A created contact's row, inserted with the turn's others (see `#rows`). */
  #queue(seq: number, agentId: string, contact: Contact, record: string): void {
    const email = emailKey(contact.email) ?? null;
    this.#rows.push(seq, agentId, contact.id, contact.external_id, email, record);
    mapIn(this.#created, agentId).set(contact.external_id, { contact, seq });
    if (email !== null) mapIn(this.#createdEmails, agentId).set(email, contact.external_id);
    this.#createdCounts.set(agentId, (this.#createdCounts.get(agentId) ?? 0) + 1);
  }

  /**
   * Inserts the rows waiting and adds them to their agents' counts, then writes the updates
   * waiting (an update may be of a row just inserted): before any statement but the two
   * lookups that read the waiting rows first, and before the commit. A failure fails the
   * turn's transaction, as any failed write does.
   */
  #flush(): void {
    const rows = this.#rows;
    const updates = this.#updates;
    if (rows.length === 0 && updates.size === 0) return;
    const counts = this.#createdCounts;
    this.#forgetWaiting();
    try {
      if (rows.length > 0) {
        writeInChunks(rows, 6, (n) => this.#insertStatement(n));
        for (const [agentId, count] of counts) this.#q.addContacts.run(agentId, count);
      }
      if (updates.size > 0) {
        const params: unknown[] = [];
        for (const [seq, record] of updates) params.push(seq, record);
        writeInChunks(params, 2, (n) => this.#updateStatement(n));
      }
    } catch (error) {
      if (this.#tx) this.#fail(this.#tx, error);
      throw asHttpError(error);
    }
  }

  /** Forgets the rows and updates waiting (written, or undone). */
  #forgetWaiting(): void {
    if (this.#updates.size > 0) this.#updates = new Map();
    if (this.#rows.length === 0) return;
    this.#rows = [];
    this.#created = new Map();
    this.#createdEmails = new Map();
    this.#createdCounts = new Map();
  }

  /** One statement writing `rows` waiting record-only updates (`#updates`). */
  #updateStatement(rows: number): Database.Statement {
    let stmt = this.#updateStatements.get(rows);
    if (!stmt) {
      stmt = this.#db.prepare(
        `UPDATE contacts SET record = v.column2 FROM (VALUES ${Array(rows).fill('(?, ?)').join(', ')}) AS v WHERE contacts.seq = v.column1`,
      );
      this.#updateStatements.set(rows, stmt);
    }
    return stmt;
  }

  #insertStatement(rows: number): Database.Statement {
    let stmt = this.#inserts.get(rows);
    if (!stmt) {
      stmt = this.#db.prepare(
        `INSERT INTO contacts (seq, agent, id, external_id, email_key, record, counted) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, 1)').join(', ')}`,
      );
      this.#inserts.set(rows, stmt);
    }
    return stmt;
  }

  /** The rules' view of one agent, made once (the records it finds are kept: `#records`). */
  #lookup(agentId: string): ContactLookup {
    const cache = this.#agentCache(agentId);
    cache.lookup ??= {
      count: () => this.#q.count.get(agentId) ?? 0,
      byExternalId: (externalId) => this.#byExternalId(agentId, externalId),
      emailOwner: (email) => this.#emailOwner(agentId, email),
    };
    return cache.lookup;
  }

  /**
   * Writes a checked record; an unchanged contact stays as it was, `updated_at` too. `alone`:
   * the answer is about this record alone (not a batch's list).
   */
  #put(agentId: string, prev: Contact | undefined, fields: ContactFields, alone = true): Contact {
    if (prev && sameFields(prev, fields)) return prev;
    let seq: number;
    if (prev) {
      // Its row id, from where the look-up found it: no search of the id index, and a row
      // created in this turn stays waiting.
      const held =
        this.#created.get(agentId)?.get(prev.external_id) ??
        this.#records.get(agentId)?.get(prev.external_id);
      seq = held?.contact === prev ? held.seq : this.#q.seqOf.get(prev.id)!;
    } else {
      // The sequence is read once a transaction and written back at its commit.
      const tx = this.#tx!;
      tx.seq = (tx.seq ?? this.#q.seq.get() ?? 0) + 1;
      seq = tx.seq;
    }
    const contact = stampContact(prev, fields, prev ? prev.id : contactId(seq), this.#now());
    const record = JSON.stringify(contact);
    // An answer about this record alone reuses its text instead of making it again (a batch's
    // answer is a list of records: it makes its own).
    if (alone) rememberJson(contact, record);
    if (!prev) {
      // Not kept decoded: most created contacts are not written again soon, and one kept would
      // outlive the young generation. An update reads its row back once.
      this.#queue(seq, agentId, contact, record);
      return contact;
    }
    if (prev.external_id !== contact.external_id) this.#forgetRecord(agentId, prev.external_id);
    this.#remember(agentId, contact, seq, record.length);
    // Most updates keep both keys: then only the record is written (setting a key column
    // rewrites its index entries even to the same value: 7.8 -> 4.9 µs a row), with the turn's
    // others in a few statements (`#updates`). One that changes a key is written at once, so
    // the email lookups, which read the table, see it.
    if (contact.external_id === prev.external_id && sameEmailKey(contact.email, prev.email)) {
      this.#updates.set(seq, record);
      // A row created in this turn and still waiting: its look-ups read the newest record.
      const waiting = this.#created.get(agentId)?.get(prev.external_id);
      if (waiting?.contact === prev) waiting.contact = contact;
    } else this.#q.update.run(contact.external_id, emailKey(contact.email) ?? null, record, seq);
    return contact;
  }
}

/**
 * The store's statements, prepared once. libsql's `get()` ignores pluck mode, so single values
 * are read in raw mode (an array per row) and taken by hand. `before` runs before each one but
 * those marked `own` (the store's rows waiting to be inserted go in first: see `#flush`).
 * Parameters go to libsql as one array: given one by one, it copies them into one with
 * `flat()` on every call (~0.35 µs a statement).
 */
function prepare(db: Database.Database, before: () => void) {
  const raw = (sql: string) => db.prepare(sql).raw();
  const first = (own: boolean) => (own ? () => {} : before);
  const scalar = <T>(sql: string, own = false) => {
    const stmt = raw(sql);
    const ahead = first(own);
    return {
      get: (...params: unknown[]) => {
        ahead();
        return (stmt.get(params) as [T] | undefined)?.[0];
      },
    };
  };
  const column = <T>(sql: string) => {
    const stmt = raw(sql);
    return {
      all: (...params: unknown[]) => {
        before();
        return (stmt.all(params) as [T][]).map((r) => r[0]);
      },
    };
  };
  const row = <T = Row>(sql: string, own = false) => {
    const stmt = raw(sql);
    const ahead = first(own);
    return {
      get: (...params: unknown[]) => {
        ahead();
        return stmt.get(params) as T | undefined;
      },
    };
  };
  const rows = (sql: string) => {
    const stmt = raw(sql);
    return {
      all: (...params: unknown[]) => {
        before();
        return stmt.all(params) as Row[];
      },
    };
  };
  const write = (sql: string, own = false) => {
    const stmt = db.prepare(sql);
    const ahead = first(own);
    return {
      run: (...params: unknown[]) => {
        ahead();
        stmt.run(params);
      },
    };
  };
  return {
    dataVersion: scalar<number>('PRAGMA data_version', true),
    seq: scalar<number>("SELECT value FROM meta WHERE key = 'seq'", true),
    setSeq: write("UPDATE meta SET value = ? WHERE key = 'seq'"),
    count: scalar<number>('SELECT contacts FROM agents WHERE agent = ?'),
    counts: row<[number, number]>('SELECT contacts, deletes FROM agents WHERE agent = ?'),
    addContacts: write(
      'INSERT INTO agents (agent, contacts) VALUES (?, ?) ON CONFLICT (agent) DO UPDATE SET contacts = contacts + excluded.contacts',
      true,
    ),
    seqOf: scalar<number>('SELECT seq FROM contacts WHERE id = ?'),
    // These two are only asked after the rows waiting (`#byExternalId`, `#emailOwner`).
    byExternalId: row('SELECT seq, record FROM contacts WHERE agent = ? AND external_id = ?', true),
    emailOwner: scalar<string>('SELECT external_id FROM contacts WHERE agent = ? AND email_key = ?', true),
    byId: row('SELECT seq, record FROM contacts WHERE agent = ? AND id = ?'),
    page: rows('SELECT seq, record FROM contacts WHERE agent = ? AND seq > ? ORDER BY seq LIMIT ? OFFSET ?'),
    all: rows('SELECT seq, record FROM contacts WHERE agent = ? ORDER BY seq'),
    update: write('UPDATE contacts SET external_id = ?, email_key = ?, record = ? WHERE seq = ?'),
    delete: write('DELETE FROM contacts WHERE id = ?'),
    attributes: column<string>('SELECT record FROM attributes WHERE agent = ? ORDER BY position'),
    attributeNames: column<string>('SELECT name FROM attributes WHERE agent = ?'),
    attribute: scalar<string>('SELECT record FROM attributes WHERE agent = ? AND name = ?'),
    defineAttribute: write(
      'INSERT INTO attributes (agent, name, position, record) VALUES (?, ?, (SELECT coalesce(max(position), 0) + 1 FROM attributes WHERE agent = ?), ?)',
    ),
    updateAttribute: write('UPDATE attributes SET record = ? WHERE agent = ? AND name = ?'),
    agentIds: column<string>(
      'SELECT agent FROM agents WHERE contacts > 0 UNION SELECT agent FROM attributes',
    ),
  };
}

function decode(row: Row | undefined): Contact | undefined {
  return row === undefined ? undefined : freezeContact(JSON.parse(row[1]));
}

/**
 * A store on a SQLite database: a file (created if absent, WAL mode; opening one does not read
 * it all) or `:memory:`. Throws `MockDataFileError`, saying what to do, when the file cannot be
 * this mock's database: unwritable, another application's, or a JSON data file of an earlier
 * version.
 */
export function openSqliteStore(file: string, options: MockStoreOptions = {}): MockStore {
  return new SqliteStore(file, options);
}
