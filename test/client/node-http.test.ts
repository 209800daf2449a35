// The client's own HTTP over node:http: requests and answers as the transport reads them, kept-alive
// connections, connecting's own timer, and what a failure says about the connection.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { failedConnecting, NodeHttpDispatcher } from '../../src/client/node-http.js';
import {
  type ScriptedServer,
  type Step,
  startScriptedServer,
  startSilentServer,
} from '../helpers/scripted-server.js';

const servers: { close(): Promise<void> }[] = [];
const dispatchers: NodeHttpDispatcher[] = [];

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.destroy()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function scripted(steps: Step[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(steps);
  servers.push(server);
  return server;
}

function dispatcher(connectTimeoutMs = 60_000): NodeHttpDispatcher {
  const d = new NodeHttpDispatcher({ connectTimeoutMs });
  dispatchers.push(d);
  return d;
}

describe('NodeHttpDispatcher', () => {
  it('sends the method, path, headers and a body with its length, and reads the answer whole', async () => {
    const server = await scripted([{ status: 201, body: { ok: 'é' }, headers: { 'x-request-id': 'req_1' } }]);
    const d = dispatcher();
    const body = JSON.stringify({ name: 'Zoë' });
    const res = await d.request({
      origin: server.url,
      path: '/api/v1/x?page=2',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-request-id']).toBe('req_1');
    expect(JSON.parse(await res.body.text())).toEqual({ ok: 'é' });
    const [seen] = server.requests;
    expect(seen).toMatchObject({ method: 'POST', url: '/api/v1/x?page=2', body });
    // A length, not chunked encoding: the service reads a body by its length.
    expect(seen!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen!.headers['transfer-encoding']).toBeUndefined();
  });

  it('keeps the connection alive from one request to the next', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('{}'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const d = dispatcher();
    for (let i = 0; i < 3; i++) {
      const res = await d.request({ origin, path: '/', method: 'GET', headers: {} });
      expect(await res.body.text()).toBe('{}');
    }
    expect(connections).toBe(1);
  });

  it('speaks TLS to an https origin, and trusts no certificate the system does not', async () => {
    const tls = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
    const server = createTlsServer({ key: tls('localhost.key'), cert: tls('localhost.crt') }, (_req, res) =>
      res.end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const err = await dispatcher()
      .request({ origin, path: '/', method: 'GET', headers: {} })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(failedConnecting(err)).toBe(true);
  });

  it('gives up connecting after its own timer, saying the connection was never made', async () => {
    const silent = await startSilentServer();
    servers.push(silent);
    const d = dispatcher(30);
    const err = await d
      .request({ origin: `https://127.0.0.1:${silent.port}`, path: '/', method: 'GET', headers: {} })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ETIMEDOUT', message: 'connecting timed out after 30ms' });
    expect(failedConnecting(err)).toBe(true);
  });

  it('ends at once when the signal fires, before or after the connection is made', async () => {
    const silent = await startSilentServer();
    servers.push(silent);
    const d = dispatcher();
    const ctl = new AbortController();
    const pending = d.request({
      origin: `https://127.0.0.1:${silent.port}`,
      path: '/',
      method: 'GET',
      headers: {},
      signal: ctl.signal,
    });
    ctl.abort();
    const err = await pending.catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(failedConnecting(err)).toBe(true);

    const server = await scripted([{ hang: true }]);
    const later = new AbortController();
    const hanging = d.request({
      origin: server.url,
      path: '/',
      method: 'GET',
      headers: {},
      signal: later.signal,
    });
    // Answered by nobody: the request has its connection, and only the signal ends it.
    while (server.requests.length === 0) await new Promise((r) => setImmediate(r));
    later.abort();
    const after = await hanging.catch((e: unknown) => e);
    expect(after).toMatchObject({ name: 'AbortError' });
    expect(failedConnecting(after)).toBe(false);
  });

  it('rejects the body of an answer cut off before its end', async () => {
    const server = await scripted([{ trickle: 5 }]);
    const d = dispatcher();
    const res = await d.request({ origin: server.url, path: '/', method: 'GET', headers: {} });
    expect(res.statusCode).toBe(200);
    const text = res.body.text();
    res.body.destroy();
    await expect(text).rejects.toThrow();
  });

  it('close waits for the answers in flight, then ends the connections', async () => {
    const server = await scripted([{ status: 200, body: { n: 1 } }]);
    const d = dispatcher();
    const pending = d.request({ origin: server.url, path: '/', method: 'GET', headers: {} });
    const closed = d.close();
    const res = await pending;
    expect(await res.body.text()).toBe('{"n":1}');
    await closed;
  });
});
