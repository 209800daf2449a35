// The send sink against a real server: rows sharing an external_id never share a request or the
// wire, and land in file order; refused rows are isolated from the service's own answer (a few
// requests for twenty bad rows in ten thousand), halving only when the answer names no row; and
// what it holds is bounded whatever the link's speed.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../../../src/bulk/scheduler.js';
import { ContactsClient } from '../../../src/client/client.js';
import type { RequestOptions } from '../../../src/client/resources/core.js';
import { createRowValidator } from '../../../src/importer/row-validator.js';
import { type PlannedRow, RowPlanner } from '../../../src/importer/stages/row-planner.js';
import { SendSink } from '../../../src/importer/stages/send-sink.js';
import type { RowOutcome } from '../../../src/importer/stages/sink.js';
import { startTestMock } from '../../helpers/mock.js';

const AGENT = 'sink';
const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientFor(url: string): ContactsClient {
  const client = new ContactsClient({
    baseUrl: url,
    apiKey: 'bk_sink_test_key',
    agentId: AGENT,
    retry: { initialDelayMs: 5, maxDelayMs: 50, maxRetryAfterMs: 100 },
  });
  clients.push(client);
  return client;
}

/** Rows as the plan stage makes them, from plain records. */
function plannedRows(records: Record<string, unknown>[]): PlannedRow[] {
  const validate = createRowValidator({ definitions: [] });
  const planner = new RowPlanner();
  return records.map((record, i) => {
    const result = validate({ row: i + 1, line: i + 2, record });
    if (!result.ok) throw new Error(result.reason);
    const planned = planner.plan(result.source, result.input);
    if (!planned.ok) throw new Error(planned.reason);
    return planned.row;
  });
}

function sinkFor(client: ContactsClient, overrides: Partial<ConstructorParameters<typeof SendSink>[0]> = {}) {
  const outcomes: RowOutcome[] = [];
  const sink = new SendSink({
    client,
    agentId: AGENT,
    maxRetries: 3,
    batchSize: 1000,
    scheduler: new Scheduler({ max: 16 }),
    onOutcome: (o) => outcomes.push(o),
    emit: () => {},
    newestIdBefore: '',
    // Rows handed over from an array, as from a file: batches are cut by what they hold, never
    // by how fast the test process fed them.
    mayPause: false,
    ...overrides,
  });
  return { sink, outcomes };
}

async function run(sink: SendSink, rows: PlannedRow[]) {
  for (const row of rows) await sink.accept(row);
  await sink.finish();
}

describe('isolating refused rows', () => {
  it('sets aside the rows the service names and re-sends the rest in one request: 20 in 10,000', async () => {
    const mock = await startTestMock();
    // Twenty emails the directory already holds: the file's rows that take them are refused (409).
    for (let i = 0; i < 20; i++)
      mock.store.upsertContact(AGENT, { external_id: `owner${i}`, email: `taken${i}@example.com` });
    const records = Array.from({ length: 10_000 }, (_, i) => ({
      external_id: `u${i}`,
      email: i % 500 === 7 ? `taken${Math.floor(i / 500)}@example.com` : `u${i}@example.com`,
    }));
    const postsBefore = mock.requests.filter((r) => r.method === 'POST').length;
    const { sink, outcomes } = sinkFor(clientFor(mock.url));
    await run(sink, plannedRows(records));

    const rejected = outcomes.filter((o) => o.type === 'rejected');
    expect(rejected).toHaveLength(20);
    for (const o of rejected) expect(o).toMatchObject({ reason: 'email: Email already exists' });
    expect(rejected.map((o) => o.row.key).sort()).toEqual(
      records
        .filter((r) => r.email.startsWith('taken'))
        .map((r) => r.external_id)
        .sort(),
    );
    expect(outcomes.filter((o) => o.type === 'landed')).toHaveLength(9_980);
    expect(mock.store.contacts(AGENT)).toHaveLength(20 + 9_980);
    // Ten batches of 1000, each refused once and sent again without its two rows.
    const posts = mock.requests.filter((r) => r.method === 'POST').length - postsBefore;
    expect(posts).toBeLessThanOrEqual(30);
    expect(sink.link.requests).toBe(posts);
  });

  it('halves a batch refused without naming a row, down to the rows at fault', async () => {
    // A quota of 40 contacts: a batch that would pass it is refused whole, naming no row.
    const mock = await startTestMock({ maxContacts: 40 });
    const records = Array.from({ length: 64 }, (_, i) => ({ external_id: `q${i}` }));
    const { sink, outcomes } = sinkFor(clientFor(mock.url), { batchSize: 64 });
    await run(sink, plannedRows(records));
    const landed = outcomes.filter((o) => o.type === 'landed');
    const rejected = outcomes.filter((o) => o.type === 'rejected');
    expect(landed).toHaveLength(40);
    expect(rejected).toHaveLength(24);
    for (const o of rejected) expect(o).toMatchObject({ reason: 'Maximum contacts limit reached' });
    // Halved, not split row by row: the whole batch is refused, then its first half lands whole.
    const posts = mock.requests.filter((r) => r.method === 'POST');
    expect(posts.slice(0, 2).map((r) => r.status)).toEqual([400, 200]);
    expect(posts.length).toBeLessThan(2 * 64);
    expect(sink.link.requests).toBe(posts.length);
  });
});

/** A service that answers the batch form after a delay, recording what it saw and what overlapped. */
async function recordingService(delayMs: number) {
  const inFlight = new Map<string, number>();
  const seen: { keys: string[]; names: string[] }[] = [];
  let overlaps = 0;
  let repeatedInOne = 0;
  const latest = new Map<string, string>();
  let seq = 0;
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString();
    });
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET') {
        return json(200, {
          message: 'Success',
          data: [],
          total: 0,
          pages: { page: 1, per_page: 10, total_pages: 0 },
        });
      }
      const users = (JSON.parse(text) as { users: { external_id: string; name: string }[] }).users;
      const keys = users.map((u) => u.external_id);
      if (new Set(keys).size !== keys.length) repeatedInOne++;
      for (const k of keys) {
        if (inFlight.has(k)) overlaps++;
        inFlight.set(k, 1);
      }
      seen.push({ keys, names: users.map((u) => u.name) });
      setTimeout(() => {
        for (const u of users) {
          inFlight.delete(u.external_id);
          latest.set(u.external_id, u.name);
        }
        const now = 1_700_000_000;
        json(200, {
          message: 'Success',
          data: users.map((u) => ({
            id: `ct_${String(++seq).padStart(8, '0')}`,
            external_id: u.external_id,
            name: u.name,
            email: null,
            phonenumber: null,
            custom_attributes: {},
            stripe_accounts: [],
            created_at: now,
            updated_at: now,
          })),
        });
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    latest,
    get overlaps() {
      return overlaps;
    },
    get repeatedInOne() {
      return repeatedInOne;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('rows sharing an external_id', () => {
  it('never share a request or the wire, and land in file order', async () => {
    const service = await recordingService(5);
    try {
      // 3000 rows over 200 external_ids: each id repeats about 15 times, scattered.
      const records = Array.from({ length: 3000 }, (_, i) => ({
        external_id: `k${(i * 7919) % 200}`,
        name: `row ${i}`,
      }));
      const { sink, outcomes } = sinkFor(clientFor(service.url), { batchSize: 50 });
      await run(sink, plannedRows(records));
      expect(outcomes.filter((o) => o.type === 'landed')).toHaveLength(3000);
      expect(service.repeatedInOne).toBe(0);
      expect(service.overlaps).toBe(0);
      // Each contact ends as the file's last row for it says.
      const last = new Map(records.map((r) => [r.external_id, r.name]));
      expect(new Map(service.latest)).toEqual(last);
      // And every id's rows arrived in file order.
      const order = new Map<string, number[]>();
      for (const request of service.seen) {
        request.keys.forEach((k, i) => {
          const list = order.get(k) ?? [];
          list.push(Number(request.names[i]!.slice(4)));
          order.set(k, list);
        });
      }
      for (const list of order.values()) expect(list).toEqual([...list].sort((a, b) => a - b));
      // Still batched: far fewer requests than rows.
      expect(service.seen.length).toBeLessThan(400);
      // Counted once each as created, then as updated.
      expect(outcomes.filter((o) => o.type === 'landed' && o.action === 'created')).toHaveLength(200);
    } finally {
      await service.close();
    }
  });
});

describe('memory', () => {
  it('holds a bounded number of rows, whatever the link: accept waits once it is full', async () => {
    let started = 0;
    const stuck = {
      contacts: {
        upsertMany: () => {
          started++;
          return new Promise(() => {});
        },
      },
    } as unknown as ContactsClient;
    const { sink } = sinkFor(stuck, { batchSize: 100, maxHeldRows: 500 });
    const rows = plannedRows(Array.from({ length: 600 }, (_, i) => ({ external_id: `m${i}` })));
    let accepted = 0;
    const feeding = (async () => {
      for (const row of rows) {
        await sink.accept(row);
        accepted++;
      }
    })();
    // The feeder runs until the 500th row waits for room; then, turn after turn, it stays there.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    while (accepted < 499) await turn();
    for (let i = 0; i < 20; i++) await turn();
    expect(accepted).toBe(499);
    expect(started).toBeGreaterThan(0);
    sink.stop();
    await feeding;
  });
});

describe('when a batch is cut', () => {
  /**
   * A service that records the size of each batch and never finishes answering: only the cut is
   * watched. Each attempt reports its status line (200, no rate limit), as the transport does, so
   * that the scheduler's first request alone does not hold the rest.
   */
  function recording() {
    const sizes: number[] = [];
    const client = {
      contacts: {
        upsertMany: (users: unknown[], options?: RequestOptions) => {
          sizes.push(users.length);
          options?.onAttempt?.({ attempt: 1, status: 200, headers: {}, latencyMs: 1 });
          return new Promise(() => {});
        },
      },
    } as unknown as ContactsClient;
    return { client, sizes };
  }

  it('from a regular file, by what the rows hold alone: however long the reader pauses', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { client, sizes } = recording();
      const { sink } = sinkFor(client, { batchSize: 10, mayPause: false });
      for (const row of plannedRows(Array.from({ length: 13 }, (_, i) => ({ external_id: `p${i}` })))) {
        await sink.accept(row);
        // A reader slowed down by a busy machine: a minute between rows.
        await vi.advanceTimersByTimeAsync(60_000);
      }
      expect(sizes).toEqual([10]);
      void sink.finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(sizes).toEqual([10, 3]);
      sink.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('from an input that may pause (a pipe), once it pauses: rows that trickle are not held back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { client, sizes } = recording();
      const { sink } = sinkFor(client, { batchSize: 10, mayPause: true });
      for (const row of plannedRows(Array.from({ length: 3 }, (_, i) => ({ external_id: `t${i}` })))) {
        await sink.accept(row);
      }
      expect(sizes).toEqual([]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sizes).toEqual([3]);
      sink.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
