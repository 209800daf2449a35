// Bulk delete (`delete --from`) runs under the import's scheduler: it keeps to a rate limit the
// service states instead of learning it from 429s, and stops sending once interrupted.
import { describe, expect, it } from 'vitest';
import { ContactsClient } from '../../src/client/client.js';
import { runTeardown } from '../../src/teardown/teardown.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';

function clientFor(url: string): ContactsClient {
  return new ContactsClient({ baseUrl: url, apiKey: TEST_KEY, agentId: AGENT });
}

describe('runTeardown', () => {
  it('keeps to the rate limit the service states: every id deleted, no 429', async () => {
    const mock = await startTestMock({ faults: { rateLimit: 4 } });
    const ids = Array.from({ length: 10 }, (_, i) => ({ line: i + 1, id: `d${i}` }));
    for (const { id } of ids) mock.store.upsertContact(AGENT, { external_id: id });
    const client = clientFor(mock.url);
    try {
      const report = await runTeardown({ client, agentId: AGENT, ids, concurrency: 8 });
      expect(report).toMatchObject({ deleted: 10, notFound: 0, failed: 0, interrupted: false });
    } finally {
      await client.close();
    }
    const deletes = mock.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.filter((r) => r.status === 429)).toEqual([]);
    expect(mock.store.contacts(AGENT)).toEqual([]);
  });

  it('sends nothing once interrupted, and says so', async () => {
    const mock = await startTestMock();
    const controller = new AbortController();
    controller.abort();
    const client = clientFor(mock.url);
    try {
      const report = await runTeardown({
        client,
        agentId: AGENT,
        ids: [{ line: 1, id: 'x' }],
        signal: controller.signal,
      });
      expect(report).toMatchObject({ deleted: 0, interrupted: true });
    } finally {
      await client.close();
    }
    expect(mock.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});
