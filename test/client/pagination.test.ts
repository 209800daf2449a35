// A walk through every page (`listAll`, `pages`, iterating a page) against the real mock on port
// 0, with contacts deleted or added between two page requests, and against servers that repeat
// or drop a page: the walk throws InconsistentListError rather than ending short.
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { type Contact, ContactsClient, InconsistentListError, walkUntilConsistent } from '../../src/index.js';
import type { MockServer, RequestLogEntry } from '../../src/mock/server.js';
import { startTestMock } from '../helpers/mock.js';
import { type Step, startScriptedServer } from '../helpers/scripted-server.js';

const AGENT = 'walks';
const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientOf(url: string): ContactsClient {
  const client = new ContactsClient({
    baseUrl: url,
    apiKey: 'bk_walk_test_key',
    agentId: AGENT,
    maxRetries: 0,
  });
  clients.push(client);
  return client;
}

/**
 * A mock holding `n` contacts (c0, c1, …); `onList(n, mock)` runs when the mock has answered its
 * nth request for a page of contacts (1 first), before the client has the answer: what it changes,
 * the next page request sees. A walk asks for its pages one after another, so the nth request is a
 * known page of a known walk.
 */
async function mockWith(n: number, onList: (request: number, mock: MockServer) => void = () => {}) {
  let mock: MockServer | undefined;
  let requests = 0;
  const onRequest = (entry: RequestLogEntry) => {
    if (entry.method === 'GET' && entry.path.endsWith('/contacts') && entry.status === 200) {
      onList(++requests, mock!);
    }
  };
  const failures: unknown[] = [];
  mock = await startTestMock({ onRequest, onError: (error) => failures.push(error) });
  onTestFinished(() => expect(failures).toEqual([]));
  const users = Array.from({ length: n }, (_, i) => ({ external_id: `c${i}` }));
  if (n > 0) mock.store.batchUpsert(AGENT, { users });
  return { mock, client: clientOf(mock.url) };
}

async function collect(walk: AsyncIterable<Contact>): Promise<string[]> {
  const seen: string[] = [];
  for await (const c of walk) seen.push(c.external_id);
  return seen;
}

/** An enveloped page of `ids` as the contract has it. */
function page(ids: string[], info: { page: number; perPage: number; total: number }): Step {
  const now = 1_704_067_200;
  return {
    status: 200,
    body: {
      message: 'Success',
      data: ids.map((id) => ({
        id,
        external_id: `x-${id}`,
        name: null,
        email: null,
        phonenumber: null,
        stripe_accounts: [],
        custom_attributes: {},
        created_at: now,
        updated_at: now,
      })),
      total: info.total,
      pages: { page: info.page, per_page: info.perPage, total_pages: Math.ceil(info.total / info.perPage) },
    },
  };
}

describe('a walk through every page', () => {
  it('yields every contact once when nothing changes under it', async () => {
    const { client } = await mockWith(25);
    const seen = await collect(client.contacts.listAll({ perPage: 10 }));
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `c${i}`));
  });

  it('throws total_changed when contacts are deleted between two pages (they would be skipped)', async () => {
    const { client } = await mockWith(25, (request, mock) => {
      if (request === 1) for (const id of ['c0', 'c1', 'c2']) mock.store.deleteContact(AGENT, id);
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of client.contacts.listAll({ perPage: 10 })) seen.push(c.external_id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InconsistentListError);
    expect(error).toMatchObject({ code: 'total_changed', page: 2, expected: 25, found: 22, attempts: 1 });
    expect((error as Error).message).toBe(
      'The list of contacts changed while it was read: page 2 counts 22 contacts, the first page 25',
    );
    // The first page only: the one that showed the change is not yielded.
    expect(seen).toHaveLength(10);
  });

  it('throws total_changed when contacts are added between two pages', async () => {
    const { client } = await mockWith(15, (request, mock) => {
      if (request === 1) mock.store.batchUpsert(AGENT, { users: [{ external_id: 'new' }] });
    });
    await expect(collect(client.contacts.listAll({ perPage: 10 }))).rejects.toMatchObject({
      code: 'total_changed',
      expected: 15,
      found: 16,
    });
  });

  it('throws page_gone when the page it was told of is past the end now', async () => {
    // Deleted after page 2 of 3: page 3 is out of range.
    const { client } = await mockWith(25, (request, mock) => {
      if (request === 2) for (let i = 0; i < 10; i++) mock.store.deleteContact(AGENT, `c${i}`);
    });
    const error = await collect(client.contacts.listAll({ perPage: 10 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InconsistentListError);
    expect(error).toMatchObject({ code: 'page_gone', page: 3, expected: 25 });
  });

  it('iterating a page and pages() are checked the same way', async () => {
    // Each walk's first page: requests 1 and 3 (each walk fails at its second).
    const { client } = await mockWith(25, (request, mock) => {
      if (request === 1 || request === 3) mock.store.deleteContact(AGENT, `c${request}`);
    });
    const first = await client.contacts.list({ perPage: 10 });
    await expect(collect(first)).rejects.toBeInstanceOf(InconsistentListError);
    const pages = async () => {
      for await (const _ of client.contacts.pages({ perPage: 10 })) {
        // drained
      }
    };
    await expect(pages()).rejects.toMatchObject({ code: 'total_changed' });
  });

  it('a walk from a later page is checked for changes, not against the total', async () => {
    const { client } = await mockWith(25);
    const second = await client.contacts.list({ perPage: 10, page: 2 });
    expect(await collect(second)).toEqual(Array.from({ length: 15 }, (_, i) => `c${i + 10}`));
  });

  it('throws repeated_id when the server sends a page again', async () => {
    const server = await startScriptedServer([
      page(['a', 'b'], { page: 1, perPage: 2, total: 4 }),
      page(['a', 'b'], { page: 2, perPage: 2, total: 4 }),
    ]);
    try {
      const error = await collect(clientOf(server.url).contacts.listAll({ perPage: 10 })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InconsistentListError);
      expect(error).toMatchObject({ code: 'repeated_id', page: 2, id: 'a' });
    } finally {
      await server.close();
    }
  });

  it('throws count_mismatch when the pages hold fewer contacts than the total said', async () => {
    // The second (last) page comes back empty: the walk would end at 2 of 4.
    const server = await startScriptedServer([
      page(['a', 'b'], { page: 1, perPage: 2, total: 4 }),
      page([], { page: 2, perPage: 2, total: 4 }),
    ]);
    try {
      await expect(collect(clientOf(server.url).contacts.listAll())).rejects.toMatchObject({
        code: 'count_mismatch',
        expected: 4,
        found: 2,
      });
    } finally {
      await server.close();
    }
  });

  it('walkUntilConsistent reads again from the first page and returns a whole walk', async () => {
    let walks = 0;
    const { client } = await mockWith(25, (request, mock) => {
      // Deleted during the first walk only.
      if (request === 1) mock.store.deleteContact(AGENT, 'c0');
    });
    const retried: [string, number][] = [];
    const seen = await walkUntilConsistent(
      async () => {
        walks++;
        return collect(client.contacts.listAll({ perPage: 10 }));
      },
      { onRetry: (error, attempt) => retried.push([error.code, attempt]) },
    );
    expect(walks).toBe(2);
    expect(retried).toEqual([['total_changed', 2]]);
    expect(seen).toEqual(Array.from({ length: 24 }, (_, i) => `c${i + 1}`));
  });

  it('walkUntilConsistent gives up after its attempts, saying how many walks it made', async () => {
    // Each walk deletes one after its first page and fails at its second: requests 1, 3, 5.
    let next = 0;
    const { client } = await mockWith(30, (request, mock) => {
      if (request % 2 === 1) mock.store.deleteContact(AGENT, `c${next++}`);
    });
    const error = await walkUntilConsistent(() => collect(client.contacts.listAll({ perPage: 10 }))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InconsistentListError);
    expect(error).toMatchObject({ code: 'total_changed', attempts: 3 });
    expect((error as Error).message).toMatch(/\(read 3 times\)$/);
    expect(next).toBe(3);
  });
});
