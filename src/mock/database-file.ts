// The mock's database file: what it must be before the store uses it (SQLite, this mock's, of
// the current schema, undamaged, writable), created with that schema when new. Every refusal is
// a `MockDataFileError` saying what to do.
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import { MockDataFileError } from './errors.js';

/** `PRAGMA application_id`: marks a database as this mock's ("Cntc"). */
const APPLICATION_ID = 0x436e7463;
/**
 * `PRAGMA user_version`: the schema's version. Development builds before the first release
 * wrote 1 to 3; a file of any version but this one is refused, saying so.
 */
export const SCHEMA_VERSION = 4;
/** Bytes a page of a new database: a write puts half of SQLite's default 4096 a page into the WAL. */
const PAGE_SIZE = 2048;
/** How long a write waits for another process's transaction before answering 503. */
const BUSY_TIMEOUT_MS = 10_000;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
-- The last contact id's sequence number: ids sort in creation order, across agents.
INSERT INTO meta (key, value) VALUES ('seq', 0);
-- How many contacts each agent holds (the quota and the list's total), kept by the triggers.
CREATE TABLE agents (
  agent TEXT PRIMARY KEY,
  contacts INTEGER NOT NULL DEFAULT 0 CHECK (contacts >= 0)
) STRICT;
-- seq is the creation order, which the list follows; record is the contact's JSON as answered.
CREATE TABLE contacts (
  seq INTEGER PRIMARY KEY,
  agent TEXT NOT NULL,
  id TEXT NOT NULL UNIQUE,
  external_id TEXT NOT NULL,
  email_key TEXT,
  record TEXT NOT NULL,
  UNIQUE (agent, external_id),
  UNIQUE (agent, email_key)
) STRICT;
CREATE INDEX contacts_by_agent ON contacts (agent, seq);
CREATE TABLE attributes (
  agent TEXT NOT NULL,
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (agent, name)
) STRICT;
CREATE TRIGGER contacts_counted AFTER INSERT ON contacts BEGIN
  INSERT INTO agents (agent, contacts) VALUES (NEW.agent, 1)
    ON CONFLICT (agent) DO UPDATE SET contacts = contacts + 1;
END;
CREATE TRIGGER contacts_uncounted AFTER DELETE ON contacts BEGIN
  UPDATE agents SET contacts = contacts - 1 WHERE agent = OLD.agent;
END;
`;

const SQLITE_HEADER = 'SQLite format 3\0';

interface SqliteError extends Error {
  code?: string;
}

export const sqliteCode = (error: unknown): string => (error as SqliteError)?.code ?? '';

/** SQLite's codes for a database file whose content is not what SQLite wrote. */
export const isCorruption = (error: unknown) => /^SQLITE_(CORRUPT|NOTADB)/.test(sqliteCode(error));

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
      throw new MockDataFileError(file, `${file} is a JSON file; the mock keeps its state in SQLite`, {
        hint: `To start a database from it (it is read, never changed): contacts serve --mock --data NEW.db --seed ${file}`,
      });
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

/** What to do about a damaged database: SQLite's own recovery, or a fresh file. */
export const recoverHint = (file: string) =>
  `Stop every process using it, then recover what SQLite can into a new file (sqlite3 ${file} .recover | sqlite3 recovered.db) and use that, or move ${file} aside to start with an empty mock.`;

function damagedFile(file: string, detail: string, cause?: unknown): MockDataFileError {
  return new MockDataFileError(file, `The mock database ${file} is damaged: ${detail}`, {
    cause,
    hint: recoverHint(file),
  });
}

/**
 * When a database is read page by page at open: `always`, or `after-unclean-stop`, when the last
 * process to use it did not close it (a `-wal` file with frames left in it beside it): a clean
 * close folds the WAL into the database and empties it.
 */
export type IntegrityCheck = 'always' | 'after-unclean-stop';

/** Whether the database at `file` is to be read page by page at open. */
export function integrityCheckDue(file: string, when: IntegrityCheck): boolean {
  if (when === 'always' || file === ':memory:') return true;
  try {
    return statSync(`${file}-wal`).size > 0;
  } catch {
    // No WAL: the last close was clean (or there never was a database).
    return false;
  }
}

/**
 * The database at `file` (or `:memory:`), checked page by page (see `IntegrityCheck`), in WAL
 * mode, with the current schema; refused with a `MockDataFileError` when it cannot be this mock's.
 */
export function openDatabase(file: string, check: IntegrityCheck = 'always'): Database.Database {
  // Decided before SQLite opens the file and makes a WAL of its own.
  const due = integrityCheckDue(file, check);
  if (file !== ':memory:') prepareDataFile(file);
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    if (isCorruption(error)) throw damagedFile(file, (error as Error).message, error);
    throw new MockDataFileError(file, `Cannot open mock database ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    checkAndPrepare(db, file, due);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function checkAndPrepare(db: Database.Database, file: string, pageByPage: boolean): void {
  // libsql's get() ignores pluck mode: a value is read as a raw row.
  const value = (sql: string) => (db.prepare(sql).raw().get() as [unknown] | undefined)?.[0];
  let version: number;
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Every page read once: a truncated file, or one with bytes overwritten, is named now
    // rather than met by some later request (and written further meanwhile).
    if (pageByPage) {
      const problems = (db.prepare('PRAGMA quick_check(5)').raw().all() as [string][]).map((r) => r[0]);
      if (problems.length !== 1 || problems[0] !== 'ok') throw damagedFile(file, problems.join('; '));
    }
    const appId = value('PRAGMA application_id');
    const tables = value("SELECT count(*) FROM sqlite_schema WHERE type = 'table'") as number;
    if (tables > 0 && appId !== APPLICATION_ID) {
      throw new MockDataFileError(
        file,
        `${file} is a SQLite database of another application, not this mock's`,
      );
    }
    version = tables === 0 ? 0 : (value('PRAGMA user_version') as number);
  } catch (error) {
    if (error instanceof MockDataFileError) throw error;
    if (isCorruption(error)) throw damagedFile(file, (error as Error).message, error);
    throw new MockDataFileError(file, `Cannot read the mock database ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (version !== 0 && version !== SCHEMA_VERSION) {
    throw new MockDataFileError(
      file,
      `${file} holds a mock database of schema ${version}, written by another version of contacts-cli; this one reads schema ${SCHEMA_VERSION} only`,
      { hint: `Move ${file} aside to start with an empty mock, or use the contacts-cli that wrote it.` },
    );
  }
  try {
    // A new database's pages are small: a write puts every page it touched (the contact's row,
    // its four index entries, the agent's count, the id sequence) into the WAL at its commit, and
    // most contacts take a few hundred bytes. Fixed once the file has a page, so set before WAL.
    if (version === 0) db.pragma(`page_size = ${PAGE_SIZE}`);
    if (file !== ':memory:') {
      // WAL: readers never wait for the writer, and several processes share the file. NORMAL:
      // a commit is in the WAL (the OS holds it) before the call returns, so a killed process
      // loses nothing it acknowledged; SQLite syncs the WAL at each checkpoint.
      const mode = value('PRAGMA journal_mode = WAL');
      if (mode !== 'wal') throw new Error(`cannot put it in WAL mode (got ${String(mode)})`);
    }
    db.pragma('synchronous = NORMAL');
    // Taking the write lock proves the file (and its WAL beside it) can be written; another
    // process creating the schema at the same moment is seen once the lock is ours.
    db.exec('BEGIN IMMEDIATE');
    if (value("SELECT count(*) FROM sqlite_schema WHERE name = 'contacts'") === 0) {
      db.exec(SCHEMA);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw new MockDataFileError(file, `Cannot write the mock database ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
