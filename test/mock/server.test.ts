// Authentication, routing and body handling of the mock, over real HTTP.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, MAX_BODY_BYTES, paths } from '../../src/api/index.js';
import { AGENT, api, startTestMock, TEST_KEY } from '../helpers/mock.js';

describe('authentication', () => {
  it('answers 401 "Unauthorized access" without an Authorization header, as for any bad key', async () => {
    const server = await startTestMock();
    const res = await api(server.url, null).get(paths.contacts(AGENT));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthorized access' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 401 "Unauthorized access" for a value that is not Bearer bk_...', async () => {
    const server = await startTestMock();
    const client = api(server.url, null);
    for (const authorization of ['Bearer sk_live_123', 'bk_123', 'Basic Ymtf', 'Bearer ', 'Bearer bk_a b']) {
      const res = await client.request('GET', paths.contacts(AGENT), { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body, authorization).toEqual({ message: 'Unauthorized access' });
    }
  });

  it('accepts any well-formed bk_ key by default', async () => {
    const server = await startTestMock();
    expect((await api(server.url, 'bk_anything').get(paths.contacts(AGENT))).status).toBe(200);
    const lower = await api(server.url, null).request('GET', paths.contacts(AGENT), {
      headers: { authorization: 'bearer bk_x' },
    });
    expect(lower.status).toBe(200);
  });

  it('accepts only the listed keys when started with keys', async () => {
    const server = await startTestMock({ keys: [TEST_KEY] });
    expect((await api(server.url, TEST_KEY).get(paths.contacts(AGENT))).status).toBe(200);
    const other = await api(server.url, 'bk_other').get(paths.contacts(AGENT));
    expect(other.status).toBe(401);
    expect(other.body.message).toBe('Unauthorized access');
  });

  it('checks the key on every endpoint, writes included', async () => {
    const server = await startTestMock();
    const anon = api(server.url, null);
    const calls = [
      anon.post(paths.contacts(AGENT), { external_id: 'a' }),
      anon.get(paths.contact(AGENT, 'a')),
      anon.patch(paths.contact(AGENT, 'a'), {}),
      anon.delete(paths.contact(AGENT, 'a')),
      anon.get(paths.attributes(AGENT)),
      anon.post(paths.attributes(AGENT), { name: 'x', type: 'text' }),
      anon.put(paths.attribute(AGENT, 'x'), {}),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(401);
    expect(server.store.agentIds()).toEqual([]);
  });
});

describe('health and the OpenAPI document', () => {
  it('answers GET /health with 200 without a key', async () => {
    const server = await startTestMock({ keys: [TEST_KEY] });
    const res = await api(server.url, null).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('ok');
  });

  it('serves /openapi.json without a key, generated from the contract', async () => {
    const server = await startTestMock({ keys: [TEST_KEY] });
    const res = await api(server.url, null).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toContain('/api/v1/chatbots/{agentId}/contacts');
    expect(res.body.components.schemas.Contact).toBeDefined();
  });
});

describe('routing', () => {
  it('answers 404 with the error body for an unknown path', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    for (const path of [
      '/api/v1/nothing',
      '/api/v2/chatbots/a/contacts',
      '/api/v1/chatbots/a/contacts/x/y',
      '/',
    ]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(ErrorBodySchema.safeParse(res.body).success, path).toBe(true);
    }
  });

  it('answers 404 to a path with a dot segment instead of resolving it, so `..` deletes nothing', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    const made = await client.post(paths.contacts(AGENT), { external_id: '..' });
    expect(made.status).toBe(201);
    // Sent as typed: fetch would resolve the dot segments before they leave.
    const sent = (method: string, target: string) =>
      new Promise<{ status: number; body: { message: string } }>((resolve, reject) => {
        const { hostname, port } = new URL(server.url);
        const req = httpRequest(
          { hostname, port, method, path: target, headers: { authorization: `Bearer ${TEST_KEY}` } },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => {
              text += c.toString();
            });
            res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    for (const [method, target, dot] of [
      ['DELETE', `/api/v1/chatbots/${AGENT}/contacts/..`, '..'],
      ['GET', `/api/v1/chatbots/${AGENT}/contacts/%2E%2e`, '%2E%2e'],
      ['GET', `/api/v1/chatbots/${AGENT}/contacts/.`, '.'],
      ['GET', '/api/v1/chatbots/../contacts', '..'],
      ['PUT', `/api/v1/chatbots/${AGENT}/custom-attributes/..`, '..'],
    ] as const) {
      const res = await sent(method, target);
      expect(res.status, target).toBe(404);
      expect(ErrorBodySchema.safeParse(res.body).success, target).toBe(true);
      expect(res.body.message, target).toBe(
        `No such endpoint: ${method} ${target} (a "${dot}" segment names no contact, agent or attribute: URL parsers and proxies resolve it away)`,
      );
    }
    // The contact is still there, and reached by its own id.
    const kept = await client.get(paths.contact(AGENT, made.body.data.id));
    expect(kept.status).toBe(200);
    expect(kept.body.data.external_id).toBe('..');
  });

  it('never echoes a key that stands in an unknown path (as the request log redacts it)', async () => {
    const server = await startTestMock();
    const res = await api(server.url).get(`/api/v1/${TEST_KEY}/contacts`);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/^No such endpoint: GET \/api\/v1\/bk_\.\.\.\[REDACTED\]/);
    expect(res.body.message).not.toContain(TEST_KEY);
    const control = await api(server.url).get(`/__mock/${TEST_KEY}`);
    expect(JSON.stringify(control.body)).not.toContain(TEST_KEY);
  });

  it('answers 405 with an Allow header for a known path and a wrong method', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    const cases: [string, string, string][] = [
      ['DELETE', paths.contacts(AGENT), 'GET, POST'],
      ['PUT', paths.contact(AGENT, 'a'), 'GET, PATCH, DELETE'],
      ['PATCH', paths.attributes(AGENT), 'GET, POST'],
      ['GET', paths.attribute(AGENT, 'plan'), 'PUT'],
      ['POST', '/health', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await client.request(method, path, method === 'GET' ? {} : { json: {} });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('accepts a trailing slash on a known path', async () => {
    const server = await startTestMock();
    expect((await api(server.url).get(`${paths.contacts(AGENT)}/`)).status).toBe(200);
  });
});

describe('request bodies', () => {
  it('answers 413 for a body over 1 MiB, and accepts one just under', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    const big = JSON.stringify({ external_id: 'big', name: 'x'.repeat(MAX_BODY_BYTES) });
    const res = await client.request('POST', paths.contacts(AGENT), {
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(typeof res.body.message).toBe('string');
    // Near the limit the body is read whole and judged on its content (here: name too long).
    const near = JSON.stringify({ external_id: 'near', name: 'x'.repeat(MAX_BODY_BYTES - 100) });
    const ok = await client.request('POST', paths.contacts(AGENT), {
      body: near,
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(400);
    expect(ok.body.issues[0].field).toBe('name');
    // The connection is still usable afterwards.
    expect((await client.get(paths.contacts(AGENT))).status).toBe(200);
  });

  it('answers 415 for a body that is not application/json', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
      const res = await client.request('POST', paths.contacts(AGENT), {
        body: '{"external_id":"a"}',
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
    }
    const charset = await client.request('POST', paths.contacts(AGENT), {
      body: '{"external_id":"a"}',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(charset.status).toBe(201);
  });

  it('answers 400 for malformed JSON, a missing body, and JSON that is not an object', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    const json = { 'content-type': 'application/json' };
    const malformed = await client.request('POST', paths.contacts(AGENT), {
      body: '{"external_id":',
      headers: json,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/Malformed JSON/);
    const empty = await client.request('POST', paths.contacts(AGENT), { headers: json });
    expect(empty.status).toBe(400);
    for (const body of ['[]', '"text"', '42', 'null']) {
      const res = await client.request('PATCH', paths.contact(AGENT, 'a'), { body, headers: json });
      expect(res.status, body).toBe(400);
      expect(res.body.message).toBe('The JSON body must be an object');
    }
  });

  it('sends JSON with a content type on every answer', async () => {
    const server = await startTestMock();
    const res = await api(server.url).get(paths.contacts(AGENT));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

describe('server lifecycle', () => {
  it('logs requests with method, path, status and duration', async () => {
    const seen: string[] = [];
    const server = await startTestMock({ onRequest: (e) => seen.push(`${e.method} ${e.path} ${e.status}`) });
    await api(server.url).get(`${paths.contacts(AGENT)}?page=1`);
    await api(server.url, null).get('/health');
    expect(seen).toEqual([`GET ${paths.contacts(AGENT)} 200`, 'GET /health 200']);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reset() empties the store and the log', async () => {
    const server = await startTestMock();
    await api(server.url).post(paths.contacts(AGENT), { external_id: 'a' });
    await server.reset();
    expect(server.requests).toHaveLength(0);
    expect((await api(server.url).get(paths.contacts(AGENT))).body.total).toBe(0);
  });

  it('close() ends idle keep-alive connections and resolves', async () => {
    const server = await startTestMock();
    // fetch keeps the connection alive after this answer.
    expect((await api(server.url).get('/health')).status).toBe(200);
    await server.close();
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    await expect(server.closed).resolves.toBeUndefined();
  });

  it('answers 500 with an error body and reports an unexpected failure', async () => {
    const errors: unknown[] = [];
    const server = await startTestMock({ onError: (e) => errors.push(e) });
    server.store.listAttributes = () => {
      throw new Error('boom');
    };
    const res = await api(server.url).get(paths.attributes(AGENT));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal server error' });
    expect(errors).toHaveLength(1);
  });
});
