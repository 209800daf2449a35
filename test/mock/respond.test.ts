// The test controls (`/__mock/reset`, `/__mock/requests`, `--seed`) over HTTP, through the
// server's handle and through msw, and faults carried out by msw from the shared core.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OPERATIONS, paths } from '../../src/api/index.js';
import { MAX_BODY_BYTES } from '../../src/api/limits.js';
import { SeedError } from '../../src/mock/errors.js';
import { createMockState } from '../../src/mock/handler.js';
import { createMockHandlers } from '../../src/mock/msw.js';
import { ADMIN_PREFIX } from '../../src/mock/respond.js';
import { loadSeed } from '../../src/mock/seed.js';
import { openSqliteStore } from '../../src/mock/sqlite-store.js';
import { heldSleep } from '../helpers/held-sleep.js';
import { AGENT, api, startTestMock, storedContact, TEST_KEY, tempDir } from '../helpers/mock.js';

describe('GET /__mock/requests', () => {
  it('lists the API requests made, oldest first, without keys; DELETE empties it', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    await client.post(paths.contacts(AGENT), { external_id: 'a' });
    await client.get(paths.contact(AGENT, 'missing'));
    // A key put in a path by mistake is not kept.
    await client.get(paths.contact(AGENT, 'bk_leaked_secret_123'));
    const log = await client.get('/__mock/requests');
    expect(log.status).toBe(200);
    expect(log.body.data.map((e: { method: string; status: number }) => [e.method, e.status])).toEqual([
      ['POST', 201],
      ['GET', 404],
      ['GET', 404],
    ]);
    expect(log.body.data[0]).toMatchObject({
      path: paths.contacts(AGENT),
      requestId: expect.stringMatching(/^req_/),
    });
    expect(JSON.stringify(log.body)).not.toContain('bk_leaked_secret_123');
    expect(JSON.stringify(log.body)).not.toContain(TEST_KEY);
    // The controls are not logged themselves, and the handle shows the same log.
    expect(server.requests).toHaveLength(3);
    expect((await client.request('DELETE', '/__mock/requests')).status).toBe(200);
    // Without --key the controls want no key at all.
    expect((await api(server.url, null).get('/__mock/requests')).body.data).toEqual([]);
  });

  it('wants an accepted key when the mock has a list of keys; unknown controls and methods are 404 and 405', async () => {
    const server = await startTestMock({ keys: [TEST_KEY] });
    expect((await api(server.url, null).get('/__mock/requests')).status).toBe(401);
    expect((await api(server.url, 'bk_other_key_000').post('/__mock/reset', {})).status).toBe(401);
    const client = api(server.url);
    const unknown = await client.get('/__mock/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('/__mock/reset');
    const wrong = await client.request('PUT', '/__mock/reset');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('never collides with an API path', () => {
    for (const op of OPERATIONS) expect(op.path.startsWith(ADMIN_PREFIX)).toBe(false);
    expect(ADMIN_PREFIX.startsWith('/api/')).toBe(false);
  });
});

describe('POST /__mock/reset and --seed', () => {
  async function csvSeed(): Promise<string> {
    const dir = await tempDir();
    const file = join(dir, 'seed.csv');
    await writeFile(
      file,
      'External ID,Full Name,Email,seats,active,plan,attr.since\nu1,Ada,ada@example.com,3,true,pro,2024-01-02\nu2,Bob,,12,false,free,\n',
    );
    return file;
  }

  it('reads a CSV through the importer, defining its attributes from their values', async () => {
    const server = await startTestMock({ seed: await loadSeed(await csvSeed(), { agent: AGENT }) });
    const client = api(server.url);
    const attrs = (await client.get(paths.attributes(AGENT))).body.data;
    expect(attrs.map((d: { name: string; type: string }) => [d.name, d.type])).toEqual([
      ['seats', 'number'],
      ['active', 'boolean'],
      ['plan', 'text'],
      ['since', 'date'],
    ]);
    const u1 = (await client.get(paths.contact(AGENT, 'u1'))).body.data;
    expect(u1).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      custom_attributes: { seats: 3, active: true },
    });
  });

  it('takes common headers and an export as they are: names made valid, record fields left out, types by the validator', async () => {
    const dir = await tempDir();
    const file = join(dir, 'crm.csv');
    await writeFile(
      file,
      'id,external_id,name,Plan Type,Zip,Renewal,Company,created_at,updated_at\n' +
        'ct_1,a,Ada,Pro,02134,2024-02-30,Acme,1700000000,1700000000\n' +
        'ct_2,b,Bob,Free,10001,2024-03-01,Initech,1700000000,1700000000\n',
    );
    const server = await startTestMock({ seed: await loadSeed(file, { agent: AGENT }) });
    const defs = server.store.listAttributes(AGENT).map((d) => [d.name, d.type]);
    expect(defs).toEqual([
      ['plan_type', 'text'],
      ['zip', 'text'],
      ['renewal', 'text'],
      ['company', 'text'],
    ]);
    expect(server.store.getContact(AGENT, 'a').custom_attributes).toEqual({
      plan_type: 'Pro',
      zip: '02134',
      renewal: '2024-02-30',
      company: 'Acme',
    });
  });

  it("infers a column's type by the contract's rules for text values, so every inferred value is one the validator takes", async () => {
    const file = join(await tempDir(), 'types.csv');
    await writeFile(
      file,
      'external_id,score,flag,day,code\n' +
        'a,1e3,TRUE,2024-02-29T10:00:00Z,0042\n' +
        'b,+2.5,0,2023-12-31,17\n',
    );
    const server = await startTestMock({ seed: await loadSeed(file, { agent: AGENT }) });
    expect(server.store.listAttributes(AGENT).map((d) => [d.name, d.type])).toEqual([
      ['score', 'number'],
      ['flag', 'boolean'],
      ['day', 'date'],
      ['code', 'text'],
    ]);
    expect(server.store.getContact(AGENT, 'a').custom_attributes).toEqual({
      score: 1000,
      flag: true,
      day: '2024-02-29T10:00:00.000Z',
      code: '0042',
    });
  });

  it('puts the seed back on reset (over HTTP and through the handle), and empties the log', async () => {
    const server = await startTestMock({ seed: await loadSeed(await csvSeed(), { agent: AGENT }) });
    const client = api(server.url);
    await client.post(paths.contacts(AGENT), { external_id: 'u3' });
    await client.request('DELETE', paths.contact(AGENT, 'u1'));
    const reset = await client.post('/__mock/reset', {});
    expect(reset.status).toBe(200);
    expect(reset.body.data).toEqual({
      agent: null,
      removed: { contacts: 2, attributes: 4 },
      seeded: true,
      requests_cleared: true,
    });
    const ids = (await client.get(paths.contacts(AGENT))).body.data.map(
      (c: { external_id: string }) => c.external_id,
    );
    expect(ids).toEqual(['u1', 'u2']);
    expect(server.requests).toHaveLength(1); // the list just made
    await client.post(paths.contacts(AGENT), { external_id: 'u4' });
    await server.reset();
    expect(server.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['u1', 'u2']);
  });

  it('without a seed, reset empties the store', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    await client.post(paths.contacts(AGENT), { external_id: 'gone' });
    expect((await client.post('/__mock/reset', {})).body.data).toEqual({
      agent: null,
      removed: { contacts: 1, attributes: 0 },
      seeded: false,
      requests_cleared: true,
    });
    expect((await client.get(paths.contacts(AGENT))).body.total).toBe(0);
  });

  it('resets one agent when asked (body or query), putting back its part of the seed only, and says so', async () => {
    const dir = await tempDir();
    const file = join(dir, 'agents.json');
    await writeFile(
      file,
      JSON.stringify({
        agents: {
          one: { attributes: [{ name: 'tier', type: 'text' }], contacts: [{ external_id: 'x' }] },
          two: { contacts: [{ external_id: 'y' }] },
        },
      }),
    );
    const server = await startTestMock({ seed: await loadSeed(file) });
    const client = api(server.url);
    await client.post(paths.contacts('one'), { external_id: 'one-added' });
    await client.post(paths.contacts('two'), { external_id: 'two-added' });
    await client.post(paths.contacts('three'), { external_id: 'three-added' });

    const one = await client.post('/__mock/reset', { agent: 'one' });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({
      agent: 'one',
      removed: { contacts: 2, attributes: 1 },
      seeded: true,
      requests_cleared: false,
    });
    expect(server.store.contacts('one').map((c) => c.external_id)).toEqual(['x']);
    expect(server.store.listAttributes('one').map((d) => d.name)).toEqual(['tier']);
    expect(server.store.contacts('two').map((c) => c.external_id)).toEqual(['y', 'two-added']);
    expect(server.requests).toHaveLength(3); // the log is kept

    const three = await client.request('POST', '/__mock/reset?agent=three', { json: {} });
    // The seed has nothing for agent three: nothing was seeded.
    expect(three.body.data).toMatchObject({
      agent: 'three',
      removed: { contacts: 1, attributes: 0 },
      seeded: false,
    });
    expect(server.store.count('three')).toBe(0);
    expect(server.store.count('two')).toBe(2);

    const clash = await client.request('POST', '/__mock/reset?agent=one', { json: { agent: 'two' } });
    expect(clash.status).toBe(400);
    expect((await client.post('/__mock/reset', { agent: 7 })).body.issues).toEqual([
      { field: 'agent', message: 'Expected an agent id (a non-empty string)' },
    ]);
    expect(server.store.count('two')).toBe(2);
  });

  it('answers 413 to a reset whose body is too large, and resets nothing', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    await client.post(paths.contacts('one'), { external_id: 'kept' });
    await client.post(paths.contacts('two'), { external_id: 'kept too' });
    const body = JSON.stringify({ agent: 'one', padding: 'x'.repeat(MAX_BODY_BYTES) });
    const refused = await client.request('POST', '/__mock/reset', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(413);
    expect(server.store.count('one')).toBe(1);
    expect(server.store.count('two')).toBe(1);
  });

  it('refuses a reset of an agent that does not exist when agents are declared', async () => {
    const server = await startTestMock({ agents: [AGENT] });
    const refused = await api(server.url).post('/__mock/reset', { agent: 'other' });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('Chatbot not found');
  });

  it('takes agents with their own definitions, and refuses a bad seed naming where', async () => {
    const dir = await tempDir();
    const good = join(dir, 'agents.json');
    await writeFile(
      good,
      JSON.stringify({
        agents: {
          one: {
            attributes: [{ name: 'tier', type: 'text' }],
            contacts: [{ external_id: 'x', custom_attributes: { tier: 'gold' } }],
          },
          two: { contacts: [{ external_id: 'y' }] },
        },
      }),
    );
    const server = await startTestMock({ seed: await loadSeed(good) });
    expect(server.store.getContact('one', 'x').custom_attributes).toEqual({ tier: 'gold' });
    expect(server.store.count('two')).toBe(1);

    const bad = join(dir, 'bad.csv');
    await writeFile(bad, 'external_id,email\nok,ok@example.com\nbad,not-an-email\n');
    await expect(loadSeed(bad, { agent: AGENT })).rejects.toThrow(SeedError);
    await expect(loadSeed(bad, { agent: AGENT })).rejects.toThrow(/bad\.csv line 3: email/);
    const clash = join(dir, 'clash.json');
    await writeFile(
      clash,
      JSON.stringify({
        agents: {
          a: {
            contacts: [
              { external_id: 'p', email: 'e@x.io' },
              { external_id: 'q', email: 'E@x.io' },
            ],
          },
        },
      }),
    );
    await expect(loadSeed(clash)).rejects.toThrow(/agents\.a\.contacts\.1: email: Email already exists/);
    await expect(loadSeed(bad)).rejects.toThrow(/--seed-agent/);
  });

  it('restores a snapshot seed exactly, ids included, into an empty database only', async () => {
    const dir = await tempDir();
    const snapshot = join(dir, 'snapshot.json');
    const contact = storedContact('ct_000000000a1234', 'kept');
    await writeFile(
      snapshot,
      JSON.stringify({ version: 1, seq: 10, agents: { [AGENT]: { contacts: [contact], attributes: [] } } }),
    );
    const dataFile = join(dir, 'new.db');
    const seed = await loadSeed(snapshot);
    const first = await startTestMock({ dataFile, seed });
    expect(first.store.getContact(AGENT, 'kept')).toEqual(contact);
    await api(first.url).post(paths.contacts(AGENT), { external_id: 'added' });
    await first.close();
    // Restarted with the same command: the database keeps what it holds.
    const second = await startTestMock({ dataFile, seed });
    expect(second.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['kept', 'added']);
    // Ids go on past the snapshot's.
    expect(second.store.getContact(AGENT, 'added').id > contact.id).toBe(true);
    const store = openSqliteStore(join(dir, 'other.db'));
    onTestFinished(() => store.close());
    seed(store);
    expect(store.contacts(AGENT)[0]!.id).toBe(contact.id);
  });
});

describe('msw handlers with faults and controls', () => {
  it("carries out the core's rate limit, with its headers, and serves the controls", async () => {
    const BASE = 'https://faults.example.test';
    const handlers = createMockHandlers({
      baseUrl: BASE,
      faults: { rateLimit: 3, rateWindowMs: 60_000, failRate: 0 },
    });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    onTestFinished(() => server.close());
    const get = () =>
      fetch(`${BASE}${paths.contacts(AGENT)}`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get()).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await get();
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    // The controls work through msw too.
    const log = await (await fetch(`${BASE}/__mock/requests`)).json();
    expect(log.data.map((e: { status: number }) => e.status)).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('drops the connection (a network error to fetch) for reset and lost faults, answers injected 500s and 503s, and keeps lost writes', async () => {
    const BASE = 'https://drops.example.test';
    const state = createMockState({ faults: { failRate: 1, seed: 7 } });
    const server = setupServer(...createMockHandlers({ baseUrl: BASE, state }));
    server.listen({ onUnhandledRequest: 'error' });
    onTestFinished(() => server.close());
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      try {
        const res = await fetch(`${BASE}${paths.contacts(AGENT)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ external_id: `f${i}` }),
        });
        const body = await res.json();
        expect(res.headers.get('x-request-id')).toMatch(/^req_/);
        expect(body.message).toBe(
          res.status === 500 ? 'Internal server error (injected)' : 'Service unavailable (injected)',
        );
        seen.add(String(res.status));
      } catch (error) {
        // fetch's own network error: the handler dropped the connection, it did not crash.
        expect(error).toBeInstanceOf(TypeError);
        seen.add('dropped');
      }
    }
    expect([...seen].sort()).toEqual(['500', '503', 'dropped']);
    const log = (await (await fetch(`${BASE}/__mock/requests`)).json()).data as {
      path: string;
      fault?: string;
      status: number;
    }[];
    expect(log).toHaveLength(40);
    expect(new Set(log.map((e) => e.fault))).toEqual(new Set(['error-500', 'error-503', 'reset', 'lost']));
    // A lost answer was handled first, so its write is there; the other faults never reached the API.
    const lost = log.filter((e) => e.fault === 'lost').map((e) => e.path);
    const ids = (fault: string) => log.flatMap((e, i) => (e.fault === fault ? [`f${i}`] : []));
    expect(lost.length).toBeGreaterThan(0);
    expect(state.store.contacts(AGENT).map((c) => c.external_id)).toEqual(ids('lost'));
  });

  it('waits out the latency before answering', async () => {
    const BASE = 'https://slow.example.test';
    const latency = heldSleep();
    const faults = { latencyMs: 60, sleep: latency.sleep };
    const server = setupServer(...createMockHandlers({ baseUrl: BASE, faults }));
    server.listen({ onUnhandledRequest: 'error' });
    onTestFinished(() => server.close());
    let answered = false;
    const pending = fetch(`${BASE}/api/v1/chatbots/${AGENT}/contacts`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
    }).finally(() => {
      answered = true;
    });
    expect(await latency.asked).toBe(60);
    expect(answered).toBe(false);
    const log = async () => (await (await fetch(`${BASE}/__mock/requests`)).json()).data;
    expect(await log()).toEqual([]);
    latency.release();
    expect((await pending).status).toBe(200);
    expect(await log()).toMatchObject([{ method: 'GET', status: 200 }]);
  });
});
