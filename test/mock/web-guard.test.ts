// What keeps web pages out of a mock served on a port (issue 21.2): the Host check against DNS
// rebinding, the controls' refusal of cross-site requests, and CORS only for named origins. Raw
// node:http requests, since fetch will not send a Host or Origin of the caller's choosing.
import { request } from 'node:http';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/api/index.js';
import { createMockHandlers } from '../../src/mock/msw.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely.
  body: any;
}

/** One request with exactly these headers (Host included) and target. */
function raw(
  url: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  const { hostname: host, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host, port, method, path: target, headers, setHost: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const auth = { authorization: `Bearer ${TEST_KEY}` };

describe('the Host check', () => {
  it('serves loopback names, IP addresses and this machine name; answers 421 to any other name', async () => {
    const server = await startTestMock();
    const port = server.port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `app.localhost:${port}`,
      `localhost.:${port}`,
      `[::1]:${port}`,
      '10.1.2.3',
      hostname(),
    ]) {
      const res = await raw(server.url, 'GET', paths.contacts(AGENT), { ...auth, host });
      expect(res.status, host).toBe(200);
    }
    const rebound = await raw(server.url, 'GET', paths.contacts(AGENT), {
      ...auth,
      host: `evil.example:${port}`,
    });
    expect(rebound.status).toBe(421);
    expect(rebound.body.message).toContain('does not serve the host name "evil.example"');
    expect(rebound.body.message).toContain('--allow-host evil.example');
    expect(rebound.headers['x-request-id']).toMatch(/^req_/);
    // Not a prefix or suffix match: a name that merely starts with this machine's is another name.
    const lookalike = await raw(server.url, 'GET', '/health', { host: `${hostname()}.evil.example` });
    expect(lookalike.status).toBe(421);
    // Nothing of a refused request runs: no write, nothing logged (the seven above only).
    const write = await raw(
      server.url,
      'POST',
      paths.contacts(AGENT),
      { ...auth, host: 'evil.example', 'content-type': 'application/json' },
      JSON.stringify({ external_id: 'x' }),
    );
    expect(write.status).toBe(421);
    expect(server.store.count(AGENT)).toBe(0);
    expect(server.requests).toHaveLength(7);
  });

  it('serves the names the user allows (exact, subdomains with a leading dot, or any with *)', async () => {
    const server = await startTestMock({ allowedHosts: ['mock.test', '.dev.internal'] });
    const status = async (host: string) => (await raw(server.url, 'GET', '/health', { host })).status;
    expect(await status('mock.test:4010')).toBe(200);
    expect(await status('MOCK.TEST')).toBe(200);
    expect(await status('api.dev.internal')).toBe(200);
    expect(await status('dev.internal')).toBe(200);
    expect(await status('other.test')).toBe(421);
    const any = await startTestMock({ allowedHosts: ['*'] });
    expect((await raw(any.url, 'GET', '/health', { host: 'anything.example' })).status).toBe(200);
  });

  it('routes an absolute-form target by its path, never echoing its userinfo', async () => {
    const server = await startTestMock();
    const target = `http://user:hunter2@127.0.0.1:${server.port}/api/v1/nothing/${TEST_KEY}`;
    const res = await raw(server.url, 'GET', target, { ...auth, host: `127.0.0.1:${server.port}` });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(JSON.stringify(res.body)).not.toContain(TEST_KEY);
    expect(res.body.message).toBe('No such endpoint: GET /api/v1/nothing/bk_...[REDACTED]');
    // Its host stands in for the Host header.
    const rebound = await raw(server.url, 'GET', `http://evil.example/health`, {
      host: `127.0.0.1:${server.port}`,
    });
    expect(rebound.status).toBe(421);
    expect(JSON.stringify(server.requests)).not.toContain('hunter2');
  });
});

/** `POST /__mock/reset` to `server` with these headers (and body). */
const reset = (server: { url: string }, headers: Record<string, string>, body?: string) =>
  raw(server.url, 'POST', '/__mock/reset', headers, body);

describe('the controls under /__mock/', () => {
  it('refuse a POST a web page could send without asking: no JSON type and no x-contacts-mock header', async () => {
    const server = await startTestMock();
    server.store.upsertContact(AGENT, { external_id: 'kept' });
    const host = `127.0.0.1:${server.port}`;
    // What a no-cors fetch or a form sends.
    const simple = await reset(server, { host, 'content-type': 'text/plain' }, '{}');
    expect(simple.status).toBe(403);
    expect(simple.body.message).toContain(
      'needs "content-type: application/json" or an "x-contacts-mock: 1" header',
    );
    expect((await reset(server, { host })).status).toBe(403);
    expect(server.store.count(AGENT)).toBe(1);
    // What a script, curl or a test sends.
    expect((await reset(server, { host, 'x-contacts-mock': '1' })).status).toBe(200);
    server.store.upsertContact(AGENT, { external_id: 'again' });
    const json = await reset(server, { host, 'content-type': 'application/json' }, '{}');
    expect(json.status).toBe(200);
    expect(server.store.count(AGENT)).toBe(0);
    // The JSON types the API itself takes (no form can send them either).
    for (const type of ['application/merge-patch+json', 'Application/JSON; charset=utf-8']) {
      expect((await reset(server, { host, 'content-type': type }, '{}')).status).toBe(200);
    }
  });

  it("refuse a foreign Origin, even with JSON; take the mock's own origin and the ones named with cors", async () => {
    const server = await startTestMock({ cors: ['http://localhost:3000'] });
    const host = `127.0.0.1:${server.port}`;
    const json = { host, 'content-type': 'application/json' };
    server.store.upsertContact(AGENT, { external_id: 'kept' });
    const foreign = await reset(server, { ...json, origin: 'https://evil.example' }, '{}');
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toContain('Origin: "https://evil.example"');
    expect((await raw(server.url, 'GET', '/__mock/requests', { host, origin: 'null' })).status).toBe(403);
    expect(server.store.count(AGENT)).toBe(1);
    const own = await reset(server, { ...json, origin: `http://${host}` }, '{}');
    expect(own.status).toBe(200);
    const named = await reset(server, { ...json, origin: 'http://localhost:3000' }, '{}');
    expect(named.status).toBe(200);
    expect(named.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });
});

describe('CORS', () => {
  it('sends no CORS headers and answers no preflight unless asked', async () => {
    const server = await startTestMock();
    const host = `127.0.0.1:${server.port}`;
    const res = await raw(server.url, 'GET', paths.contacts(AGENT), {
      ...auth,
      host,
      origin: 'http://localhost:3000',
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await raw(server.url, 'OPTIONS', paths.contacts(AGENT), {
      host,
      origin: 'http://localhost:3000',
      'access-control-request-method': 'POST',
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.status).toBe(401);
  });

  it('answers preflights and exposes the contract headers to the origins named', async () => {
    const server = await startTestMock({ cors: ['http://localhost:3000'] });
    const host = `127.0.0.1:${server.port}`;
    const origin = 'http://localhost:3000';
    const preflight = await raw(server.url, 'OPTIONS', paths.contacts(AGENT), {
      host,
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(preflight.headers['access-control-allow-methods']).toContain('PATCH');
    const res = await raw(server.url, 'GET', paths.contacts(AGENT), { ...auth, host, origin });
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-expose-headers']).toContain('x-request-id');
    expect(res.headers.vary).toBe('origin');
    const other = await raw(server.url, 'GET', paths.contacts(AGENT), {
      ...auth,
      host,
      origin: 'http://other:3000',
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const any = await startTestMock({ cors: ['*'] });
    const star = await raw(any.url, 'GET', '/health', {
      host: `127.0.0.1:${any.port}`,
      origin: 'http://a.example',
    });
    expect(star.headers['access-control-allow-origin']).toBe('*');
  });

  it('go with the 421 and 403 refusals too, to the origins named only, so a browser test can read why', async () => {
    const server = await startTestMock({ cors: ['http://localhost:3000'] });
    const origin = 'http://localhost:3000';
    const rebound = await raw(server.url, 'GET', '/health', { host: 'rebound.example', origin });
    expect(rebound.status).toBe(421);
    expect(rebound.headers['access-control-allow-origin']).toBe(origin);
    expect(rebound.headers['access-control-expose-headers']).toContain('x-request-id');
    const host = `127.0.0.1:${server.port}`;
    const plain = await raw(
      server.url,
      'POST',
      '/__mock/reset',
      { host, origin, 'content-type': 'text/plain' },
      '',
    );
    expect(plain.status).toBe(403);
    expect(plain.headers['access-control-allow-origin']).toBe(origin);
    const other = await raw(server.url, 'GET', '/__mock/requests', { host, origin: 'https://evil.example' });
    expect(other.status).toBe(403);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('take an origin given with a trailing slash or in capitals as the origin a browser sends', async () => {
    const server = await startTestMock({ cors: ['http://localhost:3000/', 'HTTP://Example.TEST:8080'] });
    const host = `127.0.0.1:${server.port}`;
    for (const origin of ['http://localhost:3000', 'http://example.test:8080']) {
      const res = await raw(server.url, 'GET', paths.contacts(AGENT), { ...auth, host, origin });
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
  });
});

describe('the msw handlers', () => {
  it('keep serving any base URL and the controls to the page itself (nothing reaches them over the network)', () => {
    // No Host check there: a base URL such as https://api.example.com is the point of msw.
    expect(createMockHandlers({ baseUrl: 'https://api.example.com' }).length).toBeGreaterThan(0);
  });
});
