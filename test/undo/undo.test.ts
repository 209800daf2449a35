// Taking an import back through the library: runImport's report carries its undo record, and
// undoImport() deletes what it created and restores what it changed, keeping what changed since.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/contact.js';
import { ContactsClient } from '../../src/client/client.js';
import { APIConnectionError } from '../../src/client/errors.js';
import { ImportStoppedError, runImport } from '../../src/importer/pipeline.js';
import type { MockServer } from '../../src/mock/server.js';
import { listUndoRecords } from '../../src/undo/record.js';
import { type UndoEvent, UndoRefusedError, undoImport } from '../../src/undo/undo.js';
import { startTestMock, tempDir } from '../helpers/mock.js';

const KEY = 'bk_undo_test_key';
const AGENT = 'undo';
const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientFor(mock: MockServer) {
  const client = new ContactsClient({
    baseUrl: mock.url,
    apiKey: KEY,
    agentId: AGENT,
    retry: { initialDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 100 },
  });
  clients.push(client);
  return client;
}

/** undoImport with every event it told. */
async function undoCollecting(
  mock: MockServer,
  record: NonNullable<Awaited<ReturnType<typeof runImport>>['undo']>,
) {
  const events: UndoEvent[] = [];
  const report = await undoImport({
    client: clientFor(mock),
    agentId: AGENT,
    record,
    onEvent: (e) => events.push(e),
  });
  return { report, events };
}

/** The fields an import writes, by external_id: what "the directory, field for field" compares. */
function directory(mock: MockServer): Map<string, unknown> {
  return new Map(
    mock.store.contacts(AGENT).map((c: Contact) => [
      c.external_id,
      {
        id: c.id,
        name: c.name,
        email: c.email,
        phonenumber: c.phonenumber,
        stripe_accounts: c.stripe_accounts,
        custom_attributes: c.custom_attributes,
      },
    ]),
  );
}

/** A mock holding 50 contacts with names, emails, phones, attributes and stripe accounts. */
async function fiftyContacts() {
  const mock = await startTestMock();
  mock.store.defineAttribute(AGENT, { name: 'plan', type: 'text' });
  mock.store.defineAttribute(AGENT, { name: 'seats', type: 'number' });
  for (let i = 1; i <= 50; i++) {
    mock.store.upsertContact(AGENT, {
      external_id: `old-${i}`,
      name: `Old ${i}`,
      email: `old${i}@example.com`,
      phonenumber: i % 2 ? `+4420794600${String(i).padStart(2, '0')}` : undefined,
      custom_attributes: { plan: 'free', ...(i % 3 ? { seats: i } : {}) },
      stripe_accounts: i % 5 ? [] : [{ label: 'main', stripe_id: `cus_${i}` }],
    });
  }
  return mock;
}

/** 100 rows: 50 changing and clearing fields of the 50 contacts, 50 new. */
function hundredRows(): string {
  const rows: unknown[] = [];
  for (let i = 1; i <= 50; i++) {
    rows.push({
      external_id: `old-${i}`,
      name: `Changed ${i}`,
      // Cleared: the undo must fill these again.
      email: i % 4 ? null : `new${i}@example.com`,
      phonenumber: i % 2 ? null : '+14155550123',
      custom_attributes: { plan: i % 2 ? null : 'pro', seats: 100 + i },
      stripe_accounts: i % 5 ? [{ label: 'new', stripe_id: `cus_new_${i}` }] : null,
    });
  }
  for (let i = 1; i <= 50; i++)
    rows.push({ external_id: `new-${i}`, name: `New ${i}`, email: `fresh${i}@example.com` });
  return `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

async function importHundred(mock: MockServer, dir: string, undoDir: string, extra = {}) {
  const input = join(dir, 'rows.ndjson');
  await writeFile(input, hundredRows());
  return runImport({
    client: clientFor(mock),
    agentId: AGENT,
    input,
    undoDir,
    resultsPath: join(dir, 'results.csv'),
    ...extra,
  });
}

describe('undoImport', () => {
  it('brings the directory back field for field, keeping and naming a contact edited since', async () => {
    const mock = await fiftyContacts();
    const dir = await tempDir();
    const undoDir = join(dir, 'undo');
    const before = directory(mock);
    const report = await importHundred(mock, dir, undoDir);
    expect(report.created).toBe(50);
    expect(report.updated).toBe(50);
    expect(report.undo).toMatchObject({ full: true });
    // Edited through the API after the import: it is not the import's to undo.
    mock.store.patchContact(AGENT, 'old-7', { name: 'Edited by hand' });

    const { report: undone, events } = await undoCollecting(mock, report.undo!);
    expect(undone).toMatchObject({ deleted: 50, restored: 49, kept: 1, failed: 0, interrupted: false });
    const kept = events.flatMap((e) => (e.type === 'step' && e.step.action === 'kept' ? [e.step] : []));
    expect(kept).toEqual([
      expect.objectContaining({
        external_id: 'old-7',
        reason: 'changed',
        changes: { name: ['Changed 7', 'Edited by hand'] },
      }),
    ]);
    const after = directory(mock);
    const edited = after.get('old-7') as { name: string };
    expect(edited.name).toBe('Edited by hand');
    after.delete('old-7');
    const expected = new Map(before);
    expected.delete('old-7');
    expect(after).toEqual(expected);

    // Twice: nothing to do.
    const again = await undoImport({ client: clientFor(mock), agentId: AGENT, record: report.undo! });
    expect(again).toMatchObject({ toDelete: 0, toRestore: 0, deleted: 0, restored: 0, kept: 1 });
    const [listed] = await listUndoRecords(undoDir, AGENT);
    expect(listed).toMatchObject({ created: 50, updated: 50, status: 'finished' });
    expect(listed!.undoneAt).not.toBeNull();
  });

  it('plans without writing on a dry run', async () => {
    const mock = await fiftyContacts();
    const dir = await tempDir();
    const report = await importHundred(mock, dir, join(dir, 'undo'));
    const imported = directory(mock);
    const events: UndoEvent[] = [];
    const plan = await undoImport({
      client: clientFor(mock),
      agentId: AGENT,
      record: report.undo!.path,
      dryRun: true,
      onEvent: (e) => events.push(e),
    });
    expect(plan).toMatchObject({ dryRun: true, toDelete: 50, toRestore: 50, deleted: 0, restored: 0 });
    const restore = events.find((e) => e.type === 'step' && e.step.external_id === 'old-1');
    expect(restore).toMatchObject({
      step: {
        action: 'restore',
        changes: {
          name: ['Changed 1', 'Old 1'],
          email: [null, 'old1@example.com'],
          'custom_attributes.plan': [null, 'free'],
          'custom_attributes.seats': [101, 1],
        },
      },
    });
    expect(directory(mock)).toEqual(imported);
  });

  it('refuses a record made for another agent or another service', async () => {
    const mock = await fiftyContacts();
    const dir = await tempDir();
    const report = await importHundred(mock, dir, join(dir, 'undo'));
    const client = clientFor(mock);
    await expect(undoImport({ client, agentId: 'someone-else', record: report.undo! })).rejects.toThrow(
      UndoRefusedError,
    );
    await expect(
      undoImport({ client, agentId: AGENT, record: report.undo!, service: 'https://api.example.com' }),
    ).rejects.toThrow(/was made against http:\/\/127\.0\.0\.1:\d+.*not https:\/\/api\.example\.com/);
    expect(mock.store.count(AGENT)).toBe(100);
  });

  it('is resumable: an undo stopped part way finishes on the next run', async () => {
    const mock = await fiftyContacts();
    const dir = await tempDir();
    const before = directory(mock);
    const report = await importHundred(mock, dir, join(dir, 'undo'));
    const controller = new AbortController();
    const first = await undoImport({
      client: clientFor(mock),
      agentId: AGENT,
      record: report.undo!,
      concurrency: 1,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'progress' && e.done === 30) controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.deleted + first.restored).toBeLessThan(100);
    const second = await undoImport({ client: clientFor(mock), agentId: AGENT, record: report.undo! });
    expect(second.interrupted).toBe(false);
    expect(first.deleted + first.restored + second.deleted + second.restored).toBe(100);
    expect(directory(mock)).toEqual(before);
  });

  it('goes on in one record across an interrupted import and its resume', async () => {
    const mock = await fiftyContacts();
    const dir = await tempDir();
    const undoDir = join(dir, 'undo');
    const before = directory(mock);
    const controller = new AbortController();
    const first = await importHundred(mock, dir, undoDir, {
      batchSize: 10,
      concurrency: 1,
      signal: controller.signal,
      onEvent: (e: { type: string; stats?: { created: number; updated: number } }) => {
        if (e.type === 'progress' && e.stats!.created + e.stats!.updated >= 40) controller.abort();
      },
      progressIntervalMs: 0,
    });
    expect(first.interrupted).toBe(true);
    const second = await importHundred(mock, dir, undoDir, { batchSize: 10, resume: true });
    expect(second.interrupted).toBe(false);
    expect(second.undo?.path).toBe(first.undo?.path);
    expect(await listUndoRecords(undoDir, AGENT)).toHaveLength(1);
    const undone = await undoImport({ client: clientFor(mock), agentId: AGENT, record: second.undo! });
    expect(undone).toMatchObject({ deleted: 50, restored: 50, kept: 0 });
    expect(directory(mock)).toEqual(before);
  });

  it('a resume goes on in the record its checkpoint names, and is refused once that import was undone', async () => {
    const mock = await fiftyContacts();
    const dir = await tempDir();
    const undoDir = join(dir, 'undo');
    const stopAfter = (n: number) => {
      const controller = new AbortController();
      return {
        signal: controller.signal,
        batchSize: 10,
        concurrency: 1,
        progressIntervalMs: 0,
        onEvent: (e: { type: string; stats?: { created: number; updated: number } }) => {
          if (e.type === 'progress' && e.stats!.created + e.stats!.updated >= n) controller.abort();
        },
      };
    };
    const first = await importHundred(mock, dir, undoDir, stopAfter(20));
    expect(first.interrupted).toBe(true);
    // Started over without a record, and stopped again: its resume has no record of the run resumed.
    const second = await importHundred(mock, dir, undoDir, { ...stopAfter(20), restart: true, undo: 'off' });
    expect(second.interrupted).toBe(true);
    const notes: string[] = [];
    const third = await importHundred(mock, dir, undoDir, {
      resume: true,
      onEvent: (e: { type: string; message?: string }) => {
        if (e.type === 'note') notes.push(e.message!);
      },
    });
    expect(third.undo?.path).not.toBe(first.undo?.path);
    expect(notes).toContainEqual(expect.stringMatching(/The run resumed kept no undo record/));

    // Undo an interrupted import: its resume would skip the rows taken back, so it is refused.
    const fresh = await fiftyContacts();
    const freshDir = await tempDir();
    const fourth = await importHundred(fresh, freshDir, undoDir, stopAfter(20));
    const undone = await undoImport({ client: clientFor(fresh), agentId: AGENT, record: fourth.undo! });
    expect(undone.deleted + undone.restored).toBeGreaterThan(0);
    // The way on (the CLI's --restart) is the caller's to word: the importer says what and when.
    await expect(importHundred(fresh, freshDir, undoDir, { resume: true })).rejects.toMatchObject({
      message: expect.stringMatching(
        /taken back by contacts undo .*Import the file again from the first row/,
      ),
      detail: { code: 'resume_undone', undoneAt: expect.any(String) },
    });
  });

  for (const reached of [false, true]) {
    it(`settles a write whose answer never came at the resume (${reached ? 'it reached the service' : 'it never did'})`, async () => {
      const mock = await fiftyContacts();
      const dir = await tempDir();
      const undoDir = join(dir, 'undo');
      const before = directory(mock);
      const client = clientFor(mock);
      const upsertMany = client.contacts.upsertMany.bind(client.contacts);
      let calls = 0;
      // The second batch's answer is lost: the import stops as at a kill, its intents unanswered.
      client.contacts.upsertMany = (async (...args: Parameters<typeof upsertMany>) => {
        if (++calls === 2) {
          if (reached) await upsertMany(...args);
          throw new APIConnectionError('connection reset');
        }
        return upsertMany(...args);
      }) as typeof upsertMany;
      await expect(
        importHundred(mock, dir, undoDir, { client, batchSize: 30, concurrency: 1 }),
      ).rejects.toThrow(ImportStoppedError);
      // Between the runs a teammate edits one of the batch's contacts and makes one it would create.
      // (Rows 31-60: old-31..old-50 and new-1..new-10.)
      mock.store.patchContact(AGENT, 'old-40', { name: 'Teammate 40' });
      if (!reached)
        mock.store.upsertContact(AGENT, {
          external_id: 'new-5',
          name: 'Theirs',
          email: 'theirs@example.com',
        });
      const resumed = await importHundred(mock, dir, undoDir, { resume: true });
      expect(resumed.interrupted).toBe(false);
      const { report: undone, events } = await undoCollecting(mock, resumed.undo!);
      expect(undone.failed).toBe(0);
      const after = directory(mock);
      if (reached) {
        // The lost answer's writes were the import's (the resume wrote the row again over the
        // teammate's name): all taken back to the state before the first run.
        expect(after).toEqual(before);
        expect(events.filter((e) => e.type === 'step' && e.step.action === 'kept')).toEqual([]);
      } else {
        // Never written by the first run: the teammate's edit is the state before, and theirs stays.
        expect(after.get('old-40')).toMatchObject({ name: 'Teammate 40' });
        expect(after.get('new-5')).toMatchObject({ name: 'Theirs', email: 'theirs@example.com' });
        after.delete('old-40');
        after.delete('new-5');
        const expected = new Map(before);
        expected.delete('old-40');
        expect(after).toEqual(expected);
      }
    });
  }

  it('records what a small file creates when reading a large directory would cost more, and says so', async () => {
    const mock = await startTestMock();
    const store = mock.store;
    const many = Array.from({ length: 1000 }, (_, i) => ({ external_id: `bulk-${i}` }));
    for (let round = 0; round < 9; round++)
      store.batchUpsert(AGENT, { users: many.map((c) => ({ external_id: `${c.external_id}-${round}` })) });
    store.upsertContact(AGENT, { external_id: 'bulk-1-0', name: 'Was here' });
    const dir = await tempDir();
    // 20 rows, one request; reading them takes 20 requests by id, or 10 pages: more than 8 at once.
    const input = join(dir, 'twenty.ndjson');
    const fresh = Array.from({ length: 19 }, (_, i) =>
      JSON.stringify({ external_id: `brand-new-${i}`, name: 'N' }),
    );
    await writeFile(input, `${[...fresh, '{"external_id":"bulk-1-0","name":"Changed"}'].join('\n')}\n`);
    const notes: string[] = [];
    const report = await runImport({
      client: clientFor(mock),
      agentId: AGENT,
      input,
      undoDir: join(dir, 'undo'),
      countTotal: true,
      onEvent: (e) => {
        if (e.type === 'note') notes.push(e.message);
      },
    });
    expect(report.undo).toMatchObject({ full: false });
    expect(notes).toEqual([
      expect.stringMatching(/^Recording only the contacts this import creates .*requests/),
    ]);
    const { report: undone, events } = await undoCollecting(mock, report.undo!);
    expect(undone).toMatchObject({ deleted: 19, restored: 0, kept: 1 });
    expect(events).toContainEqual(
      expect.objectContaining({
        step: expect.objectContaining({ external_id: 'bulk-1-0', reason: 'not-recorded' }),
      }),
    );
    expect(store.findContact(AGENT, 'brand-new-0')).toBeUndefined();
    expect(store.count(AGENT)).toBe(9000);
    expect(store.findContact(AGENT, 'bulk-1-0')?.name).toBe('Changed');

    // --undoable: the state before is read whatever it costs, and restored.
    store.patchContact(AGENT, 'bulk-1-0', { name: 'Was here' });
    const full = await runImport({
      client: clientFor(mock),
      agentId: AGENT,
      input,
      undoDir: join(dir, 'undo'),
      countTotal: true,
      undo: 'full',
    });
    expect(full.undo).toMatchObject({ full: true });
    await undoImport({ client: clientFor(mock), agentId: AGENT, record: full.undo! });
    expect(store.findContact(AGENT, 'bulk-1-0')?.name).toBe('Was here');
  });

  it('never deletes a contact someone else made while the import ran, nor undoes a field it did not send', async () => {
    const mock = await startTestMock();
    mock.store.upsertContact(AGENT, { external_id: 'p1', name: 'Old', phonenumber: '+442079460958' });
    mock.store.upsertContact(AGENT, { external_id: 'p2', name: 'Two', email: 'two@example.com' });
    const dir = await tempDir();
    const input = join(dir, 'f.ndjson');
    await writeFile(
      input,
      [
        '{"external_id":"n1","name":"N1"}',
        '{"external_id":"x","name":"From file"}',
        '{"external_id":"p1","name":"New"}',
        '{"external_id":"p2","name":"Two!"}',
      ]
        .join('\n')
        .concat('\n'),
    );
    const client = clientFor(mock);
    const upsert = client.contacts.upsert.bind(client.contacts);
    let sent = 0;
    // Between the import's read of the directory and its writes, someone else makes x and
    // changes p1's phone (a field the file does not send).
    client.contacts.upsert = (async (...args: Parameters<typeof upsert>) => {
      if (sent++ === 1) {
        mock.store.upsertContact(AGENT, { external_id: 'x', name: 'Theirs', email: 'x@example.com' });
        mock.store.patchContact(AGENT, 'p1', { phonenumber: '+14155550123' });
      }
      return upsert(...args);
    }) as typeof upsert;
    const report = await runImport({
      client,
      agentId: AGENT,
      input,
      undoDir: join(dir, 'undo'),
      batchSize: 1,
      concurrency: 1,
    });
    expect(report).toMatchObject({ created: 1, updated: 3 });
    const { report: undone, events } = await undoCollecting(mock, report.undo!);
    expect(undone).toMatchObject({ deleted: 1, restored: 1, kept: 2 });
    const kept = Object.fromEntries(
      events.flatMap((e) =>
        e.type === 'step' && e.step.action === 'kept' ? [[e.step.external_id, e.step]] : [],
      ),
    );
    expect(kept.x).toMatchObject({ reason: 'existed' });
    expect(kept.p1).toMatchObject({
      reason: 'changed-during',
      changes: { phonenumber: ['+442079460958', '+14155550123'] },
    });
    expect(mock.store.findContact(AGENT, 'x')).toMatchObject({ name: 'From file', email: 'x@example.com' });
    expect(mock.store.findContact(AGENT, 'p1')).toMatchObject({ name: 'New', phonenumber: '+14155550123' });
    expect(mock.store.findContact(AGENT, 'p2')).toMatchObject({ name: 'Two', email: 'two@example.com' });
    expect(mock.store.findContact(AGENT, 'n1')).toBeUndefined();
  });

  it('puts emails back that the import moved along a chain of contacts, or swapped', async () => {
    const mock = await startTestMock();
    const people = Array.from({ length: 100 }, (_, i) => ({
      external_id: `P${i}`,
      name: `Person ${i}`,
      email: `p${i}@shift.example`,
    }));
    mock.store.batchUpsert(AGENT, { users: people });
    mock.store.upsertContact(AGENT, { external_id: 'A', email: 'a@swap.example' });
    mock.store.upsertContact(AGENT, { external_id: 'B', email: 'b@swap.example' });
    const before = directory(mock);
    const dir = await tempDir();
    const input = join(dir, 'shifted.ndjson');
    // The spreadsheet mistake: every email one row down (each free by the time its row is sent).
    const rows = people.map((p, i) => ({
      external_id: p.external_id,
      email: i ? `p${i - 1}@shift.example` : 'new@shift.example',
    }));
    const swap = [
      { external_id: 'A', email: 'tmp@swap.example' },
      { external_id: 'B', email: 'a@swap.example' },
      { external_id: 'A', email: 'b@swap.example' },
    ];
    await writeFile(input, `${[...rows, ...swap].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const report = await runImport({
      client: clientFor(mock),
      agentId: AGENT,
      input,
      undoDir: join(dir, 'undo'),
      concurrency: 1,
    });
    expect(report).toMatchObject({ updated: 103, rejected: 0 });
    expect(mock.store.findContact(AGENT, 'P5')?.email).toBe('p4@shift.example');
    const undone = await undoImport({ client: clientFor(mock), agentId: AGENT, record: report.undo! });
    expect(undone).toMatchObject({ restored: 102, failed: 0 });
    expect(directory(mock)).toEqual(before);
  });

  it('leaves out an attribute archived since the import, restores the rest, and says so once', async () => {
    const mock = await startTestMock();
    mock.store.defineAttribute(AGENT, { name: 'plan', type: 'text' });
    mock.store.upsertContact(AGENT, { external_id: 'a1', name: 'Ann', custom_attributes: { plan: 'free' } });
    const dir = await tempDir();
    const input = join(dir, 'a.ndjson');
    await writeFile(input, '{"external_id":"a1","name":"Ann X","custom_attributes":{"plan":"pro"}}\n');
    const report = await runImport({
      client: clientFor(mock),
      agentId: AGENT,
      input,
      undoDir: join(dir, 'undo'),
    });
    mock.store.updateAttribute(AGENT, 'plan', { archived: true });
    const events: UndoEvent[] = [];
    const plan = await undoImport({
      client: clientFor(mock),
      agentId: AGENT,
      record: report.undo!,
      dryRun: true,
      onEvent: (e) => events.push(e),
    });
    expect(plan).toMatchObject({ toRestore: 1, failed: 1 });
    expect(events).toContainEqual({
      type: 'failed',
      external_id: 'a1',
      reason: 'custom_attributes.plan: archived since the import, not restored',
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        step: expect.objectContaining({ action: 'restore', changes: { name: ['Ann X', 'Ann'] } }),
      }),
    );
    const { report: undone, events: told } = await undoCollecting(mock, report.undo!);
    expect(undone).toMatchObject({ restored: 1, failed: 1 });
    expect(told.filter((e) => e.type === 'failed')).toHaveLength(1);
    expect(mock.store.findContact(AGENT, 'a1')).toMatchObject({
      name: 'Ann',
      custom_attributes: { plan: 'pro' },
    });
  });

  it('keeps no record for a dry run, `undo: off`, or an import that wrote nothing', async () => {
    const mock = await fiftyContacts();
    const dir = await tempDir();
    const undoDir = join(dir, 'undo');
    expect((await importHundred(mock, dir, undoDir, { dryRun: true })).undo).toBeNull();
    expect((await importHundred(mock, dir, undoDir, { undo: 'off' })).undo).toBeNull();
    const input = join(dir, 'bad.ndjson');
    await writeFile(input, '{"external_id":"x","email":"not an email"}\n');
    const rejected = await runImport({ client: clientFor(mock), agentId: AGENT, input, undoDir });
    expect(rejected.rejected).toBe(1);
    expect(rejected.undo).toBeNull();
    expect(await listUndoRecords(undoDir)).toEqual([]);
  });
});

describe('undoImport: its options', () => {
  it('refuses what it cannot take before it opens the record', async () => {
    const client = new ContactsClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'bk_test_key' });
    const record = join(await tempDir('undo-options-'), 'missing.db');
    await expect(undoImport({ client, agentId: 'a1', record, concurrency: 0 })).rejects.toMatchObject({
      name: 'InvalidOptionError',
      code: 'out_of_range',
      param: 'concurrency',
    });
    await expect(
      undoImport({ client, agentId: 'a1', record: { id: 'x' } as unknown as string }),
    ).rejects.toMatchObject({ name: 'InvalidOptionError', code: 'invalid_type', param: 'record' });
    await expect(undoImport({ client, agentId: '', record })).rejects.toMatchObject({ param: 'agentId' });
    await client.close();
  });
});
