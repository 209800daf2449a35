// The import pipeline end to end against the mock on port 0: every row lands exactly once, in
// file order per external_id, or lands in the rejects file with its reason; faults included.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Workbook } from '@cj-tech-master/excelts';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMapOption } from '../../src/cli/map-options.js';
import { ContactsClient } from '../../src/client/client.js';
import { OutputWriteError } from '../../src/importer/errors.js';
import type { OpenOutput } from '../../src/importer/output-file.js';
import {
  type ImportEvent,
  ImportStoppedError,
  LOOK_AHEAD_MAX_CHARS,
  runImport,
} from '../../src/importer/pipeline.js';
import type { MockServer } from '../../src/mock/server.js';
import { startTestMock } from '../helpers/mock.js';
import { tempDir } from './helpers.js';

const KEY = 'bk_import_test_key';
const AGENT = 'imp';
const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientFor(url: string) {
  const client = new ContactsClient({
    baseUrl: url,
    apiKey: KEY,
    agentId: AGENT,
    // A 503's Retry-After (a second) is cut short: these tests are about what lands, not waits.
    retry: { initialDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 100 },
  });
  clients.push(client);
  return client;
}

async function setup(faults?: Parameters<typeof startTestMock>[0]) {
  const mock = await startTestMock(faults);
  mock.store.defineAttribute(AGENT, { name: 'plan', type: 'text' });
  mock.store.defineAttribute(AGENT, { name: 'seats', type: 'number' });
  mock.store.defineAttribute(AGENT, { name: 'legacy', type: 'text' });
  mock.store.updateAttribute(AGENT, 'legacy', { archived: true });
  return { mock, client: clientFor(mock.url), dir: await tempDir() };
}

const byKey = (mock: MockServer) => new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));

/** A workbook of one sheet with these rows. */
async function writeSheet(file: string, name: string, rows: unknown[][]) {
  const wb = new Workbook();
  const sheet = wb.addWorksheet(name);
  for (const row of rows) sheet.addRow(row);
  await wb.xlsx.writeFile(file);
}

/** Runs an import that is stopped (as Ctrl-C stops one) once the mock has taken `batches` writes. */
async function stoppedImport(
  mock: Awaited<ReturnType<typeof setup>>['mock'],
  batches: number,
  options: Omit<Parameters<typeof runImport>[0], 'signal'>,
) {
  const controller = new AbortController();
  let taken = 0;
  const unsubscribe = mock.store.onChange(() => {
    if (++taken === batches) controller.abort();
  });
  try {
    return await runImport({ ...options, signal: controller.signal });
  } finally {
    unsubscribe();
  }
}

/** A CSV of `n` rows; every 7th row repeats an earlier id, so duplicates meet concurrency. */
function csvRows(n: number): { text: string; last: Map<string, { name: string; seats: string }> } {
  const last = new Map<string, { name: string; seats: string }>();
  const lines = ['External ID,Name,Email,seats'];
  for (let i = 1; i <= n; i++) {
    const id = i % 7 === 0 ? `u${i - 5}` : `u${i}`;
    const row = { name: `Name ${i}`, seats: String(i) };
    last.set(id, row);
    lines.push(`${id},${row.name},${id}@example.com,${row.seats}`);
  }
  return { text: `${lines.join('\n')}\n`, last };
}

function expectDirectoryEquals(mock: MockServer, last: Map<string, { name: string; seats: string }>) {
  const contacts = byKey(mock);
  expect(mock.store.contacts(AGENT)).toHaveLength(last.size);
  for (const [id, row] of last) {
    expect(contacts.get(id), id).toMatchObject({
      name: row.name,
      custom_attributes: { seats: Number(row.seats) },
    });
  }
}

describe('runImport', () => {
  it('imports a CSV with duplicates applied in file order under concurrency', async () => {
    const { mock, client, dir } = await setup();
    const { text, last } = csvRows(300);
    const file = join(dir, 'people.csv');
    await writeFile(file, text);
    const report = await runImport({ client, agentId: AGENT, input: file, concurrency: 16 });
    expect(report).toMatchObject({ rows: 300, rejected: 0, interrupted: false, rejectsFile: null });
    expect(report.created).toBe(last.size);
    expect(report.updated).toBe(300 - last.size);
    expectDirectoryEquals(mock, last);
    expect(existsSync(`${file}.import-checkpoint.json`)).toBe(false);
  });

  it('rejects bad rows locally and on the service, with line numbers and reasons, and keeps going', async () => {
    const { mock, client, dir } = await setup();
    mock.store.upsertContact(AGENT, { external_id: 'owner', email: 'taken@example.com' });
    const file = join(dir, 'mixed.csv');
    await writeFile(
      file,
      [
        'external_id,name,email,phonenumber,plan,seats,legacy',
        'ok1,Ada,,+44 20 7946 0958,pro,1,',
        ',No Id,,,,,',
        'e1,Bad Email,not-an-email,,,,',
        'p1,Bad Phone,,12345,,,',
        's1,Bad Seats,,,,many,',
        'l1,Archived,,,,,old',
        'c1,Conflict,TAKEN@example.com,,,,',
        'w1,Too,Many,Cells,,,,,extra',
        'ok2,Grace,,,team,2,',
      ].join('\n'),
    );
    // An archived attribute's column is skipped unless asked for: here it is, to see its reject.
    const maps = [parseMapOption('legacy=attr.legacy')];
    // --strict: a field that cannot be read rejects its row, as before the fixes file.
    const report = await runImport({ client, agentId: AGENT, input: file, maps, strict: true });
    expect(report).toMatchObject({ rows: 9, created: 2, rejected: 7, fixed: 0, fixesFile: null });
    const rejects = await readFile(report.rejectsFile!, 'utf8');
    const lines = rejects.trim().split('\n');
    expect(lines[0]).toBe('external_id,name,email,phonenumber,plan,seats,legacy,_line,_error');
    const reasons = Object.fromEntries(lines.slice(1).map((l) => [l.split(',')[0], l]));
    expect(reasons['']).toMatch(/,3,"?external_id: /);
    expect(reasons.e1).toMatch(/,4,"?email: Invalid email/);
    expect(reasons.p1).toMatch(/,5,"?phonenumber: not a valid number in GB/);
    expect(reasons.s1).toMatch(/,6,"?custom_attributes\.seats: Expected a number/);
    expect(reasons.l1).toMatch(/,7,"?custom_attributes\.legacy: .*archived/);
    // Refused by the service in a batch, which names the item: the reason is its issue.
    expect(reasons.c1).toMatch(/,8,"?email: Email already exists/);
    expect(reasons.w1).toMatch(/,9,"?/);
    expect([...byKey(mock).keys()].sort()).toEqual(['ok1', 'ok2', 'owner']);
  });

  it('lands a contact without the field it cannot read, and keeps the field in a fixes file that imports as is', async () => {
    const { mock, client, dir } = await setup();
    mock.store.defineAttribute(AGENT, { name: 'vip', type: 'boolean' });
    mock.store.defineAttribute(AGENT, { name: 'signup_date', type: 'date' });
    const file = join(dir, 'fields.csv');
    await writeFile(
      file,
      [
        'external_id,name,phonenumber,seats,vip,signup_date',
        'a,Ann,12345,many,maybe,2024-13-01',
        'b,Bob,+44 20 7946 0958,3,yes,2024-05-31 17:59',
      ].join('\n'),
    );
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ rows: 2, created: 2, rejected: 0, fixed: 1, rejectsFile: null });
    // Every problem of the row, each under its own reason.
    expect(report.fixReasons.map((r) => r.reason.split(':')[0]).sort()).toEqual([
      'custom_attributes.seats',
      'custom_attributes.signup_date',
      'custom_attributes.vip',
      'phonenumber',
    ]);
    const contacts = byKey(mock);
    expect(contacts.get('a')).toMatchObject({ name: 'Ann', phonenumber: null, custom_attributes: {} });
    expect(contacts.get('b')).toMatchObject({
      phonenumber: '+442079460958',
      custom_attributes: { seats: 3, vip: true, signup_date: '2024-05-31T17:59:00.000Z' },
    });
    const fixes = await readFile(report.fixesFile!, 'utf8');
    const [header, row] = fixes.trim().split('\n');
    expect(header).toBe(
      'external_id,name,phonenumber,country,attr.seats,attr.vip,attr.signup_date,_line,_error',
    );
    expect(row).toMatch(
      /^a,,12345,,many,maybe,2024-13-01,2,"custom_attributes\.vip: .*; phonenumber: .*; custom_attributes\.seats: .*"$/,
    );
    // Corrected, it imports as is and fills in just those fields.
    await writeFile(
      report.fixesFile!,
      `${header}\n${row!.replace('12345,,many,maybe,2024-13-01', '+44 20 7946 0958,,4,no,2024-12-01')}\n`,
    );
    const again = await runImport({ client, agentId: AGENT, input: report.fixesFile! });
    expect(again).toMatchObject({ rows: 1, updated: 1, rejected: 0, fixed: 0 });
    expect(byKey(mock).get('a')).toMatchObject({
      name: 'Ann',
      phonenumber: '+442079460958',
      custom_attributes: { seats: 4, vip: false, signup_date: '2024-12-01' },
    });
  });

  it('re-imports a fixed rejects file as is (its _line and _error columns are ignored)', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'in.csv');
    await writeFile(file, 'external_id,email\na,a@example.com\nb,broken\n');
    const first = await runImport({ client, agentId: AGENT, input: file });
    expect(first.rejected).toBe(1);
    const fixed = (await readFile(first.rejectsFile!, 'utf8')).replace('broken', 'b@example.com');
    await writeFile(first.rejectsFile!, fixed);
    const second = await runImport({ client, agentId: AGENT, input: first.rejectsFile! });
    expect(second).toMatchObject({ rows: 1, created: 1, rejected: 0 });
    expect(byKey(mock).get('b')?.email).toBe('b@example.com');
  });

  it('imports JSON arrays and NDJSON with nested custom_attributes, rejecting a bad line', async () => {
    const { mock, client, dir } = await setup();
    const json = join(dir, 'a.json');
    await writeFile(
      json,
      JSON.stringify([
        { external_id: 1, custom_attributes: { seats: '4' } },
        { external_id: 'j2', name: 'J' },
      ]),
    );
    expect(await runImport({ client, agentId: AGENT, input: json })).toMatchObject({ rows: 2, created: 2 });
    const ndjson = join(dir, 'b.ndjson');
    await writeFile(
      ndjson,
      '{"external_id":"n1","custom_attributes":{"plan":"pro"}}\n{oops\n{"external_id":"n2","extra":1}\n',
    );
    const report = await runImport({ client, agentId: AGENT, input: ndjson });
    expect(report).toMatchObject({ rows: 3, created: 1, rejected: 2 });
    expect(byKey(mock).get('1')?.custom_attributes).toEqual({ seats: 4 });
    expect(byKey(mock).get('n1')?.custom_attributes).toEqual({ plan: 'pro' });
    const rejects = (await readFile(report.rejectsFile!, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rejects.map((r) => r._line)).toEqual([2, 3]);
    expect(rejects[1]._error).toMatch(/extra: Unknown field/);
  });

  it('a dry run reports what would change and writes nothing', async () => {
    const { mock, client, dir } = await setup();
    mock.store.upsertContact(AGENT, { external_id: 'u2', name: 'Before' });
    const file = join(dir, 'dry.csv');
    await writeFile(file, 'id,name,email\nu1,Ann Lee,\nu2,B,\nu1,Ann Lee-Park,\nu3,D,nope\n');
    const writesBefore = mock.requests.filter((r) => r.method !== 'GET').length;
    const report = await runImport({ client, agentId: AGENT, input: file, dryRun: true });
    expect(report).toMatchObject({
      dryRun: true,
      rows: 4,
      created: 1,
      updated: 2,
      rejected: 1,
      rejectsFile: null,
    });
    expect(mock.requests.filter((r) => r.method !== 'GET').length).toBe(writesBefore);
    expect(byKey(mock).get('u2')?.name).toBe('Before');
    expect(mock.store.contacts(AGENT)).toHaveLength(1);
    expect(existsSync(join(dir, 'dry.rejects.csv'))).toBe(false);
    expect(existsSync(`${file}.import-checkpoint.json`)).toBe(false);
  });

  it('sends no row that gives nothing but its key, in a dry run as in a real one, and says which', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'partial.csv');
    // Line 3 is a partial form response, line 5 a row of its key alone: no contact is made of either.
    await writeFile(file, 'id,name,email\nu1,Ann Lee,ann@example.com\nu2,,\nu3,Cy,\nu4, , \n');
    const dry = await runImport({ client, agentId: AGENT, input: file, dryRun: true });
    expect(dry).toMatchObject({ rows: 4, created: 2, rejected: 0, empty: { count: 2, lines: [3, 5] } });
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ rows: 4, created: 2, rejected: 0, empty: { count: 2, lines: [3, 5] } });
    expect([...byKey(mock).keys()].sort()).toEqual(['u1', 'u3']);
  });

  it('uses the batch form, and isolates a bad row of a rejected batch', async () => {
    const { mock, client, dir } = await setup();
    mock.store.upsertContact(AGENT, { external_id: 'owner', email: 'dup@example.com' });
    const { text, last } = csvRows(120);
    const file = join(dir, 'batch.csv');
    await writeFile(file, `${text}x1,Conflict,dup@example.com,1\n`);
    const report = await runImport({ client, agentId: AGENT, input: file, batchSize: 25, concurrency: 4 });
    expect(report).toMatchObject({ rows: 121, rejected: 1 });
    expect(report.created + report.updated).toBe(120);
    const batchPosts = mock.requests.filter((r) => r.method === 'POST').length;
    expect(batchPosts).toBeLessThan(120);
    mock.store.deleteContact(AGENT, 'owner');
    expectDirectoryEquals(mock, last);
  });

  it('rejects in-file email conflicts before sending, naming the line that holds the email', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'emails.csv');
    await writeFile(
      file,
      [
        'external_id,email',
        'a,x@example.com', // line 2: a takes x
        'b,X@example.com', // line 3: x is a's: rejected
        'a,y@example.com', // line 4: a gives x up
        'b,x@example.com', // line 5: x is free again
        'c,y@example.com', // line 6: y is a's: rejected
      ].join('\n'),
    );
    const dryEvents: { line: number; reason: string }[] = [];
    const dry = await runImport({
      client,
      agentId: AGENT,
      input: file,
      dryRun: true,
      onEvent: (e) => {
        if (e.type === 'reject') dryEvents.push({ line: e.line, reason: e.reason });
      },
    });
    expect(dry.rejected).toBe(2);
    expect(dryEvents).toEqual([
      { line: 3, reason: expect.stringMatching(/^email: X@example.com is already the email of line 2 /) },
      { line: 6, reason: expect.stringMatching(/^email: y@example.com is already the email of line 4 /) },
    ]);

    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ rows: 5, rejected: 2 });
    const rejects = (await readFile(report.rejectsFile!, 'utf8')).trim().split('\n');
    expect(rejects.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      'b,X@example.com,3',
      'c,y@example.com,6',
    ]);
    expect(rejects[1]).toContain('is already the email of line 2');
    // Nothing reached the service to be refused: no 409, and the survivors in their final state.
    expect(mock.requests.some((r) => r.status === 409)).toBe(false);
    expect(byKey(mock).get('a')?.email).toBe('y@example.com');
    expect(byKey(mock).get('b')?.email).toBe('x@example.com');
    expect(byKey(mock).has('c')).toBe(false);
  });

  it('counts an unchanged re-import as updated, in batches as in single rows', async () => {
    const { client, dir } = await setup();
    const file = join(dir, 'again.csv');
    await writeFile(file, 'external_id,name\na,A\nb,B\nc,C\n');
    expect(await runImport({ client, agentId: AGENT, input: file, batchSize: 10 })).toMatchObject({
      created: 3,
    });
    for (const batchSize of [1, 10]) {
      const again = await runImport({ client, agentId: AGENT, input: file, batchSize });
      expect(again).toMatchObject({ rows: 3, created: 0, updated: 3 });
    }
  });

  it('falls back to single rows when the service does not take the batch form', async () => {
    const bodies: unknown[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET' && req.url?.includes('/contacts')) {
          const empty = {
            message: 'Success',
            data: [],
            total: 0,
            pages: { page: 1, per_page: 10, total_pages: 0 },
          };
          return res.end(JSON.stringify(empty));
        }
        if (req.method === 'GET') return res.end(JSON.stringify({ message: 'Success', data: [] }));
        const parsed = JSON.parse(body);
        bodies.push(parsed);
        if (parsed.users) {
          res.statusCode = 400;
          return res.end(
            JSON.stringify({
              message: 'Validation failed',
              issues: [{ field: 'users', message: 'Unknown field' }],
            }),
          );
        }
        res.statusCode = 201;
        res.end(
          JSON.stringify({
            message: 'Success',
            data: {
              id: `ct_${parsed.external_id}`,
              external_id: parsed.external_id,
              name: null,
              email: null,
              phonenumber: null,
              custom_attributes: {},
              created_at: 1,
              updated_at: 1,
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const dir = await tempDir();
      const file = join(dir, 'x.ndjson');
      await writeFile(
        file,
        Array.from({ length: 30 }, (_, i) => JSON.stringify({ external_id: `k${i}` })).join('\n'),
      );
      const events: string[] = [];
      const report = await runImport({
        client: clientFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        agentId: AGENT,
        input: file,
        batchSize: 10,
        concurrency: 1,
        onEvent: (e) => events.push(e.type),
      });
      expect(report).toMatchObject({ rows: 30, created: 30, rejected: 0 });
      expect(events).toContain('batch-unsupported');
      expect(bodies.filter((b) => (b as { users?: unknown }).users)).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    ['single rows', 1],
    ['batches', 20],
  ])(
    'lands every row exactly once through 500s, 503s, resets and lost responses (%s)',
    async (_, batchSize) => {
      const { mock, client, dir } = await setup({ faults: { failRate: 0.3, seed: 42 } });
      const { text, last } = csvRows(400);
      const file = join(dir, 'faulty.csv');
      await writeFile(file, text);
      const report = await runImport({ client, agentId: AGENT, input: file, concurrency: 8, batchSize });
      expect(report).toMatchObject({ rows: 400, rejected: 0 });
      expect(report.created + report.updated).toBe(400);
      expect(report.created).toBe(last.size);
      const kinds = new Set(mock.requests.map((r) => r.fault).filter(Boolean));
      expect([...kinds].sort()).toEqual(['error-500', 'error-503', 'lost', 'reset']);
      expectDirectoryEquals(mock, last);
    },
  );

  it("keeps to the service's stated rate limit instead of meeting 429s", async () => {
    const { mock, client, dir } = await setup({ faults: { rateLimit: 100 } });
    const { text, last } = csvRows(250);
    const file = join(dir, 'limited.csv');
    await writeFile(file, text);
    // Single rows: 250 requests against 100 a second.
    const report = await runImport({ client, agentId: AGENT, input: file, batchSize: 1, concurrency: 32 });
    expect(report).toMatchObject({ rows: 250, rejected: 0 });
    expect(report.throttled).toBeLessThanOrEqual(2);
    expect(mock.requests.filter((r) => r.status === 429).length).toBe(report.throttled);
    // Paced: three windows at least for the 250 rows and the import's own reads.
    expect(report.durationMs).toBeGreaterThan(1500);
    expectDirectoryEquals(mock, last);
  });

  it('slows down instead of failing when rate limited by a service that states no limit', async () => {
    const { mock, client, dir } = await setup({ faults: { rateLimit: 10, rateLimitHeaders: false } });
    const { text, last } = csvRows(250);
    const file = join(dir, 'limited.csv');
    await writeFile(file, text);
    let throttled = 0;
    const report = await runImport({
      client,
      agentId: AGENT,
      input: file,
      batchSize: 10,
      concurrency: 32,
      onEvent: (e) => {
        if (e.type === 'throttled') throttled++;
      },
    });
    expect(report).toMatchObject({ rows: 250, rejected: 0 });
    expect(throttled).toBeGreaterThan(0);
    expect(report.throttled).toBeGreaterThan(0);
    // Learned from the 429s: most requests went through.
    expect(report.throttled).toBeLessThan(report.requests / 2);
    expect(mock.requests.some((r) => r.status === 429)).toBe(true);
    expectDirectoryEquals(mock, last);
  });

  it('stops at the signal, keeps the checkpoint, and a resume sends only the rest', async () => {
    const { mock, client, dir } = await setup();
    const { text, last } = csvRows(200);
    const file = join(dir, 'stop.csv');
    await writeFile(file, text);
    const first = await stoppedImport(mock, 5, {
      client,
      agentId: AGENT,
      input: file,
      concurrency: 2,
      batchSize: 10,
    });
    expect(first.interrupted).toBe(true);
    // Rows read but not yet sent at the signal are not sent: a resume does.
    expect(first.created + first.updated).toBeLessThan(200);
    expect(existsSync(first.checkpointFile!)).toBe(true);

    const landedBefore = first.created + first.updated;
    const postsBefore = mock.requests.filter((r) => r.method === 'POST').length;
    // Single rows, so that requests count rows.
    const second = await runImport({ client, agentId: AGENT, input: file, resume: true, batchSize: 1 });
    expect(second.skipped).toBe(landedBefore);
    expect(second.created + second.updated + second.skipped).toBe(200);
    expect(mock.requests.filter((r) => r.method === 'POST').length - postsBefore).toBe(200 - landedBefore);
    expect(existsSync(first.checkpointFile!)).toBe(false);
    expectDirectoryEquals(mock, last);
  });
});

describe('the files a resume appends to', () => {
  /** Rows u1..un: every 3rd lands without its phone (a fix), every 10th is rejected (its email). */
  function fixRows(n: number, note = '') {
    const lines = ['external_id,name,email,phonenumber,notes'];
    for (let i = 1; i <= n; i++) {
      const email = i % 10 === 0 ? 'bad' : `u${i}@example.com`;
      lines.push(`u${i},Name ${i},${email},${i % 3 === 0 ? '12345' : '+442079460958'},${note}`);
    }
    const valid = Array.from({ length: n }, (_, k) => k + 1).filter((i) => i % 10 !== 0);
    return {
      text: `${lines.join('\n')}\n`,
      landed: valid.map((i) => `u${i}`),
      fixed: valid.filter((i) => i % 3 === 0).map((i) => `u${i}`),
      rejected: Array.from({ length: n }, (_, k) => k + 1)
        .filter((i) => i % 10 === 0)
        .map((i) => `u${i}`),
    };
  }
  /** The first cell of every record after the header (a CSV without quoted newlines). */
  const keysOf = async (path: string) =>
    (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0] ?? '');
  const resultKeys = async (path: string) =>
    (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).external_id as string);
  const sorted = (keys: string[]) => [...keys].sort();

  it('keeps the fixes and results of a stopped run and appends those of the resume: every row once', async () => {
    const { mock, client, dir } = await setup();
    const rows = fixRows(200);
    const file = join(dir, 'fix.csv');
    await writeFile(file, rows.text);
    const resultsPath = join(dir, 'results.ndjson');
    const options = { client, agentId: AGENT, input: file, resultsPath, batchSize: 10 };
    const first = await stoppedImport(mock, 3, { ...options, concurrency: 2 });
    expect(first.interrupted).toBe(true);
    const fixesPath = first.fixesFile!;
    const firstFixes = await keysOf(fixesPath);
    // Only contacts that landed have fixes: none of a row left unsent, which the resume sends.
    const landedFirst = new Set(await resultKeys(resultsPath));
    expect(firstFixes.length).toBe(first.fixed);
    expect(firstFixes.every((k) => landedFirst.has(k))).toBe(true);
    expect(first.fixed).toBeLessThan(rows.fixed.length);
    const firstText = await readFile(fixesPath, 'utf8');

    const second = await runImport({ ...options, resume: true });
    expect(second.skipped).toBe(first.created + first.updated);
    expect(second.fixesFile).toBe(fixesPath);
    const text = await readFile(fixesPath, 'utf8');
    expect(text.startsWith(firstText)).toBe(true);
    expect(text.match(/^external_id,/gm)).toHaveLength(1);
    expect(sorted(await keysOf(fixesPath))).toEqual(sorted(rows.fixed));
    expect(sorted(await resultKeys(resultsPath))).toEqual(sorted(rows.landed));
    expect(sorted(await keysOf(second.rejectsFile!))).toEqual(sorted(rows.rejected));
    expect(sorted(mock.store.contacts(AGENT).map((c) => c.external_id))).toEqual(sorted(rows.landed));
  });

  it('removes the temporary files a killed run of the same input left beside its files', async () => {
    const { client, dir } = await setup();
    const file = join(dir, 'left.csv');
    await writeFile(file, 'external_id,email\na,a@example.com\nb,bad\n');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const left = [
      `.left.csv.import-checkpoint.json.${gone}-0badc0de.partial`,
      `.left.rejects.csv.${gone}-0badc0de.partial`,
      `.left.fixes.csv.${gone}-0badc0de.partial`,
    ];
    for (const name of left) await writeFile(join(dir, name), 'half');
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ created: 1, rejected: 1 });
    expect((await readdir(dir)).sort()).toEqual(['left.csv', 'left.rejects.csv']);
  });

  it.each(['rejects', 'fixes', 'results'])(
    'a %s file that cannot be written (a full disk) stops the import, and a resume finishes it exactly',
    async (which) => {
      const { mock, client, dir } = await setup();
      // Wide rows: the rejects file outgrows its buffer while rows are still being sent (the small
      // fixes and results files fail when they are flushed, at a checkpoint or at the end).
      const rows = fixRows(600, 'x'.repeat(1500));
      const file = join(dir, 'full.csv');
      await writeFile(file, rows.text);
      const resultsPath = join(dir, 'results.ndjson');
      const paths: Record<string, string> = {
        rejects: join(dir, 'full.rejects.csv'),
        fixes: join(dir, 'full.fixes.csv'),
        results: resultsPath,
      };
      const target = paths[which]!;
      // Room for a few records of that file; every other file has all it needs.
      let room = 600;
      const openFile: OpenOutput = async (path) => {
        const handle = await open(path, 'a+');
        if (path !== target) return handle;
        const write = handle.write.bind(handle) as (
          d: Uint8Array,
          o: number,
          l: number,
        ) => Promise<{ bytesWritten: number }>;
        return Object.assign(handle, {
          write: async (data: Uint8Array, offset = 0, length = data.length - offset) => {
            if (room === 0)
              throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            const taken = Math.min(room, length);
            room -= taken;
            return write(data, offset, taken);
          },
        });
      };
      const options = { client, agentId: AGENT, input: file, resultsPath, batchSize: 20, concurrency: 2 };
      const error = await runImport({ ...options, openFile }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportStoppedError);
      const stopped = error as ImportStoppedError;
      expect(stopped.cause).toBeInstanceOf(OutputWriteError);
      expect(stopped.message).toBe(
        `Import stopped: Cannot write the ${which} file ${target}: the disk is full (ENOSPC)`,
      );
      expect(stopped.report.checkpointFile).toBe(`${file}.import-checkpoint.json`);
      expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);

      // Space freed: the resume lands the rest, and every file holds each of its rows once.
      const resumed = await runImport({ ...options, resume: true });
      expect(resumed.created + resumed.updated + resumed.skipped).toBe(rows.landed.length);
      expect(sorted(mock.store.contacts(AGENT).map((c) => c.external_id))).toEqual(sorted(rows.landed));
      expect(mock.store.contacts(AGENT).every((c) => c.name === `Name ${c.external_id.slice(1)}`)).toBe(true);
      expect(sorted(await resultKeys(resultsPath))).toEqual(sorted(rows.landed));
      expect(sorted(await keysOf(paths.fixes!))).toEqual(sorted(rows.fixed));
      expect(sorted(await keysOf(paths.rejects!))).toEqual(sorted(rows.rejected));
      expect(existsSync(`${file}.import-checkpoint.json`)).toBe(false);
    },
  );
});

describe('the service a checkpoint was written for', () => {
  it('refuses a resume against another base URL, or the embedded mock, naming both', async () => {
    const { mock, client, dir } = await setup();
    const { text } = csvRows(60);
    const file = join(dir, 'svc.csv');
    await writeFile(file, text);
    const first = await stoppedImport(mock, 2, {
      client,
      agentId: AGENT,
      input: file,
      batchSize: 5,
      service: 'https://a.example/',
    });
    expect(first.interrupted).toBe(true);
    const sent = mock.requests.length;
    await expect(
      runImport({ client, agentId: AGENT, input: file, resume: true, service: 'https://b.example' }),
    ).rejects.toMatchObject({
      name: 'CheckpointMismatchError',
      // How to resume (the CLI's --base-url) is the caller's to say: the service resumed is data.
      mismatches: [
        {
          code: 'service',
          reason: 'the run resumed imported into https://a.example, this run into https://b.example',
          was: 'https://a.example',
          now: 'https://b.example',
        },
      ],
    });
    await expect(
      runImport({ client, agentId: AGENT, input: file, resume: true, service: 'mock:/d/mock.db' }),
    ).rejects.toMatchObject({ name: 'CheckpointMismatchError' });
    // Refused before anything was sent; the same service (its trailing slash aside) resumes.
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(
      mock.requests.slice(0, sent).filter((r) => r.method === 'POST').length,
    );
    const resumed = await runImport({
      client,
      agentId: AGENT,
      input: file,
      resume: true,
      service: 'https://a.example',
    });
    expect(resumed.skipped).toBe(first.created + first.updated);
  });
});

describe('an unfinished import of the same file', () => {
  it('refuses a run told neither to resume nor to restart; restart discards the checkpoint', async () => {
    const { mock, client, dir } = await setup();
    const { text, last } = csvRows(50);
    const file = join(dir, 'again.csv');
    await writeFile(file, text);
    const first = await stoppedImport(mock, 2, { client, agentId: AGENT, input: file, batchSize: 5 });
    expect(first.interrupted).toBe(true);
    const checkpoint = await readFile(first.checkpointFile!, 'utf8');
    const landed = first.created + first.updated;

    const posts = () => mock.requests.filter((r) => r.method === 'POST').length;
    const sent = posts();
    await expect(runImport({ client, agentId: AGENT, input: file })).rejects.toMatchObject({
      name: 'UnfinishedImportError',
      code: 'unfinished_import',
      path: first.checkpointFile,
      landed,
    });
    expect(posts()).toBe(sent);
    expect(await readFile(first.checkpointFile!, 'utf8')).toBe(checkpoint);
    // A dry run neither refuses nor touches it.
    expect((await runImport({ client, agentId: AGENT, input: file, dryRun: true })).rows).toBe(50);
    expect(await readFile(first.checkpointFile!, 'utf8')).toBe(checkpoint);

    const events: ImportEvent[] = [];
    const second = await runImport({
      client,
      agentId: AGENT,
      input: file,
      restart: true,
      onEvent: (e) => events.push(e),
    });
    expect(events.find((e) => e.type === 'start')).toMatchObject({ checkpointDiscarded: true });
    expect([second.skipped, second.created + second.updated]).toEqual([0, 50]);
    expect(existsSync(first.checkpointFile!)).toBe(false);
    expectDirectoryEquals(mock, last);
  });
});

describe('date-times without a zone', () => {
  it('a resume reads them in the zone of the run it resumes, or is refused', async () => {
    const { mock, client, dir } = await setup();
    mock.store.defineAttribute(AGENT, { name: 'created', type: 'date' });
    const rows = Array.from(
      { length: 60 },
      (_, i) => `u${i + 1},2024-01-15 09:${String(i).padStart(2, '0')}`,
    );
    const file = join(dir, 'zoned.csv');
    await writeFile(file, `id,created\n${rows.join('\n')}\n`);
    const zone = 'America/New_York';
    const first = await stoppedImport(mock, 2, {
      client,
      agentId: AGENT,
      input: file,
      batchSize: 10,
      concurrency: 1,
      timeZone: zone,
    });
    expect(first.interrupted).toBe(true);

    await expect(runImport({ client, agentId: AGENT, input: file, resume: true })).rejects.toMatchObject({
      name: 'CheckpointMismatchError',
      mismatches: [
        {
          code: 'time_zone',
          reason: 'the run resumed read date-times without a zone as America/New_York, this run as UTC',
          was: 'America/New_York',
          now: 'UTC',
        },
      ],
    });
    const second = await runImport({ client, agentId: AGENT, input: file, resume: true, timeZone: zone });
    expect(second.skipped).toBe(first.created);
    expect(second.created + second.skipped).toBe(60);
    // 09:MM EST is 14:MM UTC, in the rows of both runs.
    const created = mock.store.contacts(AGENT).map((c) => c.custom_attributes.created);
    expect(created).toEqual(
      Array.from({ length: 60 }, (_, i) => `2024-01-15T14:${String(i).padStart(2, '0')}:00.000Z`),
    );
  });

  it('refuses a time zone Intl does not know', async () => {
    const { client, dir } = await setup();
    const file = join(dir, 'z.csv');
    await writeFile(file, 'id\nu1\n');
    await expect(
      runImport({ client, agentId: AGENT, input: file, timeZone: 'Mars/Olympus_Mons' }),
    ).rejects.toThrow('Unknown time zone: Mars/Olympus_Mons');
  });
});

describe('a resume with other reading options', () => {
  it('is refused naming the option, when the default country or the date order differ from the run resumed', async () => {
    const { mock, client, dir } = await setup();
    const rows = Array.from({ length: 60 }, (_, i) => `u${i + 1},020 7946 ${String(i).padStart(4, '0')}`);
    const file = join(dir, 'national.csv');
    await writeFile(file, `id,phonenumber\n${rows.join('\n')}\n`);
    const first = await stoppedImport(mock, 2, {
      client,
      agentId: AGENT,
      input: file,
      batchSize: 10,
      concurrency: 1,
      defaultCountry: 'GB',
    });
    expect(first.interrupted).toBe(true);

    await expect(
      runImport({
        client,
        agentId: AGENT,
        input: file,
        resume: true,
        defaultCountry: 'US',
        dateOrder: 'dmy',
      }),
    ).rejects.toMatchObject({
      name: 'CheckpointMismatchError',
      mismatches: [
        {
          code: 'option',
          option: 'defaultCountry',
          reason: 'the run resumed had default country GB, this run has US',
          was: 'GB',
          now: 'US',
        },
        {
          code: 'option',
          option: 'dateOrder',
          reason: 'the run resumed had no date order, this run has dmy',
          was: null,
          now: 'dmy',
        },
      ],
    });
    const second = await runImport({
      client,
      agentId: AGENT,
      input: file,
      resume: true,
      defaultCountry: 'GB',
    });
    expect(second.created + second.skipped).toBe(60);
    expect(mock.store.contacts(AGENT).every((c) => c.phonenumber?.startsWith('+44207946'))).toBe(true);
  });
});

describe('fixes files of workbooks and TSV files', () => {
  // The fixes file is the input's kind of rows: a workbook's is CSV, a .tsv's is tab-separated,
  // so each imports back as is.
  it("writes an .xlsx import's fixes as CSV (external_id and the original value) that imports back", async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'book.xlsx');
    await writeSheet(file, 'Contacts', [
      ['external_id', 'name', 'seats'],
      ['a', 'Ann', 'many'],
      ['b', 'Bob', 3],
    ]);
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ created: 2, rejected: 0, fixed: 1 });
    expect(report.fixesFile).toBe(join(dir, 'book.fixes.csv'));
    const [header, row] = (await readFile(report.fixesFile!, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(header).toBe('external_id,name,phonenumber,country,attr.seats,_line,_error');
    expect(row).toMatch(/^a,,,,many,2,"?custom_attributes\.seats: /);
    const again = await runImport({ client, agentId: AGENT, input: report.fixesFile! });
    // Imported as is: read as CSV rows, the unreadable value is refused again, and with it the
    // row, which has nothing else to give: it goes to the rejects file to be mended.
    expect(again).toMatchObject({ rows: 1, created: 0, updated: 0, rejected: 1, fixed: 0 });
    expect(again.rejectReasons[0]?.reason).toMatch(
      /^nothing to import but its external_id once the values that cannot be read are left out: custom_attributes\.seats: /,
    );
    expect(byKey(mock).get('a')).toMatchObject({ name: 'Ann', custom_attributes: {} });
  });

  it("writes a .tsv import's fixes tab-separated, so they import back as a .tsv", async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'people.tsv');
    await writeFile(file, 'external_id\tname\tseats\na\tAnn\tmany\nb\tBob\t3\n');
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ created: 2, rejected: 0, fixed: 1 });
    expect(report.fixesFile).toBe(join(dir, 'people.fixes.tsv'));
    const [header, row] = (await readFile(report.fixesFile!, 'utf8')).trim().split('\n');
    expect(header).toBe('external_id\tname\tphonenumber\tcountry\tattr.seats\t_line\t_error');
    expect(row).toMatch(/^a\t\t\t\tmany\t2\t"?custom_attributes\.seats: /);
    await writeFile(report.fixesFile!, `${header}\n${row!.replace('many', '4')}\n`);
    const again = await runImport({ client, agentId: AGENT, input: report.fixesFile! });
    expect(again).toMatchObject({ rows: 1, updated: 1, rejected: 0, fixed: 0 });
    expect(byKey(mock).get('a')).toMatchObject({ name: 'Ann', custom_attributes: { seats: 4 } });
  });
});

describe('a workbook with the leftovers of a report export', () => {
  // The same as a CSV's: a Salesforce report saved as .xlsx repeats its header where two exports
  // were pasted together, and ends with a blank row, a confidentiality notice and a copyright line.
  it('skips a repeated header, blank rows and a Salesforce footer: no contact made of them, none rejected', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'report.xlsx');
    await writeSheet(file, 'Report', [
      ['Contact ID', 'Full Name', 'Email'],
      ['0031', 'Ann Lee', 'ann@example.com'],
      ['Contact ID', 'Full Name', 'Email'],
      ['0032', 'Bob Ray', 'bob@example.com'],
      [],
      ['Confidential Information - Do Not Distribute'],
      ['Copyright (c) 2000-2024 salesforce.com, inc. All rights reserved.'],
    ]);
    const events: { type: string; message?: string }[] = [];
    const report = await runImport({ client, agentId: AGENT, input: file, onEvent: (e) => events.push(e) });
    expect(report).toMatchObject({ rows: 2, created: 2, rejected: 0, rejectsFile: null });
    expect([...byKey(mock).keys()].sort()).toEqual(['0031', '0032']);
    const notes = events.flatMap((e) => (e.type === 'note' || e.type === 'start' ? [JSON.stringify(e)] : []));
    expect(notes.join('\n')).toMatch(/line 3 repeats the header row: skipped/);
    expect(notes.join('\n')).toMatch(/lines 6-7 are a footer after the last row/);
  });
});

describe('the look-ahead', () => {
  it('holds no more than its byte bound while a date column is undecided, then stops naming file and column', async () => {
    const { mock, client, dir } = await setup();
    mock.store.defineAttribute(AGENT, { name: 'joined', type: 'date' });
    const file = join(dir, 'wide.csv');
    // Wide rows whose dates read both ways; the row that would decide them lies past the bound
    // (but well within the row bound), so reading on to it would hold more than the bound.
    const filler = 'x'.repeat(10_000);
    const rows = Math.ceil(LOOK_AHEAD_MAX_CHARS / filler.length) + 20;
    const lines = ['external_id,joined,notes'];
    for (let i = 1; i <= rows; i++) lines.push(`u${i},3/4/2024,${filler}`);
    lines.push('last,20/9/2024,x');
    await writeFile(file, `${lines.join('\n')}\n`);
    const stopped = await runImport({ client, agentId: AGENT, input: file }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(ImportStoppedError);
    expect((stopped as Error).message).toMatch(
      /wide\.csv: column "joined" has dates like 3\/4\/2024 that read both as M\/D\/YYYY and D\/M\/YYYY/,
    );
    expect(mock.store.contacts(AGENT)).toEqual([]);
    // A 17 MB file read, parsed and held to its bound: 9 s on a busy two-core machine, 31 s on a
    // busier one; the default 30 s bounds a hang, not this.
  }, 120_000);

  it('lands the rows read before a read error inside the first rows, then reports the error', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'broken.csv');
    const lines = ['external_id,name'];
    for (let i = 1; i <= 50; i++) lines.push(`u${i},Name ${i}`);
    lines.push('u51,"never closed');
    await writeFile(file, `${lines.join('\n')}\n`);
    const stopped = await runImport({ client, agentId: AGENT, input: file }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(ImportStoppedError);
    expect((stopped as ImportStoppedError).message).toMatch(/line 52.*never closed/);
    expect((stopped as ImportStoppedError).report).toMatchObject({ created: 50, rejected: 0 });
    expect(mock.store.contacts(AGENT)).toHaveLength(50);
  });
});

describe('national numbers of a file with addresses and no country', () => {
  // A shop's customers: each row's state and postcode are the country its number is dialled in.
  it('places each by the state and postcode of its row, and a corrected one by the country in its fixes row', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'customers.csv');
    await writeFile(
      file,
      [
        'Customer ID,Name,Phone,Billing State,Billing Zip',
        'a,Ann,(415) 555-0132,CA,94103',
        'b,Bob,(604) 555-0101,BC,V6B 1A1',
        'c,Cat,(02) 9374 4000,NSW,2000',
        'd,Dan,0412 345 678,WA,6000',
        'e,Eve,555-01,TX,78701',
      ].join('\n'),
    );
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ rows: 5, created: 5, rejected: 0, fixed: 1 });
    const contacts = byKey(mock);
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => contacts.get(k)?.phonenumber)).toEqual([
      '+14155550132',
      '+16045550101',
      '+61293744000',
      '+61412345678',
      null,
    ]);
    const fixes = (await readFile(report.fixesFile!, 'utf8')).trim().split('\n');
    expect(fixes[1]).toMatch(/^e,,555-01,US,/);
  });

  it('gives way to the default country the user names', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'customers.csv');
    await writeFile(file, 'Customer ID,Name,Phone,State,Zip\na,Ann,0412 345 678,TX,78701\n');
    const report = await runImport({ client, agentId: AGENT, input: file, defaultCountry: 'AU' });
    expect(report).toMatchObject({ created: 1, fixed: 0 });
    expect(byKey(mock).get('a')?.phonenumber).toBe('+61412345678');
  });
});

describe('national numbers of a file with time zones and no address', () => {
  // A booking tool's invitees: each picked the zone the times are shown in, which is where they are.
  it("places each in its row's time zone's country, none in a zone of no country", async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'events.csv');
    await writeFile(
      file,
      [
        'Invitee Name,Invitee Email,Text Reminder Number,Invitee Time Zone',
        'Amelia Hart,amelia@example.co.uk,07911 123456,Europe/London',
        'Ravi Kumar,ravi@example.in,098765 43210,Asia/Kolkata',
        'Jo Smith,jo@example.com,(503) 555-0134,America/Los_Angeles',
        'Kim Lee,kim@example.com,02-312-3456,UTC',
        'Lu Wu,lu@example.com,555-01,Europe/London',
      ].join('\n'),
    );
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ rows: 5, created: 5, rejected: 0, fixed: 2 });
    // A zone is no country to write in the fixes file: a default country may read the number.
    const fixes = (await readFile(report.fixesFile!, 'utf8')).trim().split('\n');
    expect(fixes[2]).toMatch(/^lu@example\.com,,555-01,,/);
    const contacts = byKey(mock);
    expect(
      ['amelia@example.co.uk', 'ravi@example.in', 'jo@example.com', 'kim@example.com'].map(
        (k) => contacts.get(k)?.phonenumber,
      ),
    ).toEqual(['+447911123456', '+919876543210', '+15035550134', null]);
  });

  it("reads a traveller's number by the file's own evidence first, the zone only where that fails", async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'events.csv');
    await writeFile(
      file,
      [
        'Invitee Name,Invitee Email,Text Reminder Number,Invitee Time Zone',
        'Al P,al@example.com,+1 503 555 0101,America/Los_Angeles',
        // An American in Mexico City: (503) is Oregon's, though Mexico's numbering has 503 too.
        'Bo P,bo@example.com,(503) 555-0134,America/Mexico_City',
        'Cy P,cy@example.com,(212) 555-0135,Europe/London',
        // No American number: London's zone reads it.
        'Di P,di@example.com,020 7946 0132,Europe/London',
      ].join('\n'),
    );
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ rows: 4, created: 4, rejected: 0, fixed: 0 });
    const contacts = byKey(mock);
    expect(['al', 'bo', 'cy', 'di'].map((k) => contacts.get(`${k}@example.com`)?.phonenumber)).toEqual([
      '+15035550101',
      '+15035550134',
      '+12125550135',
      '+442079460132',
    ]);
  });

  it("reads no national number in the country of a list's few foreign contacts", async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'members.csv');
    const rows = ['Email,Phone,Time Zone'];
    for (let i = 0; i < 10; i++) rows.push(`m${i}@example.com,07400 123 45${i},`);
    // One Indian contact: India's numbering reads 07400 123 450 too (+91 74001 23450).
    rows.push('ravi@example.com,+91 98765 43210,');
    // A zone reads a national number still: London's.
    rows.push('tz@example.com,07400 123 459,Europe/London');
    await writeFile(file, rows.join('\n'));
    const report = await runImport({ client, agentId: AGENT, input: file });
    expect(report).toMatchObject({ rows: 12, created: 12, rejected: 0, fixed: 10, placedByFile: [] });
    const contacts = byKey(mock);
    expect(contacts.get('m0@example.com')?.phonenumber).toBeNull();
    expect(contacts.get('ravi@example.com')?.phonenumber).toBe('+919876543210');
    expect(contacts.get('tz@example.com')?.phonenumber).toBe('+447400123459');
    const fixes = await readFile(report.fixesFile!, 'utf8');
    expect(fixes).toContain(
      "a national number, as most of the file's numbers are; the countries its other numbers and country cells name (IN) may be only a few contacts'",
    );
    // The user says where they are: every one read there.
    const again = await runImport({ client, agentId: AGENT, input: file, defaultCountry: 'GB' });
    expect(again).toMatchObject({ rows: 12, fixed: 0 });
    expect(byKey(mock).get('m0@example.com')?.phonenumber).toBe('+447400123450');
  });

  it("places a domestic list's numbers by its states alone, after the file's own evidence", async () => {
    const { mock, client, dir } = await setup();
    const states = join(dir, 'members.csv');
    await writeFile(
      states,
      [
        'Email,Name,Phone,City,State',
        'al@example.com,Al P,(415) 555-0101,San Francisco,California',
        'bo@example.com,Bo P,416-555-0134,Toronto,Ontario',
        'cy@example.com,Cy P,0412 345 678,Seattle,Washington',
      ].join('\n'),
    );
    const report = await runImport({ client, agentId: AGENT, input: states });
    expect(report).toMatchObject({ rows: 3, created: 3, rejected: 0, fixed: 1 });
    const contacts = byKey(mock);
    expect(['al', 'bo', 'cy'].map((k) => contacts.get(`${k}@example.com`)?.phonenumber)).toEqual([
      '+14155550101',
      '+14165550134',
      null,
    ]);
    // A British number beside one: the file's evidence reads it, not the state's.
    const mixed = join(dir, 'mixed.csv');
    await writeFile(
      mixed,
      [
        'Email,Phone,State',
        'di@example.com,+44 20 7946 0132,Michigan',
        'ed@example.com,020 7946 0133,Michigan',
      ].join('\n'),
    );
    expect(await runImport({ client, agentId: AGENT, input: mixed })).toMatchObject({ created: 2, fixed: 0 });
    expect(byKey(mock).get('ed@example.com')?.phonenumber).toBe('+442079460133');
  });

  it('reads every number of a file that writes them with their country code and no +', async () => {
    const { mock, client, dir } = await setup();
    const file = join(dir, 'brevo.csv');
    await writeFile(
      file,
      [
        'EMAIL,FIRSTNAME,SMS',
        'a@example.com,Ann,14155550123',
        'b@example.com,Bob,447911123456',
        'c@example.com,Cy,33612345678',
        'd@example.com,Di,4915112345678',
        'e@example.com,Ed,919876543210',
      ].join('\n'),
    );
    expect(await runImport({ client, agentId: AGENT, input: file })).toMatchObject({ created: 5, fixed: 0 });
    expect([...'abcde'].map((k) => byKey(mock).get(`${k}@example.com`)?.phonenumber)).toEqual([
      '+14155550123',
      '+447911123456',
      '+33612345678',
      '+4915112345678',
      '+919876543210',
    ]);
  });
});
