// The mock's SQLite file opened directly: created private with the schema, refused with a reason
// when it cannot be this mock's, checked page by page when asked.
import { statSync } from 'node:fs';
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import {
  integrityCheckDue,
  isCorruption,
  openDatabase,
  recoverHint,
  SCHEMA_VERSION,
  sqliteCode,
} from '../../src/mock/database-file.js';
import { MockDataFileError } from '../../src/mock/errors.js';
import { useTempHome } from '../helpers/cli.js';

const home = useTempHome();

function refusal(file: string): MockDataFileError {
  try {
    openDatabase(file).close();
  } catch (error) {
    expect(error).toBeInstanceOf(MockDataFileError);
    expect((error as MockDataFileError).file).toBe(file);
    return error as MockDataFileError;
  }
  throw new Error(`expected ${file} to be refused`);
}

describe('openDatabase', () => {
  it('creates an absent file owner-only, in WAL mode, with this schema, and opens it again', () => {
    const file = join(home.dir, 'mock.db');
    const db = openDatabase(file);
    const value = (sql: string) => (db.prepare(sql).raw().get() as unknown[])[0];
    expect(value('PRAGMA journal_mode')).toBe('wal');
    expect(value('PRAGMA user_version')).toBe(SCHEMA_VERSION);
    // Small pages: a write puts each page it touched into the WAL.
    expect(value('PRAGMA page_size')).toBe(2048);
    db.prepare("INSERT INTO agents (agent) VALUES ('a1')").run();
    db.close();
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = openDatabase(file);
    expect(again.prepare('SELECT agent FROM agents').raw().all()).toEqual([['a1']]);
    again.close();
  });

  it('keeps the page size of a database that has pages already', () => {
    const file = join(home.dir, 'big-pages.db');
    // Pages of another size than the mock's own, written before the mock first opens the file.
    const raw = new Database(file);
    raw.pragma('page_size = 8192');
    raw.exec('CREATE TABLE t (a); DROP TABLE t');
    raw.close();
    const db = openDatabase(file);
    const value = (sql: string) => (db.prepare(sql).raw().get() as unknown[])[0];
    expect(value('PRAGMA page_size')).toBe(8192);
    expect(value('PRAGMA user_version')).toBe(SCHEMA_VERSION);
    db.prepare("INSERT INTO agents (agent) VALUES ('a2')").run();
    expect(db.prepare('SELECT agent FROM agents').raw().all()).toEqual([['a2']]);
    db.close();
  });

  it('opens an empty file as a new database', () => {
    const file = join(home.dir, 'empty.db');
    return writeFile(file, '').then(() => {
      openDatabase(file).close();
      expect(statSync(file).size).toBeGreaterThan(0);
    });
  });

  it('refuses JSON with how to seed from it, and any other file as no SQLite', async () => {
    const json = join(home.dir, 'old.json');
    await writeFile(json, '{"contacts": []}');
    const error = refusal(json);
    expect(error.message).toBe(`${json} is a JSON file; the mock keeps its state in SQLite`);
    expect(error.hint).toContain(`--seed ${json}`);
    const text = join(home.dir, 'notes.txt');
    await writeFile(text, 'hello, this is not a database');
    expect(refusal(text).message).toBe(
      `${text} is not a SQLite database (the mock keeps its state in SQLite)`,
    );
  });

  it('refuses a directory, a missing directory, another application’s database and another schema', async () => {
    const dir = join(home.dir, 'dir.db');
    await mkdir(dir);
    expect(refusal(dir).message).toMatch(/it is a directory$/);
    expect(refusal(join(home.dir, 'nowhere', 'x.db')).message).toMatch(/its directory does not exist$/);
    const other = join(home.dir, 'other.db');
    const foreign = new Database(other);
    foreign.exec('CREATE TABLE t (x)');
    foreign.close();
    expect(refusal(other).message).toBe(
      `${other} is a SQLite database of another application, not this mock's`,
    );
    const old = join(home.dir, 'old.db');
    openDatabase(old).close();
    const raw = new Database(old);
    raw.pragma('user_version = 3');
    raw.close();
    expect(refusal(old).message).toMatch(/holds a mock database of schema 3, .* reads schema 4 only$/);
  });

  it('names a damaged file, read page by page, and says how to recover it', async () => {
    const file = join(home.dir, 'damaged.db');
    const db = openDatabase(file);
    const insert = db.prepare('INSERT INTO agents (agent) VALUES (?)');
    for (let i = 0; i < 3000; i++) insert.run(`agent-${i}-${'x'.repeat(40)}`);
    db.close();
    await truncate(file, Math.floor(statSync(file).size / 2));
    const error = refusal(file);
    expect(error.message).toMatch(new RegExp(`^The mock database ${file} is damaged: `));
    expect(error.hint).toBe(recoverHint(file));
  });
});

describe('helpers', () => {
  it('integrityCheckDue: always, or after an unclean stop (a WAL left with frames)', async () => {
    const file = join(home.dir, 'm.db');
    expect(integrityCheckDue(file, 'always')).toBe(true);
    expect(integrityCheckDue(':memory:', 'after-unclean-stop')).toBe(true);
    expect(integrityCheckDue(file, 'after-unclean-stop')).toBe(false);
    await writeFile(`${file}-wal`, 'frames');
    expect(integrityCheckDue(file, 'after-unclean-stop')).toBe(true);
  });

  it('sqliteCode, isCorruption and recoverHint', () => {
    expect(sqliteCode(Object.assign(new Error('x'), { code: 'SQLITE_BUSY' }))).toBe('SQLITE_BUSY');
    expect(sqliteCode(undefined)).toBe('');
    expect(isCorruption(Object.assign(new Error('x'), { code: 'SQLITE_CORRUPT_VTAB' }))).toBe(true);
    expect(isCorruption(Object.assign(new Error('x'), { code: 'SQLITE_NOTADB' }))).toBe(true);
    expect(isCorruption(Object.assign(new Error('x'), { code: 'SQLITE_FULL' }))).toBe(false);
    expect(recoverHint('/d/m.db')).toContain('sqlite3 /d/m.db .recover');
  });
});
