// The SQLite data file: what a user can open with sqlite3, what survives a restart and a kill -9,
// and the adversarial cases of the earlier JSON store (shared files, full disks, unwritable paths,
// large records, file modes and symlinks).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod, lstat, mkdir, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'libsql';
import { describe, expect, it, onTestFinished } from 'vitest';
import { paths } from '../../src/api/index.js';
import { createMockState } from '../../src/mock/handler.js';
import { respond } from '../../src/mock/respond.js';
import { startMockServer } from '../../src/mock/server.js';
import { openSqliteStore, RECORD_CACHE_CHARS } from '../../src/mock/sqlite-store.js';
import { BIN } from '../helpers/cli.js';
import { AGENT, api, startTestMock, storedContact, TEST_KEY, tempDir } from '../helpers/mock.js';

/** A raw connection to the database file, closed when the test ends. */
function sqlite(file: string) {
  const db = new Database(file);
  onTestFinished(() => {
    db.close();
  });
  const values = (sql: string, ...params: unknown[]) =>
    (
      db
        .prepare(sql)
        .raw()
        .all(...params) as unknown[][]
    ).map((r) => r[0]);
  return { db, values };
}

describe('serve --mock --data: a SQLite database', () => {
  it('keeps contacts and attributes across a restart, with uniqueness and id order', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'nested', 'mock.db');
    await mkdir(join(dir, 'nested'));
    const first = await startTestMock({ dataFile });
    const client = api(first.url);
    await client.post(paths.attributes(AGENT), { name: 'plan', type: 'text' });
    const created = await client.post(paths.contacts(AGENT), {
      external_id: 'a',
      email: 'a@example.com',
      custom_attributes: { plan: 'pro' },
    });
    await first.close();

    const second = await startTestMock({ dataFile });
    const again = api(second.url);
    expect((await again.get(paths.contact(AGENT, 'a'))).body.data).toEqual(created.body.data);
    expect((await again.get(paths.attributes(AGENT))).body.data).toHaveLength(1);
    expect(
      (await again.post(paths.contacts(AGENT), { external_id: 'b', email: 'A@example.com' })).status,
    ).toBe(409);
    const b = (await again.post(paths.contacts(AGENT), { external_id: 'b' })).body.data;
    expect(b.id > created.body.data.id).toBe(true);
  });

  it('is a WAL database readable by its owner only, whose schema refuses duplicates itself', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'mock.db');
    const server = await startTestMock({ dataFile });
    await api(server.url).post(paths.contacts(AGENT), { external_id: 'a', email: 'a@example.com' });
    expect((await stat(dataFile)).mode & 0o777).toBe(0o600);
    const { db, values } = sqlite(dataFile);
    expect(values('PRAGMA journal_mode')).toEqual(['wal']);
    expect(values('PRAGMA integrity_check')).toEqual(['ok']);
    expect(values('SELECT external_id FROM contacts WHERE agent = ?', AGENT)).toEqual(['a']);
    // Not only the code: a writer going around it meets the schema's constraints.
    const insert = db.prepare(
      'INSERT INTO contacts (agent, id, external_id, email_key, record) VALUES (?, ?, ?, ?, ?)',
    );
    expect(() => insert.run(AGENT, 'ct_x', 'other', 'a@example.com', '{}')).toThrow(/UNIQUE/);
    expect(() => insert.run(AGENT, 'ct_y', 'a', null, '{}')).toThrow(/UNIQUE/);
    expect(values('SELECT contacts FROM agents WHERE agent = ?', AGENT)).toEqual([1]);
  });

  it('keeps the mode of an existing file and writes through a symlink', async () => {
    const dir = await tempDir();
    const real = join(dir, 'real.db');
    const link = join(dir, 'link.db');
    openSqliteStore(real).close();
    await chmod(real, 0o640);
    await symlink(real, link);
    const server = await startTestMock({ dataFile: link });
    expect((await api(server.url).post(paths.contacts(AGENT), { external_id: 'through' })).status).toBe(201);
    await server.close();
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(real);
    expect((await stat(real)).mode & 0o777).toBe(0o640);
    expect(sqlite(real).values('SELECT external_id FROM contacts')).toEqual(['through']);
  });

  it('creates the file a dangling symlink names, private, and writes through the link', async () => {
    const dir = await tempDir();
    const real = join(dir, 'not-yet.db');
    const link = join(dir, 'link.db');
    await symlink(real, link);
    const server = await startTestMock({ dataFile: link });
    expect((await api(server.url).post(paths.contacts(AGENT), { external_id: 'through' })).status).toBe(201);
    await server.close();
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await stat(real)).mode & 0o777).toBe(0o600);
    expect(sqlite(real).values('SELECT external_id FROM contacts')).toEqual(['through']);
  });

  it("refuses files it cannot use, saying why: JSON of an earlier version, not SQLite, another application's", async () => {
    const dir = await tempDir();
    const json = join(dir, 'old.json');
    await writeFile(json, '{"version":1,"seq":0,"agents":{}}');
    await expect(startMockServer({ dataFile: json })).rejects.toMatchObject({
      message: expect.stringContaining('JSON data file of an earlier contacts-cli'),
      hint: expect.stringContaining(`--seed ${json}`),
    });
    const text = join(dir, 'notes.db');
    await writeFile(text, 'hello');
    await expect(startMockServer({ dataFile: text })).rejects.toThrow(/is not a SQLite database/);
    const other = join(dir, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    await expect(startMockServer({ dataFile: other })).rejects.toThrow(/another application/);
    // Nothing was written into any of them.
    expect(sqlite(other).values("SELECT name FROM sqlite_schema WHERE type = 'table'")).toEqual(['t']);
  });

  it("refuses to start on a path it cannot write (as a user without root's rights)", async () => {
    const dir = await tempDir();
    await chmod(dir, 0o755);
    const asRoot = process.getuid?.() === 0;
    const run = (file: string) => {
      try {
        execFileSync(process.execPath, [BIN, 'serve', '--mock', '--port', '0', '--data', file], {
          env: { PATH: process.env.PATH, HOME: dir, CONTACTS_CONFIG_DIR: join(dir, 'config') },
          encoding: 'utf8',
          stdio: 'pipe',
          timeout: 10_000,
          ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
        });
        return { code: 0, stderr: '' };
      } catch (error) {
        const e = error as { status: number; stderr: string };
        return { code: e.status, stderr: e.stderr };
      }
    };
    const readOnly = join(dir, 'readonly.db');
    openSqliteStore(readOnly).close();
    // Root's file and directory, to `nobody`; to the user running the test, read-only ones.
    await chmod(readOnly, asRoot ? 0o644 : 0o444);
    const r = run(readOnly);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Cannot write the mock database ${readOnly}`);
    if (!asRoot) {
      await chmod(dir, 0o555);
      onTestFinished(() => chmod(dir, 0o755));
    }
    const inRootsDir = run(join(dir, 'new.db'));
    expect(inRootsDir.code).toBe(2);
    expect(inRootsDir.stderr).toContain('Cannot write the mock database');
  });

  it('shares one file between two servers: writes of each seen by the other, uniqueness across both', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'shared.db');
    const a = await startTestMock({ dataFile });
    const b = await startTestMock({ dataFile });
    const clientA = api(a.url);
    const clientB = api(b.url);
    // The same external_ids from both at once: one contact each, never two.
    const writes = Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? clientA : clientB).post(paths.contacts(AGENT), { external_id: `k${i % 10}`, name: `n${i}` }),
    );
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect((await clientA.get(`${paths.contacts(AGENT)}?per_page=100`)).body.total).toBe(10);
    expect((await clientB.get(`${paths.contacts(AGENT)}?per_page=100`)).body.total).toBe(10);
    await clientA.post(paths.contacts(AGENT), { external_id: 'x', email: 'one@example.com' });
    expect(
      (await clientB.post(paths.contacts(AGENT), { external_id: 'y', email: 'ONE@example.com' })).status,
    ).toBe(409);
    // A definition made through one is a definition for the other's validation at once.
    await clientA.post(paths.attributes(AGENT), { name: 'seats', type: 'number' });
    const typed = await clientB.post(paths.contacts(AGENT), {
      external_id: 'z',
      custom_attributes: { seats: 'x' },
    });
    expect(typed.status).toBe(400);
  });

  it('answers large records without crashing (a list of 1 MB attributes)', async () => {
    const dir = await tempDir();
    const server = await startTestMock({ dataFile: join(dir, 'big.db') });
    const client = api(server.url);
    await client.post(paths.attributes(AGENT), { name: 'notes', type: 'text' });
    const big = 'x'.repeat(1_000_000);
    for (let i = 0; i < 12; i++) {
      const r = await client.post(paths.contacts(AGENT), {
        external_id: `big${i}`,
        custom_attributes: { notes: big },
      });
      expect(r.status).toBe(201);
    }
    const list = await client.get(`${paths.contacts(AGENT)}?per_page=100`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(12);
    expect(list.body.data[11].custom_attributes.notes).toHaveLength(1_000_000);
  });
});

/** Whether this machine lets the tests mount a small tmpfs (root, and a container that allows it). */
const canMount = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'contacts-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

describe.runIf(canMount)('a full disk', () => {
  it('answers a write it cannot commit with a 5xx, never a 2xx, and keeps every write it acknowledged', async () => {
    const dir = await tempDir();
    const mnt = join(dir, 'small');
    await mkdir(mnt);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt]);
    onTestFinished(() => {
      execFileSync('umount', ['-l', mnt]);
    });
    const dataFile = join(mnt, 'mock.db');
    const server = await startMockServer({ port: 0, dataFile });
    const client = api(server.url);
    const acked: string[] = [];
    let refused: number | undefined;
    for (let i = 0; i < 2000 && refused === undefined; i++) {
      const r = await client.post(paths.contacts(AGENT), { external_id: `full${i}`, name: 'n'.repeat(255) });
      if (r.status === 201) acked.push(`full${i}`);
      else refused = r.status;
    }
    expect(refused).toBe(507);
    await server.close();
    const store = openSqliteStore(dataFile);
    onTestFinished(() => store.close());
    expect(store.contacts(AGENT).map((c) => c.external_id)).toEqual(acked);
  });
});

describe('kill -9', () => {
  it('loses no acknowledged write under concurrent writers and leaves a database that passes integrity_check', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'killed.db');
    const acked = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const child = spawn(
        process.execPath,
        [BIN, 'serve', '--mock', '--port', '0', '--data', dataFile, '-q'],
        {
          env: { PATH: process.env.PATH, HOME: dir, CONTACTS_CONFIG_DIR: join(dir, 'config') },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const url = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout! }).once('line', resolve),
      );
      let stop = false;
      let n = 0;
      const target = (round + 1) * 300;
      let reached: () => void = () => {};
      const enough = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const writer = async (w: number) => {
        while (!stop) {
          const id = `r${round}-w${w}-${n++}`;
          const batch = n % 3 === 0;
          const body = batch
            ? { users: [0, 1, 2].map((j) => ({ external_id: `${id}-${j}`, name: id })) }
            : { external_id: id, name: id };
          try {
            const res = await fetch(`${url}${paths.contacts(AGENT)}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            await res.arrayBuffer();
            if (res.status === 200 || res.status === 201) {
              if (batch) for (const j of [0, 1, 2]) acked.add(`${id}-${j}`);
              else acked.add(id);
              if (acked.size >= target) reached();
            }
          } catch {
            return; // the server is gone
          }
        }
      };
      const writers = Array.from({ length: 8 }, (_, w) => writer(w));
      // Killed mid-stream, once a few hundred writes were answered.
      await enough;
      child.kill('SIGKILL');
      stop = true;
      await exited;
      await Promise.all(writers);
    }
    const { values } = sqlite(dataFile);
    expect(values('PRAGMA integrity_check')).toEqual(['ok']);
    const stored = new Set(values('SELECT external_id FROM contacts WHERE agent = ?', AGENT) as string[]);
    const missing = [...acked].filter((id) => !stored.has(id));
    expect(acked.size).toBeGreaterThanOrEqual(900);
    expect(missing).toEqual([]);
  });
});

/** The schema of version 2, as it shipped: every insert counted by a trigger. */
const SCHEMA_2 = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
  INSERT INTO meta VALUES ('seq', 1);
  CREATE TABLE agents (agent TEXT PRIMARY KEY, contacts INTEGER NOT NULL DEFAULT 0 CHECK (contacts >= 0),
    deletes INTEGER NOT NULL DEFAULT 0) STRICT;
  CREATE TABLE contacts (seq INTEGER PRIMARY KEY, agent TEXT NOT NULL, id TEXT NOT NULL UNIQUE, external_id TEXT NOT NULL,
    email_key TEXT, record TEXT NOT NULL, UNIQUE (agent, external_id), UNIQUE (agent, email_key)) STRICT;
  CREATE INDEX contacts_by_agent ON contacts (agent, seq);
  CREATE TABLE attributes (agent TEXT NOT NULL, name TEXT NOT NULL, position INTEGER NOT NULL,
    record TEXT NOT NULL, PRIMARY KEY (agent, name)) STRICT;
  CREATE TRIGGER contacts_counted AFTER INSERT ON contacts BEGIN
    INSERT INTO agents (agent, contacts) VALUES (NEW.agent, 1)
      ON CONFLICT (agent) DO UPDATE SET contacts = contacts + 1; END;
  CREATE TRIGGER contacts_uncounted AFTER DELETE ON contacts BEGIN
    UPDATE agents SET contacts = contacts - 1, deletes = deletes + 1 WHERE agent = OLD.agent; END;`;

/** Version 1 (a development build): the same without the delete count. */
const SCHEMA_1 = SCHEMA_2.replace(',\n    deletes INTEGER NOT NULL DEFAULT 0) STRICT;', ') STRICT;').replace(
  ', deletes = deletes + 1 WHERE',
  ' WHERE',
);

describe('the SQLite store under group commit', () => {
  const A = 'agent-a';
  const contact = storedContact;

  /** A database as an earlier schema (`schema`, its SQL) left it, holding one contact: `old`, id x1. */
  function olderDatabase(file: string, version: number, schema: string): void {
    const db = new Database(file);
    try {
      db.exec(`${schema}\n      PRAGMA application_id = ${0x436e7463}; PRAGMA user_version = ${version};`);
      db.prepare('INSERT INTO contacts VALUES (1, ?, ?, ?, NULL, ?)').run(
        A,
        'x1',
        'old',
        JSON.stringify(contact('x1', 'old')),
      );
    } finally {
      db.close();
    }
  }

  it('goes on creating after a restore of hand-written ids across agents with a low seq', async () => {
    const store = openSqliteStore(join(await tempDir(), 'r.db'));
    onTestFinished(() => store.close());
    store.restore({
      version: 1,
      seq: 0,
      agents: {
        a: { contacts: [contact('x1', 'one')], attributes: [] },
        b: { contacts: [contact('x2', 'two')], attributes: [] },
      },
    });
    await store.pending();
    expect(store.upsertContact('a', { external_id: 'new' }).created).toBe(true);
    await store.pending();
    expect(store.count('a')).toBe(2);
  });

  it('updates that keep the keys and updates that change them, in one turn with a waiting insert, read back from the file', async () => {
    const file = join(await tempDir(), 'u.db');
    const store = openSqliteStore(file);
    onTestFinished(() => store.close());
    store.upsertContact(A, { external_id: 'keep', name: 'Keep', email: 'Keep@Example.com' });
    store.upsertContact(A, { external_id: 'move', name: 'Move', email: 'move@example.com' });
    await store.pending();
    // One turn: a contact created (its row waits), then updated with its keys kept; an older
    // contact updated with its keys kept; another given a new email.
    store.upsertContact(A, { external_id: 'fresh', name: 'Fresh', email: 'fresh@example.com' });
    store.upsertContact(A, { external_id: 'fresh', name: 'Fresh 2' });
    store.upsertContact(A, { external_id: 'keep', name: 'Keep 2', custom_attributes: {} });
    store.upsertContact(A, { external_id: 'move', email: 'moved@example.com' });
    // Only the letter case of the address: the key stays, the record shows the new case.
    store.upsertContact(A, { external_id: 'keep', email: 'KEEP@example.com' });
    await store.pending();

    const other = openSqliteStore(file);
    onTestFinished(() => other.close());
    expect(other.findContact(A, 'fresh')).toMatchObject({ name: 'Fresh 2', email: 'fresh@example.com' });
    expect(other.findContact(A, 'keep')).toMatchObject({ name: 'Keep 2', email: 'KEEP@example.com' });
    expect(other.findContact(A, 'move')).toMatchObject({ name: 'Move', email: 'moved@example.com' });
    // The email index: kept and new addresses taken, the old one free.
    for (const email of ['keep@example.com', 'fresh@example.com', 'moved@example.com']) {
      expect(() => other.upsertContact(A, { external_id: 'thief', email })).toThrow(
        expect.objectContaining({ status: 409 }),
      );
    }
    expect(other.upsertContact(A, { external_id: 'thief', email: 'move@example.com' }).created).toBe(true);
    await other.pending();
    const db = new Database(file, { readonly: true });
    onTestFinished(() => {
      db.close();
    });
    const rows = db.prepare('SELECT external_id, email_key FROM contacts ORDER BY seq').raw().all();
    expect(rows).toEqual([
      ['keep', 'keep@example.com'],
      ['move', 'moved@example.com'],
      ['fresh', 'fresh@example.com'],
      ['thief', 'move@example.com'],
    ]);
  });

  it('atomically: a failing function undoes its own writes (the sequence too) and no other write of the turn', async () => {
    const store = openSqliteStore(join(await tempDir(), 'a.db'));
    onTestFinished(() => store.close());
    store.batchUpsert(A, { users: [{ external_id: 'a' }, { external_id: 'b' }, { external_id: 'c' }] });
    await store.pending();
    store.upsertContact(A, { external_id: 'same-turn' });
    expect(() =>
      store.atomically(() => {
        store.reset();
        throw new Error('a seed that breaks');
      }),
    ).toThrow('a seed that breaks');
    await store.pending();
    expect(store.contacts(A).map((c) => c.external_id)).toEqual(['a', 'b', 'c', 'same-turn']);
    // The sequence was not set back by the undone reset: creating still works.
    expect(store.upsertContact(A, { external_id: 'd' }).created).toBe(true);
    await store.pending();
    expect(store.count(A)).toBe(5);
  });

  it('refuses an email taken in the same turn, in the table or by a row still waiting, with and without a quota', async () => {
    for (const maxContacts of [undefined, 10]) {
      // With a quota the count is read between the two lookups, which inserts the waiting rows first.
      const store = openSqliteStore(join(await tempDir(), 'e.db'), { maxContacts });
      onTestFinished(() => store.close());
      store.upsertContact(A, { external_id: 'stored', email: 'Taken@example.com' });
      await store.pending();
      store.upsertContact(A, { external_id: 'waiting', email: 'also@example.com' });
      expect(() => store.upsertContact(A, { external_id: 'x', email: 'taken@example.com' })).toThrow(
        'Email already exists',
      );
      expect(() => store.upsertContact(A, { external_id: 'y', email: 'ALSO@example.com' })).toThrow(
        'Email already exists',
      );
      // Its own email again, and an email given up in this turn, are no conflict.
      expect(store.upsertContact(A, { external_id: 'waiting', email: 'also@example.com' }).created).toBe(
        false,
      );
      store.upsertContact(A, { external_id: 'stored', email: 'moved@example.com' });
      expect(store.upsertContact(A, { external_id: 'z', email: 'taken@example.com' }).created).toBe(true);
      await store.pending();
      expect(store.contacts(A).map((c) => [c.external_id, c.email])).toEqual([
        ['stored', 'moved@example.com'],
        ['waiting', 'also@example.com'],
        ['z', 'taken@example.com'],
      ]);
    }
  });

  it("two stores of one process on one file: open, read and page each other's writes at once", async () => {
    const file = join(await tempDir(), 'two.db');
    const s1 = openSqliteStore(file);
    onTestFinished(() => s1.close());
    s1.batchUpsert(A, { users: Array.from({ length: 10 }, (_, i) => ({ external_id: `e${i}` })) });
    // Opened while s1 holds the turn's transaction: no wait on itself.
    const s2 = openSqliteStore(file);
    onTestFinished(() => s2.close());
    expect(s2.findContact(A, 'e9')?.external_id).toBe('e9');
    const page2 = () => s1.listContacts(A, { page: 2, per_page: 4 }).data.map((c) => c.external_id);
    expect(page2()).toEqual(['e4', 'e5', 'e6', 'e7']);
    s2.deleteContact(A, 'e1');
    await s2.pending();
    s1.deleteContact(A, 'e9');
    await s1.pending();
    expect(page2()).toEqual(['e5', 'e6', 'e7', 'e8']);
  });

  it('counts the contacts each of two stores on one file creates, for the quota and the totals', async () => {
    const file = join(await tempDir(), 'counts.db');
    const s1 = openSqliteStore(file, { maxContacts: 4 });
    onTestFinished(() => s1.close());
    const s2 = openSqliteStore(file, { maxContacts: 4 });
    onTestFinished(() => s2.close());
    s1.upsertContact(A, { external_id: 'a1', email: 'a1@example.com' });
    s1.batchUpsert(A, { users: [{ external_id: 'a2' }, { external_id: 'a3' }] });
    // s2 sees s1's rows before they are committed, and the count they add.
    expect(s2.count(A)).toBe(3);
    expect(() => s2.upsertContact(A, { external_id: 'b1', email: 'A1@example.com' })).toThrow(
      expect.objectContaining({ status: 409 }),
    );
    s2.upsertContact(A, { external_id: 'b1' });
    await s2.pending();
    expect(() => s1.upsertContact(A, { external_id: 'a4' })).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    s1.deleteContact(A, 'a2');
    s1.upsertContact(A, { external_id: 'a4' });
    await s1.pending();
    expect([s1.count(A), s2.count(A)]).toEqual([4, 4]);
    expect(s2.listContacts(A, { page: 1, per_page: 10 }).total).toBe(4);
    expect(sqlite(file).values('SELECT contacts FROM agents WHERE agent = ?', A)).toEqual([4]);
  });

  it('opens a database of schema 2 (a trigger counted each insert), counts its own, and still counts an older process still writing', async () => {
    const file = join(await tempDir(), 'v2.db');
    olderDatabase(file, 2, SCHEMA_2);
    const store = openSqliteStore(file);
    onTestFinished(() => store.close());
    expect(store.count(A)).toBe(1);
    store.upsertContact(A, { external_id: 'new' });
    await store.pending();
    expect(store.count(A)).toBe(2);
    const { db: older, values } = sqlite(file);
    expect(values('PRAGMA user_version')).toEqual([3]);
    expect(values('SELECT contacts FROM agents WHERE agent = ?', A)).toEqual([2]);
    // The store counted its own row; the trigger counts only rows it did not.
    expect(values('SELECT external_id FROM contacts WHERE counted = 1')).toEqual(['new']);
    // A process of schema 2, started before the move and still running, inserts as it always did.
    older
      .prepare(
        'INSERT INTO contacts (seq, agent, id, external_id, email_key, record) VALUES (?, ?, ?, ?, NULL, ?)',
      )
      .run(1000, A, 'x1000', 'older', JSON.stringify(contact('x1000', 'older')));
    expect(store.count(A)).toBe(3);
    for (const id of ['old', 'new', 'older']) store.deleteContact(A, id);
    await store.pending();
    expect(store.count(A)).toBe(0);
  });

  it('a waiting insert that fails fails the writes of its turn, not a read of committed data in that turn', async () => {
    const file = join(await tempDir(), 'failing-insert.db');
    const store = openSqliteStore(file);
    onTestFinished(() => store.close());
    const old = store.upsertContact(A, { external_id: 'old' }).contact;
    await store.pending();
    // Stands for any insert failure (a full disk, an I/O error): a row the database refuses.
    const { db } = sqlite(file);
    db.exec(
      "CREATE TRIGGER boom BEFORE INSERT ON contacts WHEN NEW.external_id = 'boom' BEGIN SELECT RAISE(ABORT, 'insert failed'); END;",
    );
    const state = createMockState({ store, onError: () => {} });
    const call = async (method: string, path: string, body?: unknown) => {
      const outcome = await respond(state, {
        method,
        path,
        query: new URLSearchParams(),
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return outcome.drop ? 'dropped' : outcome.response.status;
    };
    // One turn: the upsert (its insert waits for the end of the turn), then a GET of another contact.
    const [upsert, get] = await Promise.all([
      call('POST', `/api/v1/chatbots/${A}/contacts`, { external_id: 'boom' }),
      call('GET', `/api/v1/chatbots/${A}/contacts/${old.id}`),
    ]);
    expect({ upsert, get }).toEqual({ upsert: 500, get: 200 });
    expect(store.count(A)).toBe(1);
  });

  it('updates a contact it met before from the record the table holds now, whoever changed it since', async () => {
    const file = join(await tempDir(), 'records.db');
    const s1 = openSqliteStore(file);
    onTestFinished(() => s1.close());
    for (const id of ['u1', 'u2', 'u3', 'u4']) s1.upsertContact(A, { external_id: id, name: `${id} first` });
    await s1.pending();
    // Read once, so s1 keeps them decoded.
    for (const id of ['u1', 'u2', 'u3', 'u4']) expect(s1.findContact(A, id)?.name).toBe(`${id} first`);

    // Another store on the file gives u1 an email and deletes u2; sqlite3 renames u3 by hand.
    const s2 = openSqliteStore(file);
    onTestFinished(() => s2.close());
    s2.upsertContact(A, { external_id: 'u1', email: 'u1@example.com' });
    s2.deleteContact(A, 'u2');
    await s2.pending();
    const { db } = sqlite(file);
    db.prepare(
      "UPDATE contacts SET record = json_set(record, '$.name', 'by hand') WHERE external_id = 'u3'",
    ).run();

    // Read outside any write of s1's: what the others committed, not what s1 kept.
    expect(s1.findContact(A, 'u1')?.email).toBe('u1@example.com');
    expect(s1.findContact(A, 'u2')).toBeUndefined();
    expect(s1.getContact(A, 'u3').name).toBe('by hand');

    expect(s1.upsertContact(A, { external_id: 'u1', name: 'u1 second' }).contact).toMatchObject({
      name: 'u1 second',
      email: 'u1@example.com',
    });
    // Gone from the table: created again, not an update of a row that is no longer there.
    expect(s1.upsertContact(A, { external_id: 'u2', name: 'u2 again' }).created).toBe(true);
    expect(s1.upsertContact(A, { external_id: 'u3', email: 'u3@example.com' }).contact.name).toBe('by hand');
    await s1.pending();

    // Writes undone are forgotten: a failing atomically, and a turn whose commit fails.
    expect(() =>
      s1.atomically(() => {
        s1.upsertContact(A, { external_id: 'u4', name: 'undone' });
        throw new Error('undo');
      }),
    ).toThrow('undo');
    await s1.pending();
    expect(s1.findContact(A, 'u4')?.name).toBe('u4 first');
    db.exec(
      "CREATE TRIGGER boom BEFORE INSERT ON contacts WHEN NEW.external_id = 'boom' BEGIN SELECT RAISE(ABORT, 'insert failed'); END;",
    );
    s1.upsertContact(A, { external_id: 'u4', name: 'failed' });
    s1.upsertContact(A, { external_id: 'boom' });
    await expect(s1.pending()).rejects.toThrow('insert failed');
    expect(s1.upsertContact(A, { external_id: 'u4', email: 'u4@example.com' }).contact.name).toBe('u4 first');
    await s1.pending();

    // Its own changes of key: a contact deleted, or given another external_id, is no longer there.
    s1.deleteContact(A, 'u3');
    expect(s1.upsertContact(A, { external_id: 'u3', name: 'u3 again' }).created).toBe(true);
    s1.patchContact(A, 'u4', { external_id: 'u5' });
    expect(s1.upsertContact(A, { external_id: 'u4', name: 'u4 again' }).created).toBe(true);
    await s1.pending();

    const rows = () =>
      db
        .prepare("SELECT external_id, record ->> '$.name', record ->> '$.email' FROM contacts ORDER BY seq")
        .raw()
        .all();
    expect(rows()).toEqual([
      ['u1', 'u1 second', 'u1@example.com'],
      ['u5', 'u4 first', 'u4@example.com'],
      ['u2', 'u2 again', null],
      ['u3', 'u3 again', null],
      ['u4', 'u4 again', null],
    ]);
    // After a reset nothing is left to update, u1 met just before included.
    expect(s1.findContact(A, 'u1')?.name).toBe('u1 second');
    s1.reset();
    expect(s1.upsertContact(A, { external_id: 'u1' }).created).toBe(true);
    await s1.pending();
    expect(rows()).toEqual([['u1', null, null]]);
  });

  it('reads an update still waiting in its turn, after the records kept decoded outgrew their room', async () => {
    const store = openSqliteStore(join(await tempDir(), 'room.db'));
    onTestFinished(() => store.close());
    store.defineAttribute(A, { name: 'notes', type: 'text' });
    // Ten records of an eighth of the room each: more than the decoded records may hold.
    const notes = 'n'.repeat(Math.ceil(RECORD_CACHE_CHARS / 8));
    for (let i = 0; i < 10; i++)
      store.upsertContact(A, { external_id: `u${i}`, custom_attributes: { notes } });
    await store.pending();
    // One turn: u0 updated (its record waits), then the others read, which pushes u0 out.
    store.upsertContact(A, { external_id: 'u0', name: 'updated' });
    for (let i = 1; i < 10; i++) expect(store.findContact(A, `u${i}`)?.external_id).toBe(`u${i}`);
    expect(store.findContact(A, 'u0')?.name).toBe('updated');
    expect(store.upsertContact(A, { external_id: 'u0', email: 'u0@example.com' }).contact.name).toBe(
      'updated',
    );
    await store.pending();
    expect(store.findContact(A, 'u0')).toMatchObject({ name: 'updated', email: 'u0@example.com' });
  });

  it('opens a database of the development schema 1 (no delete count) and carries it forward', async () => {
    const file = join(await tempDir(), 'v1.db');
    olderDatabase(file, 1, SCHEMA_1);
    const store = openSqliteStore(file);
    onTestFinished(() => store.close());
    expect(store.getContact(A, 'old').id).toBe('x1');
    expect(store.count(A)).toBe(1);
    // Its insert trigger counted every row: it is gone, so a new contact is counted once.
    store.upsertContact(A, { external_id: 'new' });
    await store.pending();
    expect(store.count(A)).toBe(2);
    store.deleteContact(A, 'old');
    await store.pending();
    expect(store.count(A)).toBe(1);
    expect(sqlite(file).values('SELECT deletes FROM agents WHERE agent = ?', A)).toEqual([1]);
  });
});
