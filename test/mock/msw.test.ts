// The msw handlers, exercised through fetch with the real msw/node interceptor.
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATIONS, paths } from '../../src/api/index.js';
import { createMockState } from '../../src/mock/handler.js';
import { createMockHandlers } from '../../src/mock/msw.js';
import { AGENT, TEST_KEY } from '../helpers/mock.js';

const BASE = 'https://contacts.example.test';
const state = createMockState({ keys: [TEST_KEY] });
const server = setupServer(...createMockHandlers({ baseUrl: BASE, state }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => state.store.reset());

const call = async (method: string, path: string, body?: unknown, key: string | null = TEST_KEY) => {
  const headers: Record<string, string> = {};
  if (key) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
};

describe('createMockHandlers through fetch', () => {
  it('serves the contract and shares its state with the caller', async () => {
    const created = await call('POST', paths.contacts(AGENT), { external_id: 'm1', name: 'Via msw' });
    expect(created.status).toBe(201);
    expect(state.store.getContact(AGENT, 'm1').name).toBe('Via msw');

    state.store.upsertContact(AGENT, { external_id: 'm2' });
    const list = await call('GET', `${paths.contacts(AGENT)}?per_page=10`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.pages).toEqual({ page: 1, per_page: 10, total_pages: 1 });
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);

    const patched = await call('PATCH', paths.contact(AGENT, 'm2'), { data: { name: 'Wrapped' } });
    expect(patched.body.data.name).toBe('Wrapped');
    expect((await call('DELETE', paths.contact(AGENT, 'm1'))).status).toBe(200);
    expect((await call('GET', paths.contact(AGENT, 'm1'))).status).toBe(404);
  });

  it('applies the same errors as the server: auth, validation, conflicts, methods', async () => {
    expect((await call('GET', paths.contacts(AGENT), undefined, null)).body).toEqual({
      message: 'Unauthorized access',
    });
    expect((await call('GET', paths.contacts(AGENT), undefined, 'bk_not_listed')).status).toBe(401);
    const invalid = await call('POST', paths.contacts(AGENT), {
      users: [{ external_id: 'ok' }, { email: 'x' }],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues.map((i: { field: string }) => i.field)).toEqual([
      'users.1.external_id',
      'users.1.email',
    ]);
    await call('POST', paths.contacts(AGENT), { external_id: 'a', email: 'a@example.com' });
    expect(
      (await call('POST', paths.contacts(AGENT), { external_id: 'b', email: 'A@example.com' })).status,
    ).toBe(409);
    const wrongMethod = await call('DELETE', paths.contacts(AGENT));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 415 and 400 for bodies that are not JSON objects', async () => {
    const text = await fetch(`${BASE}${paths.contacts(AGENT)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const array = await fetch(`${BASE}${paths.contacts(AGENT)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: '[1]',
    });
    expect(array.status).toBe(400);
  });

  it('serves /health and /openapi.json without a key', async () => {
    expect((await call('GET', '/health', undefined, null)).status).toBe(200);
    expect((await call('GET', '/openapi.json', undefined, null)).body.openapi).toBe('3.1.0');
  });
});

describe('which requests the handlers take', () => {
  const request = (url: string) => new Request(url, { headers: { authorization: 'Bearer bk_x' } });

  it('takes only requests under baseUrl, path prefix included', async () => {
    const handlers = createMockHandlers({ baseUrl: 'https://api.example.test/prefix/' });
    const inside = await getResponse(
      handlers,
      request(`https://api.example.test/prefix${paths.contacts(AGENT)}`),
    );
    expect(inside?.status).toBe(200);
    expect(
      await getResponse(handlers, request(`https://api.example.test${paths.contacts(AGENT)}`)),
    ).toBeUndefined();
    expect(
      await getResponse(handlers, request(`https://other.test/prefix${paths.contacts(AGENT)}`)),
    ).toBeUndefined();
    expect(await getResponse(handlers, request('https://api.example.test/prefix/elsewhere'))).toBeUndefined();
  });

  it('takes the API paths of any origin without a baseUrl, and nothing else', async () => {
    const handlers = createMockHandlers();
    for (const origin of ['http://localhost:4010', 'https://somewhere.test']) {
      expect((await getResponse(handlers, request(`${origin}${paths.contacts(AGENT)}`)))?.status).toBe(200);
      expect((await getResponse(handlers, request(`${origin}/api/v1/unknown`)))?.status).toBe(404);
    }
    expect(await getResponse(handlers, request('https://somewhere.test/index.html'))).toBeUndefined();
  });
});

describe('the handlers come from the operations table', () => {
  it('one per operation, with its method and path, then one for the rest of the API', async () => {
    const handlers = createMockHandlers({ baseUrl: 'https://api.example.test' });
    expect(handlers).toHaveLength(OPERATIONS.length + 1);
    const declared = handlers.slice(0, OPERATIONS.length).map((h) => {
      const info = h.info as { method: string; path: string };
      return `${info.method} ${info.path}`;
    });
    expect(declared).toEqual(
      OPERATIONS.map((op) => `${op.method} https://api.example.test${op.path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    // Each operation's own handler answers its requests (the catch-all is not needed for them).
    const own = handlers.slice(0, OPERATIONS.length);
    const get = new Request(`https://api.example.test${paths.contacts(AGENT)}`, {
      headers: { authorization: `Bearer ${TEST_KEY}` },
    });
    expect((await getResponse(own, get))?.status).toBe(200);
  });
});
