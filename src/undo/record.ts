// An import's undo record: one SQLite file per import in the tool's data directory
// (undo/<agent>/<id>.db), holding for every contact the import wrote its state before (read before
// the first write to it) and after (as the service answered the last), so that an undo can delete
// what it created and restore what it changed. The last RECORDS_KEPT imports of each agent are kept.
//
// Written so that no interruption leaves it claiming less than the service holds: the state before
// is committed before the import writes, and so is each row's intent (its input) before it is
// sent; its answer replaces the intent once it comes. A resumed import goes on in the record its
// checkpoint names. An undo keeps its plan and the contacts it read in temporary tables here.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type Database from 'libsql';
import { ImportError } from '../importer/errors.js';
import { RECORDS_KEPT } from './defaults.js';
import { type ContactState, stateText } from './state.js';

export { RECORDS_KEPT };

/** An import's id: the time it started (UTC, to the millisecond) and four hex digits. */
export const RECORD_ID_PATTERN = /^\d{8}T\d{9}-[0-9a-f]{4}$/;

const SCHEMA_VERSION = 1;
/** Rows an intent or answer statement writes at most (four values each, well under SQLite's bound). */
const ROWS_A_STATEMENT = 100;
/** `PRAGMA application_id`: marks a file as an undo record ("CtUn"). */
const APPLICATION_ID = 0x4374556e;
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
-- The state of each contact before the import first wrote it; state NULL: it did not exist. A
-- contact a listing did not find did not exist either (see landed.prior_read).
CREATE TABLE prior (external_id TEXT PRIMARY KEY, state TEXT) STRICT;
-- Every contact the import wrote, in the order it first did.
CREATE TABLE landed (
  seq INTEGER PRIMARY KEY,
  external_id TEXT NOT NULL UNIQUE,
  -- The service's id and what it said the first write did: NULL until an answer came.
  id TEXT,
  action TEXT,
  -- The state the last answer gave.
  after TEXT,
  -- The input of the write sent and not answered yet (JSON).
  intent TEXT,
  -- 1: the run that first wrote it read the directory before (prior holds its state, or it did not exist).
  prior_read INTEGER NOT NULL,
  -- The fields its rows sent (JSON array: name, email, ..., custom_attributes.<name>): an undo
  -- restores those alone.
  sent TEXT NOT NULL DEFAULT '[]'
) STRICT;
`;

export type RecordStatus = 'running' | 'stopped' | 'finished';

export interface UndoRecordMeta {
  id: string;
  agentId: string;
  /** The service written to: its base URL, or `mock:<file>` for the embedded mock. */
  service: string;
  /** The input's absolute path, or `-` for stdin. */
  input: string;
  /** The results file's real path, when one was written. */
  results: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: RecordStatus;
  /** False when the import did not read the states before (small file, large directory). */
  full: boolean;
  created: number;
  updated: number;
  /** The process writing it while `running` (on `host`): a killed import leaves it `running`. */
  pid: number;
  host: string;
  /** When an undo first began to write (a resume of the import is refused from then on). */
  undoStartedAt: string | null;
  /** When an undo took it back whole (every contact done or kept). */
  undoneAt: string | null;
}

export interface UndoRecordSummary extends UndoRecordMeta {
  path: string;
}

/** A contact the import wrote, with what the record knows of it. */
export interface RecordedContact {
  /** Its place in the order the import first wrote them. */
  seq: number;
  external_id: string;
  id: string | null;
  /**
   * What the service said the first write did: null, never answered; 'unknown', a write of an
   * earlier run was never answered (it may have created the contact).
   */
  action: 'created' | 'updated' | 'unknown' | null;
  /** The fields its rows sent (`custom_attributes.<name>` for an attribute). */
  sent: string[];
  /** Whether its state before was read: `before` is then that state, null when it did not exist. */
  priorRead: boolean;
  before: ContactState | null;
  after: ContactState | null;
  /** The input of a write never answered (JSON text). */
  intent: string | null;
}

/** A record that cannot be read or written (a usage error: exit 2). */
export class UndoRecordError extends ImportError {}

/** The record files of one agent's directory, oldest first (their names sort by time). */
function recordFiles(agentDir: string): string[] {
  try {
    return readdirSync(agentDir)
      .filter((f) => f.endsWith('.db'))
      .sort()
      .map((f) => join(agentDir, f));
  } catch {
    return [];
  }
}

/** Every agent's records directory under `dir` (anything else there is not ours: skipped). */
function agentDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(dir, d.name));
  } catch {
    return [];
  }
}

/** An agent id as a directory name: any id, no path in it. */
function agentDirName(agentId: string): string {
  return encodeURIComponent(agentId).replace(/^\.+/, (dots) => '%2E'.repeat(dots.length));
}

/** The undo records kept for `agentId` (every agent when undefined), newest first. */
export async function listUndoRecords(dir: string, agentId?: string): Promise<UndoRecordSummary[]> {
  const files =
    agentId === undefined
      ? agentDirs(dir).flatMap(recordFiles)
      : recordFiles(join(dir, agentDirName(agentId)));
  const found: UndoRecordSummary[] = [];
  for (const file of files) {
    let record: UndoRecord | undefined;
    try {
      record = await UndoRecord.open(file);
      const meta = record.meta();
      // Counted anew unless finished: a killed import never wrote its counts.
      const counts = meta.status === 'finished' ? meta : record.counts();
      found.push({
        ...meta,
        status: meta.status === 'running' && !isWriting(meta) ? 'stopped' : meta.status,
        created: counts.created,
        updated: counts.updated,
        path: file,
      });
    } catch {
      // Being written by another process's first transaction, or not ours: not listed.
    } finally {
      record?.close();
    }
  }
  return found.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** Whether the import that keeps the record is still running (its process alive, on this host). */
export function isWriting(meta: Pick<UndoRecordMeta, 'status' | 'pid' | 'host'>): boolean {
  if (meta.status !== 'running' || meta.host !== hostname() || meta.pid === process.pid) return false;
  try {
    process.kill(meta.pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A service as records name it: a base URL without its trailing slashes, or `mock:<file>`. */
export function serviceName(service: string): string {
  return service.startsWith('mock:') ? service : service.replace(/\/+$/, '');
}

/** Removes a record's file and SQLite's files beside it. */
function removeRecord(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
}

let lastStart = 0;
/** libsql, once a record was created or opened (every record's methods run after that). */
let sqlite: typeof Database | undefined;

async function loadSqlite(): Promise<typeof Database> {
  sqlite ??= (await import('libsql')).default;
  return sqlite;
}

export class UndoRecord {
  readonly path: string;
  readonly #db: Database.Database;
  #meta: UndoRecordMeta;
  readonly #stmt: ReturnType<typeof statements>;
  /**
   * Writes made since the last commit, in order: a row's answer (external_id, id, action, state
   * after), or the external_id of a row the service refused.
   */
  #pending: ([string, string, string, string] | string)[] = [];
  #commitQueued = false;
  /** The statements that write n intents, or n answers, by n (ROWS_A_STATEMENT at most). */
  readonly #intents = new Map<number, Database.Statement>();
  readonly #answers = new Map<number, Database.Statement>();

  private constructor(path: string, db: Database.Database, meta: UndoRecordMeta) {
    this.path = path;
    this.#db = db;
    this.#meta = meta;
    this.#stmt = statements(db);
  }

  /** A new record for one import; the oldest of the agent's past RECORDS_KEPT are removed. */
  static async create(
    dir: string,
    init: Pick<UndoRecordMeta, 'agentId' | 'service' | 'input' | 'results' | 'full'>,
  ): Promise<UndoRecord> {
    const agentDir = join(dir, agentDirName(init.agentId));
    try {
      mkdirSync(agentDir, { recursive: true, mode: DIR_MODE });
      // Ours alone: it holds the contacts' data.
      for (const d of [dir, agentDir]) if ((statSync(d).mode & 0o077) !== 0) chmodSync(d, DIR_MODE);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UndoRecordError(
        `Cannot keep this import's undo record in ${agentDir}: ${reason}. ` +
          'Set CONTACTS_DATA_DIR to a directory you can write, or import without an undo record',
        { cause: error, detail: { code: 'undo_dir_unwritable', dir: agentDir, reason } },
      );
    }
    // Ids sort in the order imports started (within this process, even in one millisecond).
    const now = new Date(Math.max(Date.now(), lastStart + 1));
    lastStart = now.getTime();
    const id = `${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.(\d+)Z$/, '$1')}-${randomBytes(2).toString('hex')}`;
    const path = join(agentDir, `${id}.db`);
    const Database = await loadSqlite();
    const db = new Database(path);
    chmodSync(path, FILE_MODE);
    const meta: UndoRecordMeta = {
      ...init,
      id,
      startedAt: now.toISOString(),
      finishedAt: null,
      status: 'running',
      created: 0,
      updated: 0,
      pid: process.pid,
      host: hostname(),
      undoStartedAt: null,
      undoneAt: null,
    };
    try {
      prepare(db);
      db.exec('BEGIN');
      db.exec(SCHEMA);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
      const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      for (const [key, value] of Object.entries(meta)) put.run(key, JSON.stringify(value));
      db.exec('COMMIT');
    } catch (error) {
      db.close();
      removeRecord(path);
      throw error;
    }
    return new UndoRecord(path, db, meta);
  }

  static async open(path: string): Promise<UndoRecord> {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile())
      throw new UndoRecordError(`Cannot open the undo record ${path}: no such file`);
    const Database = await loadSqlite();
    let db: Database.Database;
    try {
      db = new Database(path, { fileMustExist: true });
    } catch (error) {
      throw new UndoRecordError(`Cannot open the undo record ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    try {
      const value = (sql: string) => (db.prepare(sql).raw().get() as [unknown] | undefined)?.[0];
      if (value('PRAGMA application_id') !== APPLICATION_ID)
        throw new UndoRecordError(`${path} is not an undo record of contacts-cli`);
      const version = value('PRAGMA user_version');
      if (version !== SCHEMA_VERSION)
        throw new UndoRecordError(
          `${path} is an undo record of another version of contacts-cli (${String(version)})`,
        );
      prepare(db);
      const meta = Object.fromEntries(
        (db.prepare('SELECT key, value FROM meta').raw().all() as [string, string][]).map(([k, v]) => [
          k,
          JSON.parse(v),
        ]),
      ) as UndoRecordMeta;
      return new UndoRecord(path, db, meta);
    } catch (error) {
      db.close();
      if (error instanceof UndoRecordError) throw error;
      throw new UndoRecordError(`Cannot read the undo record ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  meta(): UndoRecordMeta {
    return { ...this.#meta };
  }

  setMeta(changes: Partial<UndoRecordMeta>): void {
    const put = this.#db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.#transaction(() => {
      for (const [key, value] of Object.entries(changes)) put.run(key, JSON.stringify(value));
    });
    this.#meta = { ...this.#meta, ...changes };
  }

  /**
   * The directory as `fill` lists it now (each page handed to `put`) becomes the state before of
   * every contact not written yet (those written keep theirs): one transaction, committed before
   * the import writes.
   */
  async replacePrior(
    fill: (put: (page: readonly { external_id: string; state: ContactState }[]) => void) => Promise<void>,
  ): Promise<void> {
    const s = this.#stmt;
    this.#db.exec('BEGIN');
    try {
      s.dropUnwrittenPrior.run();
      await fill((page) => {
        for (const c of page) s.priorIfUnwritten.run(c.external_id, stateText(c.state));
      });
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Of these external_ids, those not written yet by this import. */
  unwritten(ids: readonly string[]): string[] {
    return ids.filter((id) => this.#stmt.written.get(id) === undefined);
  }

  /**
   * Before rows are sent: the states before of contacts not written yet (`states`; null: none
   * there), and each row's intent. Committed before it returns.
   */
  intend(
    rows: readonly { key: string; json: string; sent?: string | undefined }[],
    states: ReadonlyMap<string, ContactState | null> | undefined,
    priorRead: boolean,
  ): void {
    this.#flushPending();
    const s = this.#stmt;
    const prior = priorRead ? 1 : 0;
    this.#transaction(() => {
      if (states) for (const [id, state] of states) s.priorIfUnwritten.run(id, state && stateText(state));
      for (let from = 0; from < rows.length; from += ROWS_A_STATEMENT) {
        const to = Math.min(rows.length, from + ROWS_A_STATEMENT);
        const values: (string | number)[] = [];
        for (let i = from; i < to; i++) {
          const { key, json, sent } = rows[i]!;
          values.push(key, json, prior, sent ?? JSON.stringify(fieldsSent(json)));
        }
        this.#statementFor(this.#intents, to - from, intentsSql).run(values);
      }
    });
  }

  /** A row's answer: the contact as the service holds it now. Committed with the others of its tick. */
  landed(key: string, id: string, action: 'created' | 'updated', after: ContactState): void {
    this.#queue([key, id, action, stateText(after)]);
  }

  /** The service refused a row: it wrote nothing, so nothing of it is to be undone. */
  rejected(key: string): void {
    this.#queue(key);
  }

  /** A write, committed with the others made in the same tick (one batch's answers). */
  #queue(write: [string, string, string, string] | string): void {
    this.#pending.push(write);
    if (this.#commitQueued) return;
    this.#commitQueued = true;
    queueMicrotask(() => this.#flushPending());
  }

  /** Writes of the run resumed whose answer never came: what each sent, and its state before. */
  unanswered(): { external_id: string; intent: string; priorRead: boolean; before: ContactState | null }[] {
    this.#flushPending();
    return (
      this.#stmt.unanswered.all() as {
        external_id: string;
        intent: string;
        prior_read: number;
        before: string | null;
      }[]
    ).map((r) => ({
      external_id: r.external_id,
      intent: r.intent,
      priorRead: r.prior_read === 1,
      before: r.before === null ? null : (JSON.parse(r.before) as ContactState),
    }));
  }

  /**
   * Settles a write of the run resumed whose answer never came, by what the service holds now:
   * when it holds what the write would have made (`reached`), the write may have been what
   * created it, and its state before stays; else the write never reached it, and it is forgotten:
   * its state before is what the service holds now (`now`; null: nothing).
   */
  settle(externalId: string, reached: boolean, now: ContactState | null): void {
    this.#transaction(() => {
      if (reached) {
        this.#stmt.mayHaveCreated.run(externalId);
        return;
      }
      this.#stmt.forgetUnanswered.run(externalId);
      this.#stmt.priorIfUnwritten.run(externalId, now && stateText(now));
    });
  }

  /** Commits the answers recorded so far. */
  flush(): void {
    this.#flushPending();
  }

  #flushPending(): void {
    this.#commitQueued = false;
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    this.#transaction(() => {
      // Answers go a statement a hundred; a refusal in between is written in its place.
      const answers: string[] = [];
      const writeAnswers = () => {
        for (let from = 0; from < answers.length; from += 4 * ROWS_A_STATEMENT) {
          const to = Math.min(answers.length, from + 4 * ROWS_A_STATEMENT);
          this.#statementFor(this.#answers, (to - from) / 4, answersSql).run(answers.slice(from, to));
        }
        answers.length = 0;
      };
      for (const write of pending) {
        if (typeof write !== 'string') {
          answers.push(...write);
          continue;
        }
        writeAnswers();
        this.#stmt.forgetUnanswered.run(write);
        this.#stmt.dropIntent.run(write);
      }
      writeAnswers();
    });
  }

  /** The statement that writes `n` rows, made once per `n`. */
  #statementFor(
    made: Map<number, Database.Statement>,
    n: number,
    sql: (values: string) => string,
  ): Database.Statement {
    let statement = made.get(n);
    if (!statement) {
      statement = this.#db.prepare(sql(Array.from({ length: n }, () => '(?, ?, ?, ?)').join(', ')));
      made.set(n, statement);
    }
    return statement;
  }

  /** Contacts written, counted by what their first write did. */
  counts(): { created: number; updated: number; written: number } {
    const row = this.#stmt.counts.get() as {
      created: number | null;
      updated: number | null;
      written: number;
    };
    return { created: row.created ?? 0, updated: row.updated ?? 0, written: row.written };
  }

  /** Contacts written, `limit` at most, after the one whose `seq` is `after` (0: from the first). */
  contacts(after: number, limit: number): RecordedContact[] {
    return (this.#stmt.contacts.all(after, limit) as RecordedRow[]).map(recorded);
  }

  /** The contacts written with these external_ids, in the order they were written. */
  contactsOf(ids: readonly string[]): RecordedContact[] {
    const found: RecordedContact[] = [];
    for (const id of ids) {
      const row = this.#stmt.contact.get(id) as RecordedRow | undefined;
      if (row) found.push(recorded(row));
    }
    return found.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Keeps the directory as listed now, for `heldNow()`: the contacts the import wrote only, in a
   * temporary table (on disk when large: memory stays bounded).
   */
  async holdNow(
    fill: (
      put: (page: readonly { external_id: string; id: string; state: ContactState }[]) => void,
    ) => Promise<void>,
  ): Promise<void> {
    this.#db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS now_held (external_id TEXT PRIMARY KEY, id TEXT NOT NULL, state TEXT NOT NULL)',
    );
    this.#db.exec('DELETE FROM now_held');
    const put = this.#db.prepare(
      `INSERT OR REPLACE INTO now_held (external_id, id, state) SELECT ?1, ?2, ?3
         WHERE EXISTS (SELECT 1 FROM landed WHERE external_id = ?1)`,
    );
    await fill((page) =>
      this.#transaction(() => {
        for (const c of page) put.run(c.external_id, c.id, stateText(c.state));
      }),
    );
  }

  /** What `holdNow()` kept of these external_ids (absent: no such contact then). */
  heldNow(ids: readonly string[]): Map<string, { id: string; state: ContactState }> {
    const get = this.#db.prepare('SELECT id, state FROM now_held WHERE external_id = ?');
    const found = new Map<string, { id: string; state: ContactState }>();
    for (const external of ids) {
      const row = get.get(external) as { id: string; state: string } | undefined;
      if (row) found.set(external, { id: row.id, state: JSON.parse(row.state) as ContactState });
    }
    return found;
  }

  /** Adds to the undo's plan (see `planned()`): the external_ids it will write, kept off the heap. */
  plan(ids: readonly string[]): void {
    this.#db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS planned (seq INTEGER PRIMARY KEY, external_id TEXT NOT NULL)',
    );
    const put = this.#db.prepare('INSERT INTO planned (external_id) VALUES (?)');
    this.#transaction(() => {
      for (const id of ids) put.run(id);
    });
  }

  /** What `plan()` kept, in order, `size` at a time. */
  *planned(size: number): Generator<string[]> {
    this.#db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS planned (seq INTEGER PRIMARY KEY, external_id TEXT NOT NULL)',
    );
    const page = this.#db.prepare('SELECT seq, external_id FROM planned WHERE seq > ? ORDER BY seq LIMIT ?');
    let after = 0;
    for (;;) {
      const rows = page.all(after, size) as { seq: number; external_id: string }[];
      if (rows.length === 0) return;
      yield rows.map((r) => r.external_id);
      after = rows.at(-1)!.seq;
    }
  }

  /**
   * The import has ended (`finished`: every row has its outcome): counts kept for the list, and
   * states of contacts it never wrote dropped. A record of an import that wrote nothing is removed
   * (returns false): there is nothing to undo.
   */
  end(status: RecordStatus): boolean {
    this.#flushPending();
    const { created, updated, written } = this.counts();
    if (written === 0) {
      this.close();
      removeRecord(this.path);
      return false;
    }
    // A resume reads the directory again: states of contacts never written are of no use.
    this.#stmt.dropUnwrittenPrior.run();
    this.setMeta({ status, created, updated, finishedAt: new Date().toISOString() });
    this.#prune();
    return true;
  }

  /**
   * The agent's oldest records past RECORDS_KEPT (this one kept) are removed, but not one an
   * import still writes (another process's).
   */
  #prune(): void {
    const files = recordFiles(dirname(this.path)).filter((f) => f !== this.path);
    for (const old of files.slice(0, Math.max(0, files.length - (RECORDS_KEPT - 1)))) {
      let status: unknown;
      try {
        const db = new sqlite!(old, { fileMustExist: true, readonly: true });
        try {
          status = JSON.parse(
            ((db.prepare("SELECT value FROM meta WHERE key = 'status'").raw().get() as [string]) ?? [
              'null',
            ])[0],
          );
        } finally {
          db.close();
        }
      } catch {
        status = undefined;
      }
      if (status !== 'running') removeRecord(old);
    }
  }

  close(): void {
    if (!this.#db.open) return;
    try {
      this.#flushPending();
      // Folds the WAL back and leaves no -wal or -shm file beside the record (libsql 0.5's close()
      // may not, libsql-js #228); the next writer turns WAL on again.
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      this.#db.exec('PRAGMA journal_mode = DELETE');
    } catch {
      // Another connection reads it: it or the next opener checkpoints.
    }
    this.#db.close();
  }

  #transaction(fn: () => void): void {
    this.#db.exec('BEGIN');
    try {
      fn();
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** Intents: rows of (external_id, input, prior_read, fields sent); a second run's intent adds its fields. */
const intentsSql = (values: string) =>
  `INSERT INTO landed (external_id, intent, prior_read, sent) VALUES ${values}
   ON CONFLICT (external_id) DO UPDATE SET intent = excluded.intent, sent = (
     SELECT json_group_array(value) FROM (
       SELECT value FROM json_each(landed.sent) UNION SELECT value FROM json_each(excluded.sent)))`;

/** Answers: rows of (external_id, id, action, state after); the first answer's action stays. */
const answersSql = (values: string) =>
  `UPDATE landed SET id = v.column2, action = coalesce(landed.action, v.column3), after = v.column4,
     intent = NULL FROM (VALUES ${values}) AS v WHERE landed.external_id = v.column1`;

function prepare(db: Database.Database): void {
  // WAL with synchronous=NORMAL: a commit survives the process being killed, at no sync per commit.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
}

const RECORDED = `SELECT l.seq, l.external_id, l.id, l.action, l.after, l.intent, l.prior_read, l.sent,
  p.state AS before FROM landed l LEFT JOIN prior p USING (external_id)`;

interface RecordedRow {
  seq: number;
  external_id: string;
  id: string | null;
  action: string | null;
  after: string | null;
  intent: string | null;
  prior_read: number;
  sent: string;
  before: string | null;
}

function recorded(r: RecordedRow): RecordedContact {
  return {
    seq: r.seq,
    external_id: r.external_id,
    id: r.id,
    action: r.action === 'created' || r.action === 'updated' || r.action === 'unknown' ? r.action : null,
    priorRead: r.prior_read === 1,
    sent: JSON.parse(r.sent) as string[],
    before: r.before === null ? null : (JSON.parse(r.before) as ContactState),
    after: r.after === null ? null : (JSON.parse(r.after) as ContactState),
    intent: r.intent,
  };
}

function statements(db: Database.Database) {
  return {
    dropUnwrittenPrior: db.prepare(
      'DELETE FROM prior WHERE external_id NOT IN (SELECT external_id FROM landed)',
    ),
    priorIfUnwritten: db.prepare(
      `INSERT INTO prior (external_id, state) SELECT ?1, ?2
         WHERE NOT EXISTS (SELECT 1 FROM landed WHERE external_id = ?1)
       ON CONFLICT (external_id) DO UPDATE SET state = excluded.state`,
    ),
    written: db.prepare('SELECT 1 FROM landed WHERE external_id = ?').raw(),
    unanswered: db.prepare(
      `SELECT l.external_id, l.intent, l.prior_read, p.state AS before FROM landed l
       LEFT JOIN prior p USING (external_id) WHERE l.id IS NULL AND l.intent IS NOT NULL AND l.action IS NULL`,
    ),
    // A write of an earlier run never answered may have created the contact, whatever a later
    // answer says.
    mayHaveCreated: db.prepare("UPDATE landed SET action = 'unknown' WHERE external_id = ? AND id IS NULL"),
    forgetUnanswered: db.prepare('DELETE FROM landed WHERE external_id = ? AND id IS NULL'),
    dropIntent: db.prepare('UPDATE landed SET intent = NULL WHERE external_id = ?'),
    counts: db.prepare(
      `SELECT
         sum(l.id IS NOT NULL AND CASE WHEN l.prior_read = 1 THEN p.state IS NULL ELSE l.action = 'created' END) AS created,
         sum(l.id IS NOT NULL AND CASE WHEN l.prior_read = 1 THEN p.state IS NOT NULL ELSE l.action = 'updated' END) AS updated,
         count(*) AS written
       FROM landed l LEFT JOIN prior p USING (external_id)
       WHERE l.id IS NOT NULL OR l.intent IS NOT NULL`,
    ),
    contacts: db.prepare(`${RECORDED} WHERE l.seq > ? ORDER BY l.seq LIMIT ?`),
    contact: db.prepare(`${RECORDED} WHERE l.external_id = ?`),
  };
}

/** The fields a row's input (JSON) sets, as `fieldChanges` names them. */
export function fieldsSent(json: string): string[] {
  return fieldsOf(JSON.parse(json) as Record<string, unknown>);
}

/** The fields an input sets (those its JSON holds), as `fieldChanges` names them. */
export function fieldsOf(input: Readonly<Record<string, unknown>>): string[] {
  const fields = ['name', 'email', 'phonenumber', 'stripe_accounts'].filter((f) => input[f] !== undefined);
  const attributes = input.custom_attributes;
  if (attributes && typeof attributes === 'object')
    for (const [name, value] of Object.entries(attributes)) {
      if (value !== undefined) fields.push(`custom_attributes.${name}`);
    }
  return fields;
}
