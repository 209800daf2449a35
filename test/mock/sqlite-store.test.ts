// The SQLite data file: what a user can open with sqlite3, what survives a restart and a kill -9,
// and the adversarial cases (shared files, full disks, damaged files, unwritable paths, large
// records, file modes and symlinks).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod, lstat, mkdir, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'libsql';
import { describe, expect, it, onTestFinished } from 'vitest';
import { paths } from '../../src/api/index.js';
import { startEmbeddedMock } from '../../src/cli/embedded-mock.js';
import { integrityCheckDue, SCHEMA_VERSION } from '../../src/mock/database-file.js';
import { MockDataFileError } from '../../src/mock/errors.js';
import { startMockServer } from '../../src/mock/server.js';
import { openSqliteStore } from '../../src/mock/sqlite-store.js';
import { BIN } from '../helpers/cli.js';
import { AGENT, api, startTestMock, storedContact, TEST_KEY, tempDir } from '../helpers/mock.js';
import { type Unprivileged, unprivileged } from '../helpers/unprivileged.js';

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

  it("refuses files it cannot use, saying why: JSON, not SQLite, another application's, another schema", async () => {
    const dir = await tempDir();
    const json = join(dir, 'old.json');
    await writeFile(json, '{"version":1,"seq":0,"agents":{}}');
    await expect(startMockServer({ dataFile: json })).rejects.toMatchObject({
      message: expect.stringContaining('is a JSON file'),
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
    // A database of a development build's schema.
    const older = join(dir, 'older.db');
    openSqliteStore(older).close();
    const raw = new Database(older);
    raw.exec('PRAGMA user_version = 3');
    raw.close();
    const refused = await startMockServer({ dataFile: older }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockDataFileError);
    expect(refused).toMatchObject({
      message: `${older} holds a mock database of schema 3, written by another version of contacts-cli; this one reads schema ${SCHEMA_VERSION} only`,
      hint: expect.stringContaining(`Move ${older} aside`),
    });
  });

  it.skipIf(!unprivileged)(
    'refuses to start on a path it cannot write (as a user without the rights)',
    async () => {
      const dir = await tempDir();
      const run = (file: string) => {
        const { command, args } = (unprivileged as Unprivileged)(process.execPath, [
          BIN,
          'serve',
          '--mock',
          '--port',
          '0',
          '--data',
          file,
        ]);
        try {
          execFileSync(command, args, {
            env: { PATH: process.env.PATH, HOME: dir, CONTACTS_CONFIG_DIR: join(dir, 'config') },
            encoding: 'utf8',
            stdio: 'pipe',
            timeout: 10_000,
          });
          return { code: 0, stderr: '' };
        } catch (error) {
          const e = error as { status: number; stderr: string };
          return { code: e.status, stderr: e.stderr };
        }
      };
      const readOnly = join(dir, 'readonly.db');
      openSqliteStore(readOnly).close();
      await chmod(readOnly, 0o444);
      const r = run(readOnly);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`Cannot write the mock database ${readOnly}`);
      await chmod(dir, 0o555);
      onTestFinished(() => chmod(dir, 0o755));
      const inReadOnlyDir = run(join(dir, 'new.db'));
      expect(inReadOnlyDir.code).toBe(2);
      expect(inReadOnlyDir.stderr).toContain('Cannot write the mock database');
    },
  );

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

describe('the SQLite store', () => {
  const A = 'agent-a';

  /** Two stores on one database file, closed after the test. */
  async function twoConnections() {
    const file = join(await tempDir(), 'shared.db');
    const one = openSqliteStore(file);
    const two = openSqliteStore(file);
    onTestFinished(() => {
      one.close();
      two.close();
    });
    return { file, one, two };
  }

  it('commits each write before it returns: a second connection sees it at once, and a failed atomically leaves nothing', async () => {
    const { file, one, two } = await twoConnections();
    one.upsertContact(A, { external_id: 'a', email: 'a@example.com' });
    expect(two.getContact(A, 'a').email).toBe('a@example.com');
    expect(sqlite(file).values('SELECT external_id FROM contacts')).toEqual(['a']);
    // The email is taken whichever connection asks.
    expect(() => two.upsertContact(A, { external_id: 'b', email: 'A@example.com' })).toThrow(
      /Email already exists/,
    );
    two.batchUpsert(A, { users: [{ external_id: 'b' }, { external_id: 'c' }] });
    expect(one.listContacts(A, { page: 1, per_page: 10 }).data.map((c) => c.external_id)).toEqual([
      'a',
      'b',
      'c',
    ]);
    // A reset and its seed are one unit: a failure undoes both.
    expect(() =>
      one.atomically(() => {
        one.reset(A);
        one.upsertContact(A, { external_id: 'seeded' });
        throw new Error('seed failed');
      }),
    ).toThrow('seed failed');
    expect(two.contacts(A).map((c) => c.external_id)).toEqual(['a', 'b', 'c']);
    // Ids go on in creation order across both connections.
    const ids = two.contacts(A).map((c) => c.id);
    expect([...ids].sort()).toEqual(ids);
  });

  it('reads the last id and the definitions again once another connection has written, and forgets what a failed write learnt', async () => {
    const { one, two } = await twoConnections();
    const seqOf = (id: string) => Number.parseInt(id.slice(3, 13), 36);
    const ids = [one.upsertContact(A, { external_id: 'a' }).contact.id];
    one.defineAttribute(A, { name: 'plan', type: 'text' });
    one.upsertContact(A, { external_id: 'a', custom_attributes: { plan: 'pro' } });
    // The other connection archives it and creates two contacts: this one's next write sees both.
    two.updateAttribute(A, 'plan', { archived: true });
    ids.push(...two.batchUpsert(A, { users: [{ external_id: 'b' }, { external_id: 'c' }] }).map((c) => c.id));
    expect(() => one.upsertContact(A, { external_id: 'a', custom_attributes: { plan: 'max' } })).toThrow(
      /Invalid request body/,
    );
    ids.push(one.upsertContact(A, { external_id: 'd' }).contact.id);
    two.defineAttribute(A, { name: 'seats', type: 'number' });
    ids.push(one.upsertContact(A, { external_id: 'e', custom_attributes: { seats: 3 } }).contact.id);
    expect(ids.map(seqOf)).toEqual([1, 2, 3, 4, 5]);
    // A write that fails takes back what it wrote, and this connection forgets what it learnt from it.
    expect(() =>
      one.atomically(() => {
        one.defineAttribute(A, { name: 'tier', type: 'text' });
        one.upsertContact(A, { external_id: 'f', custom_attributes: { tier: 'x' } });
        throw new Error('failed');
      }),
    ).toThrow('failed');
    expect(() => one.upsertContact(A, { external_id: 'g', custom_attributes: { tier: 'x' } })).toThrow(
      /Invalid request body/,
    );
    expect(seqOf(one.upsertContact(A, { external_id: 'g' }).contact.id)).toBe(6);
    expect(seqOf(two.upsertContact(A, { external_id: 'h' }).contact.id)).toBe(7);
  });

  it('keeps the contact count in step with deletes, resets and restores, for the quota and the totals', async () => {
    const dir = await tempDir();
    const store = openSqliteStore(join(dir, 'count.db'), { maxContacts: 3 });
    onTestFinished(() => store.close());
    store.batchUpsert(A, { users: [{ external_id: 'a' }, { external_id: 'b' }, { external_id: 'c' }] });
    expect(() => store.upsertContact(A, { external_id: 'd' })).toThrow(/Maximum contacts limit reached/);
    store.deleteContact(A, 'b');
    store.upsertContact(A, { external_id: 'd' });
    expect(store.listContacts(A, { page: 1, per_page: 10 }).total).toBe(3);
    expect(store.reset(A)).toEqual({ agent: A, contacts: 3, attributes: 0 });
    expect(store.count(A)).toBe(0);
    store.restore({
      version: 1,
      seq: 0,
      agents: { [A]: { contacts: [storedContact('ct_000000000z0000', 'r')], attributes: [] } },
    });
    expect(store.count(A)).toBe(1);
    // New ids go past the restored one.
    expect(store.upsertContact(A, { external_id: 'after' }).contact.id > 'ct_000000000z0000').toBe(true);
  });
});

/** Overwrites `pages` pages of the file from `from` (a share of its length) with `bytes`. */
async function overwritePages(file: string, from: number, pages: number, bytes: (n: number) => Buffer) {
  const { open } = await import('node:fs/promises');
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    const pageSize = 4096;
    const start = Math.floor((size * from) / pageSize) * pageSize;
    await handle.write(bytes(pages * pageSize), 0, pages * pageSize, start);
  } finally {
    await handle.close();
  }
}

/** A database of `n` contacts of about 1 KB each, closed (its WAL folded in). */
function filledDatabase(file: string, n: number) {
  const store = openSqliteStore(file);
  try {
    for (let start = 0; start < n; start += 500) {
      const users = Array.from({ length: Math.min(500, n - start) }, (_, i) => ({
        external_id: `c${start + i}`,
        name: 'n'.repeat(255),
        email: `c${start + i}@example.com`,
      }));
      store.batchUpsert(AGENT, { users });
    }
  } finally {
    store.close();
  }
}

/** `contacts serve --mock --data FILE` run to its end (it should not start). */
function serveOnce(dataFile: string, dir: string) {
  try {
    execFileSync(process.execPath, [BIN, 'serve', '--mock', '--port', '0', '--data', dataFile], {
      env: { PATH: process.env.PATH, HOME: dir, CONTACTS_CONFIG_DIR: join(dir, 'config') },
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 20_000,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const e = error as { status: number; stderr: string };
    return { code: e.status, stderr: e.stderr };
  }
}

describe('a damaged database', () => {
  it('is refused at start, truncated or with bytes overwritten, naming the file and what to do (exit 2)', async () => {
    const dir = await tempDir();
    const truncated = join(dir, 'truncated.db');
    filledDatabase(truncated, 2000);
    const { size } = await stat(truncated);
    const { truncate } = await import('node:fs/promises');
    await truncate(truncated, Math.floor(size / 2));
    const r = serveOnce(truncated, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`The mock database ${truncated} is damaged`);
    expect(r.stderr).toContain(`sqlite3 ${truncated} .recover`);
    expect(r.stderr).not.toContain('looks like a bug');

    const scribbled = join(dir, 'scribbled.db');
    filledDatabase(scribbled, 2000);
    const { randomBytes } = await import('node:crypto');
    await overwritePages(scribbled, 0.5, 4, randomBytes);
    const s = serveOnce(scribbled, dir);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain(`The mock database ${scribbled} is damaged`);
    expect(() => openSqliteStore(scribbled)).toThrow(MockDataFileError);
  });

  it('is read page by page by the embedded --mock only after a stop that was not clean (a WAL left with frames)', async () => {
    const dir = await tempDir();
    const file = join(dir, 'mock.db');
    filledDatabase(file, 2000);
    const { size } = await stat(file);
    const { truncate } = await import('node:fs/promises');
    await truncate(file, Math.floor(size / 2));
    expect(integrityCheckDue(file, 'after-unclean-stop')).toBe(false);
    expect(integrityCheckDue(file, 'always')).toBe(true);
    // Cleanly stopped: the embedded mock does not read every page (the damage is met by the
    // requests that reach it; whether its start-up reads touch the cut pages depends on the
    // file's layout, so it is not started here), while serve --mock and the default store refuse it.
    expect(() => openSqliteStore(file)).toThrow(MockDataFileError);
    expect(serveOnce(file, dir).code).toBe(2);
    // A process killed mid-write leaves its WAL behind: then the embedded mock checks too.
    await writeFile(`${file}-wal`, Buffer.alloc(4096, 1));
    expect(integrityCheckDue(file, 'after-unclean-stop')).toBe(true);
    await expect(startEmbeddedMock(file)).rejects.toThrow(MockDataFileError);
  });

  it('met while serving: a distinct 500 naming the damage, told to the log, and no more writes taken', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'later.db');
    filledDatabase(dataFile, 3000);
    const errors: unknown[] = [];
    const server = await startTestMock({ dataFile, onError: (error) => errors.push(error) });
    const client = api(server.url);
    await overwritePages(dataFile, 0.3, 64, (n) => Buffer.alloc(n, 0xff));
    // Another connection commits: the server reads the file again instead of what it has cached.
    const other = sqlite(dataFile);
    other.db.exec("UPDATE meta SET value = value WHERE key = 'seq'");
    let list = await client.get(`${paths.contacts(AGENT)}?per_page=1000&page=1`);
    for (let page = 2; page <= 3 && list.status === 200; page++) {
      list = await client.get(`${paths.contacts(AGENT)}?per_page=1000&page=${page}`);
    }
    expect(list.status).toBe(500);
    expect(list.body.code).toBe('database_damaged');
    expect(list.body.message).toContain(`The mock database ${dataFile} is damaged`);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toContain(dataFile);
    const write = await client.post(paths.contacts(AGENT), { external_id: 'after-damage' });
    expect(write.status).toBe(500);
    expect(write.body.code).toBe('database_damaged');
    expect(errors).toHaveLength(2);
  });
});

describe.runIf(process.platform === 'linux')('a file at its size limit (ulimit -f)', () => {
  it('answers 507, never 500 or a 2xx, and keeps every write it acknowledged', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'limited.db');
    // bash's ulimit -f counts 1024-byte blocks: a database (and WAL) of at most 600 KiB.
    const child = spawn(
      'bash',
      [
        '-c',
        `ulimit -f 600 && exec "${process.execPath}" "${BIN}" serve --mock --port 0 --data "${dataFile}" -q`,
      ],
      {
        env: { PATH: process.env.PATH, HOME: dir, CONTACTS_CONFIG_DIR: join(dir, 'config') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    onTestFinished(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const url = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once('line', resolve),
    );
    const client = api(url);
    const acked: string[] = [];
    let refused: { status: number; body: { message: string } } | undefined;
    for (let i = 0; i < 5000 && refused === undefined; i++) {
      const r = await client.post(paths.contacts(AGENT), { external_id: `f${i}`, name: 'n'.repeat(255) });
      if (r.status === 201) acked.push(`f${i}`);
      else refused = r;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body.message).toContain('cannot store the write');
    expect(stderr).toContain('cannot store the write');
    child.kill('SIGKILL');
    await exited;
    const store = openSqliteStore(dataFile);
    onTestFinished(() => store.close());
    expect(store.contacts(AGENT).map((c) => c.external_id)).toEqual(acked);
  });
});
