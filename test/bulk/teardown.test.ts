// Bulk delete (`delete --from`): the deletes under the import's scheduler: it keeps to a rate
// limit the service states instead of learning it from 429s, and stops sending once interrupted.
import { describe, expect, it } from 'vitest';
import { runTeardown, TeardownStoppedError } from '../../src/bulk/teardown.js';
import { ContactsClient } from '../../src/client/client.js';
import { AgentNotFoundError } from '../../src/client/errors.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

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

  it('stops at an unknown agent, by its error class: nothing counted as already gone', async () => {
    const mock = await startTestMock({ agents: ['someone-else'] });
    const client = clientFor(mock.url);
    let stopped: unknown;
    try {
      await runTeardown({ client, agentId: AGENT, ids: [{ line: 1, id: 'x' }], concurrency: 1 });
    } catch (error) {
      stopped = error;
    } finally {
      await client.close();
    }
    expect(stopped).toBeInstanceOf(TeardownStoppedError);
    expect((stopped as TeardownStoppedError).cause).toBeInstanceOf(AgentNotFoundError);
    expect((stopped as TeardownStoppedError).report).toMatchObject({ deleted: 0, notFound: 0 });
  });

  it('fails an external_id no path can carry (`..`) alone, sending nothing for it, and goes on', async () => {
    const mock = await startTestMock();
    for (const id of ['..', 'u1']) mock.store.upsertContact(AGENT, { external_id: id });
    const client = clientFor(mock.url);
    try {
      const report = await runTeardown({
        client,
        agentId: AGENT,
        ids: [
          { line: 1, id: '..' },
          { line: 2, id: 'u1' },
        ],
        concurrency: 1,
      });
      expect(report).toMatchObject({ deleted: 1, notFound: 0, failed: 1 });
      expect(report.failures).toEqual([
        {
          line: 1,
          id: '..',
          reason: expect.stringMatching(/^The contact id "\.\." cannot go in a request path/),
        },
      ]);
    } finally {
      await client.close();
    }
    expect(mock.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      `/api/v1/chatbots/${AGENT}/contacts/u1`,
    ]);
    expect(mock.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['..']);
  });

  it("counts a contact's 404 as already gone, whatever words its message uses", async () => {
    // A message naming the agent is still about the contact: only AgentNotFoundError stops the run.
    const server = await startScriptedServer([
      { status: 404, body: { message: 'No such contact for this agent' } },
    ]);
    const client = clientFor(server.url);
    try {
      const report = await runTeardown({
        client,
        agentId: AGENT,
        ids: [
          { line: 1, id: 'x' },
          { line: 2, id: 'y' },
        ],
      });
      expect(report).toMatchObject({ deleted: 0, notFound: 2, failed: 0 });
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('refuses options it cannot take before it sends anything', async () => {
    const server = await startScriptedServer([{ status: 204 }]);
    const client = clientFor(server.url);
    try {
      const ids = [{ line: 1, id: 'x' }];
      await expect(runTeardown({ client, agentId: AGENT, ids, concurrency: 1000 })).rejects.toMatchObject({
        name: 'InvalidOptionError',
        code: 'out_of_range',
        param: 'concurrency',
      });
      await expect(
        runTeardown({ client, agentId: AGENT, ids: 'x' as unknown as typeof ids }),
      ).rejects.toMatchObject({ code: 'invalid_type', param: 'ids' });
      expect(server.requests).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
