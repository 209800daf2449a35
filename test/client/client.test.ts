// The typed client against the real mock on port 0: every endpoint and error of the contract,
// as a user of the library meets them. new ContactsClient() checks its options before it makes a
// transport: a missing key or base URL, a malformed key and retries that cannot be counted are
// InvalidOptionErrors naming the option.
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  type ContactsClient as Client,
  ConflictError,
  ContactsClient,
  ContactsError,
  InvalidOptionError,
  NotFoundError,
} from '../../src/index.js';
import { loadedWith } from '../helpers/import-graph.js';
import { startTestMock } from '../helpers/mock.js';

const KEY = 'bk_contract_test_key';
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setup(options: Parameters<typeof startTestMock>[0] = {}, agentId = 'agent-1') {
  const mock = await startTestMock(options);
  const client = new ContactsClient({
    baseUrl: mock.url,
    apiKey: KEY,
    agentId,
    retry: { initialDelayMs: 1, maxDelayMs: 10, maxRetryAfterMs: 1500 },
  });
  clients.push(client);
  return { mock, client };
}

describe('client against the mock', () => {
  it('defines, lists and updates custom attributes, with their errors', async () => {
    const { client } = await setup();
    const plan = await client.attributes.define({ name: 'plan', type: 'text', label: 'Plan' });
    expect(plan).toEqual({ name: 'plan', type: 'text', label: 'Plan', description: null, archived: false });
    expect(await client.attributes.define({ name: 'seats', type: 'number' })).toMatchObject({
      label: 'seats',
    });
    await expect(client.attributes.define({ name: 'plan', type: 'text' })).rejects.toBeInstanceOf(
      ConflictError,
    );
    const bad = await client.attributes.define({ name: 'Bad Name', type: 'text' }).catch((e) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.issues.map((i: { field: string }) => i.field)).toContain('name');
    expect(await client.attributes.update('seats', { archived: true })).toMatchObject({ archived: true });
    await expect(client.attributes.update('ghost', { label: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.attributes.list()).map((d) => [d.name, d.archived])).toEqual([
      ['plan', false],
      ['seats', true],
    ]);
  });

  it('upserts (saying whether it created), gets, updates and deletes contacts', async () => {
    const { client } = await setup();
    await client.attributes.define({ name: 'plan', type: 'text' });
    const first = await client.contacts.upsert({
      external_id: 'u1',
      name: 'Ada',
      custom_attributes: { plan: 'pro' },
    });
    expect(first.created).toBe(true);
    const second = await client.contacts.upsert({ external_id: 'u1', email: 'ada@example.com' });
    expect(second.created).toBe(false);
    expect(second.contact).toMatchObject({
      id: first.contact.id,
      name: 'Ada',
      email: 'ada@example.com',
      custom_attributes: { plan: 'pro' },
    });

    expect((await client.contacts.get('u1')).id).toBe(first.contact.id);
    expect((await client.contacts.get(first.contact.id)).external_id).toBe('u1');

    const updated = await client.contacts.update('u1', { name: null, phonenumber: '+44 20 7946 0958' });
    expect(updated).toMatchObject({ name: null, email: 'ada@example.com', phonenumber: '+44 20 7946 0958' });

    expect((await client.contacts.delete('u1'))?.external_id).toBe('u1');
    await expect(client.contacts.get('u1')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.contacts.delete('u1')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('turns validation and conflicts into typed errors with field issues', async () => {
    const { client } = await setup();
    await client.contacts.upsert({ external_id: 'a', email: 'same@example.com' });
    const conflict = await client.contacts
      .upsert({ external_id: 'b', email: 'SAME@example.com' })
      .catch((e) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.message).toBe('409 Email already exists');
    const invalid = await client.contacts
      .upsert({ external_id: 'c', email: 'nope', custom_attributes: { ghost: 1 } })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(BadRequestError);
    // The unknown attribute is dropped, not an error (production); the bad email is one.
    expect(invalid.issues.map((i: { field: string }) => i.field)).toEqual(['email']);
    expect(invalid.requestId).toMatch(/^req_/);
  });

  it('upserts in batches, all or nothing, answering in request order', async () => {
    const { client, mock } = await setup();
    const contacts = await client.contacts.upsertMany([
      { external_id: 'b1' },
      { external_id: 'b2', name: 'Two' },
    ]);
    expect(contacts.map((c) => c.external_id)).toEqual(['b1', 'b2']);
    const err = await client.contacts
      .upsertMany([{ external_id: 'b3' }, { external_id: 'b4', email: 'bad' }])
      .catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.issues[0].field).toBe('users.1.email');
    expect(mock.store.contacts('agent-1').map((c) => c.external_id)).toEqual(['b1', 'b2']);
  });

  it('pages, streams every page, and fails a walk whose pages disappear', async () => {
    const { client } = await setup();
    await client.contacts.upsertMany(Array.from({ length: 25 }, (_, i) => ({ external_id: `p${i}` })));
    const page = await client.contacts.list({ perPage: 10 });
    expect([page.total, page.totalPages, page.data.length, page.hasNextPage()]).toEqual([25, 3, 10, true]);
    await expect(client.contacts.list({ page: 4, perPage: 10 })).rejects.toThrow('Page number out of range');

    const all: string[] = [];
    for await (const c of client.contacts.listAll({ perPage: 10 })) all.push(c.external_id);
    expect(all).toEqual(Array.from({ length: 25 }, (_, i) => `p${i}`));

    // Deleting while walking: the second page is gone by the time it is asked for, and the walk
    // says so rather than ending short (test/client/pagination.test.ts has the rest).
    const seen: string[] = [];
    const walk = async () => {
      for await (const c of await client.contacts.list({ perPage: 10 })) {
        seen.push(c.external_id);
        if (seen.length === 1) for (let i = 10; i < 25; i++) await client.contacts.delete(`p${i}`);
      }
    };
    await expect(walk()).rejects.toMatchObject({ name: 'InconsistentListError', code: 'page_gone', page: 2 });
    expect(seen).toHaveLength(10);
  });

  it('keeps agents apart', async () => {
    const { client } = await setup();
    await client.contacts.upsert({ external_id: 'mine' });
    await expect(client.contacts.get('mine', { agentId: 'agent-2' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.contacts.list({ agentId: 'agent-2' })).total).toBe(0);
  });

  it('is refused with a key the service does not accept', async () => {
    const { client } = await setup({ keys: ['bk_some_other_key'] });
    await expect(client.contacts.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('retries through injected faults and rate limits, and lands every write once', async () => {
    // The rate limiter's clock stands still for the 60 first readings (one window of 50: ten are
    // 429 by construction, whatever the machine's load), then moves a second a reading, so every
    // retry meets a fresh window and only the injected faults are left to retry through.
    const start = 1_700_000_000_000;
    let readings = 0;
    const now = () => (++readings <= 60 ? start : start + readings * 1000);
    const { client, mock } = await setup({ faults: { failRate: 0.4, seed: 7, rateLimit: 50, now } });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        client.contacts.upsert({ external_id: `f${i % 20}`, name: `n${i}` }, { maxRetries: 10 }),
      ),
    );
    expect(results).toHaveLength(60);
    expect(mock.store.contacts('agent-1')).toHaveLength(20);
    expect(mock.requests.some((r) => r.status === 429)).toBe(true);
    expect(mock.requests.some((r) => r.fault !== undefined)).toBe(true);
  });

  it('many concurrent upserts of one external_id leave one contact', async () => {
    const { client, mock } = await setup();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => client.contacts.upsert({ external_id: 'same', name: `v${i}` })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(mock.store.contacts('agent-1')).toHaveLength(1);
  });
});

const baseUrl = 'http://127.0.0.1:9';
const apiKey = 'bk_test_key';

describe('new ContactsClient()', () => {
  it.each([
    [{ baseUrl, apiKey: '' }, 'apiKey', 'missing'],
    [{ baseUrl, apiKey: 'sk_live_123' }, 'apiKey', 'invalid_value'],
    [{ baseUrl: 'ftp://example.com', apiKey }, 'baseUrl', 'invalid_value'],
    [{ baseUrl, apiKey, maxRetries: -1 }, 'maxRetries', 'out_of_range'],
    [{ baseUrl, apiKey, maxRetries: Number.NaN }, 'maxRetries', 'out_of_range'],
    [{ baseUrl, apiKey, timeoutMs: 0 }, 'timeoutMs', 'out_of_range'],
    [{ baseUrl, apiKey, onRetry: 'log' }, 'onRetry', 'invalid_type'],
  ])('%o: %s is %s', (options, param, code) => {
    const make = () => new ContactsClient(options as never);
    expect(make).toThrow(InvalidOptionError);
    expect(make).toThrow(expect.objectContaining({ param, code }));
    expect(make).toThrow(ContactsError);
  });

  it('never quotes the key it refuses', () => {
    expect(() => new ContactsClient({ baseUrl, apiKey: 42 as unknown as string })).toThrow(
      'new ContactsClient(): apiKey must be a string, not 42',
    );
    try {
      new ContactsClient({ baseUrl, apiKey: 'sk_live_secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('sk_live_secret');
    }
  });

  it('checks the retries of one call as it checks the client', async () => {
    const client = new ContactsClient({ baseUrl, apiKey, agentId: 'a1' });
    await expect(client.contacts.get('u1', { maxRetries: 1.5 })).rejects.toMatchObject({
      name: 'InvalidOptionError',
      param: 'maxRetries',
      message: 'maxRetries of the call must be a whole number, 0 or more, got 1.5',
    });
    await client.close();
  });
});

describe('what the client loads', () => {
  it('sends over node:http: undici loads only for a proxy (its ProxyAgent) or with a dispatcher you pass', () => {
    const { modules, packages } = loadedWith('client/client.ts');
    expect(modules.has('client/node-http.ts')).toBe(true);
    expect(packages.has('undici')).toBe(false);
  });

  it('checks the answers against the contract without loading zod', () => {
    expect(loadedWith('client/client.ts').packages.has('zod')).toBe(false);
  });
});
