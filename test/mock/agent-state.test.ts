// Keys from outside (agent ids, external_ids, attribute names) are keys like any other, and a
// request the mock refuses, whatever the reason, leaves nothing behind for the agent it names.
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/api/index.js';
import { createMockState } from '../../src/mock/handler.js';
import { createMockHandlers } from '../../src/mock/msw.js';
import { api, startTestMock, TEST_KEY, tempDir } from '../helpers/mock.js';

const OUTSIDE_KEYS = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];

describe('keys from outside', () => {
  it('agent ids, external_ids and attribute names that name Object.prototype members survive a restart', async () => {
    const dataFile = join(await tempDir(), 'state.json');
    const first = await startTestMock({ dataFile });
    const client = api(first.url);
    for (const agent of OUTSIDE_KEYS) {
      // `constructor` is a valid attribute name (lowercase); the others are refused by its rule.
      expect(
        (await client.post(paths.attributes(agent), { name: 'constructor', type: 'number' })).status,
      ).toBe(200);
      for (const externalId of OUTSIDE_KEYS) {
        const res = await client.post(paths.contacts(agent), {
          external_id: externalId,
          custom_attributes: { constructor: 7 },
        });
        expect(res.status, `${agent}/${externalId}`).toBe(201);
      }
    }
    await first.close();

    const second = await startTestMock({ dataFile });
    expect(second.store.agentIds().sort()).toEqual([...OUTSIDE_KEYS].sort());
    for (const agent of OUTSIDE_KEYS) {
      const list = await api(second.url).get(paths.contacts(agent));
      expect(list.body.data.map((c: { external_id: string }) => c.external_id).sort()).toEqual(
        [...OUTSIDE_KEYS].sort(),
      );
      const one = await api(second.url).get(paths.contact(agent, '__proto__'));
      expect(one.body.data.custom_attributes).toEqual({ constructor: 7 });
      expect(Object.keys(one.body.data.custom_attributes)).toEqual(['constructor']);
    }
  });
});

describe('refused requests allocate nothing', () => {
  it('whatever the refusal: 400, 404, 405, 413, 415, strict, quota, reserved names', async () => {
    const mock = await startTestMock({ maxContacts: 0 });
    const client = api(mock.url);
    const fresh = (i: number) => `fresh-${i}`;
    const statuses: number[] = [];
    let i = 0;
    const json = { 'content-type': 'application/json' };
    const attempts = [
      () => client.post(paths.contacts(fresh(i)), { name: 'no external_id' }),
      () => client.post(paths.contacts(fresh(i)), { external_id: 'quota' }),
      () => client.post(paths.contacts(fresh(i)), { users: [{ external_id: 'quota' }] }),
      () => client.request('POST', paths.contacts(fresh(i)), { body: '{', headers: json }),
      () =>
        client.request('POST', paths.contacts(fresh(i)), {
          body: '{}',
          headers: { 'content-type': 'text/plain' },
        }),
      () =>
        client.request('POST', paths.contacts(fresh(i)), {
          body: 'x'.repeat(1024 * 1024 + 1),
          headers: json,
        }),
      () => client.patch(paths.contact(fresh(i), 'nobody'), { name: 'x' }),
      () => client.delete(paths.contact(fresh(i), 'nobody')),
      () => client.request('PUT', paths.contacts(fresh(i))),
      () => client.post(paths.attributes(fresh(i)), { name: 'email', type: 'text' }),
      () => client.post(paths.attributes(fresh(i)), { name: 'Bad Name', type: 'text' }),
      () => client.put(paths.attribute(fresh(i), 'plan'), { label: 'x' }),
      () => api(mock.url, null).post(paths.contacts(fresh(i)), { external_id: 'a' }),
    ];
    for (let round = 0; round < 20; round++) {
      for (const attempt of attempts) {
        i++;
        statuses.push((await attempt()).status);
      }
    }
    expect(new Set(statuses)).toEqual(new Set([400, 401, 404, 405, 413, 415]));
    expect(mock.store.agentIds()).toEqual([]);
    expect(Object.keys(mock.store.snapshot().agents)).toEqual([]);

    const strict = await startTestMock({ strict: true });
    for (let n = 0; n < 50; n++) {
      const r = await api(strict.url).post(paths.contacts(`strict-${n}`), { external_id: 'a', company: 'x' });
      expect(r.status).toBe(400);
    }
    expect(strict.store.agentIds()).toEqual([]);
  });

  it('the same through the msw handlers', async () => {
    const base = 'https://contacts.agents.test';
    const state = createMockState({ maxContacts: 0 });
    const server = setupServer(...createMockHandlers({ baseUrl: base, state }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      for (let n = 0; n < 30; n++) {
        const r = await fetch(`${base}${paths.contacts(`m-${n}`)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(n % 2 ? { external_id: 'a' } : { name: 'x' }),
        });
        expect(r.status).toBe(400);
      }
    } finally {
      server.close();
    }
    expect(state.store.agentIds()).toEqual([]);
  });
});
