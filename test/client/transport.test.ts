import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ContactsClient,
  ContactsError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
  VERSION,
} from '../../src/index.js';
import {
  type ScriptedServer,
  type Step,
  startScriptedServer,
  startSilentServer,
} from '../helpers/scripted-server.js';

const KEY = 'bk_test_secret_key_1234';
const contact = {
  id: 'ct_1',
  external_id: 'u1',
  name: 'Ada',
  email: null,
  phonenumber: null,
  custom_attributes: {},
  created_at: 1,
  updated_at: 1,
};

let server: ScriptedServer | undefined;
const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

async function setup(steps: Step[], options: ConstructorParameters<typeof ContactsClient>[0] = {}) {
  server = await startScriptedServer(steps);
  const client = new ContactsClient({
    baseUrl: server.url,
    apiKey: KEY,
    agentId: 'agent-1',
    retry: { initialDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 20 },
    ...options,
  });
  clients.push(client);
  return { client, server };
}

describe('client transport', () => {
  it('sends the key as a bearer token, JSON headers and a User-Agent naming the package', async () => {
    const { client, server } = await setup([{ status: 200, body: { message: 'Success', data: contact } }]);
    await client.contacts.get('u1');
    const req = server.requests[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(new RegExp(`^contacts-cli/${VERSION.replace(/\./g, '\\.')} `));
    expect(req.url).toBe('/api/v1/chatbots/agent-1/contacts/u1');
  });

  it('escapes path segments', async () => {
    const { client, server } = await setup([{ status: 200, body: { message: 'Success', data: contact } }]);
    await client.contacts.get('a/b c', { agentId: 'x?y' });
    expect(server.requests[0]!.url).toBe('/api/v1/chatbots/x%3Fy/contacts/a%2Fb%20c');
  });

  it('keeps the path of a base URL and sends the list query', async () => {
    const listBody = {
      message: 'Success',
      data: [],
      total: 0,
      pages: { page: 2, per_page: 10, total_pages: 0 },
    };
    server = await startScriptedServer([{ status: 200, body: listBody }]);
    const client = new ContactsClient({ baseUrl: `${server.url}/gateway/`, apiKey: KEY, agentId: 'a' });
    clients.push(client);
    await client.contacts.list({ page: 2, perPage: 10 });
    expect(server.requests[0]!.url).toBe('/gateway/api/v1/chatbots/a/contacts?page=2&per_page=10');
  });

  it('retries 503 and a connection reset, then succeeds', async () => {
    const retries: number[] = [];
    const { client, server } = await setup(
      [
        { status: 503, body: { message: 'busy' } },
        { reset: true },
        { status: 200, body: { message: 'Success', data: contact } },
      ],
      { onRetry: (e) => retries.push(e.attempt) },
    );
    const got = await client.contacts.get('u1');
    expect(got.external_id).toBe('u1');
    expect(server.requests).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
  });

  it('gives up after maxRetries with the typed error of the last failure', async () => {
    const { client, server } = await setup([{ status: 500, body: { message: 'boom' } }], { maxRetries: 3 });
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(500);
    expect(err.message).toBe('500 boom');
    expect(server.requests).toHaveLength(4);
  });

  it('honours Retry-After on 429 (capped by maxRetryAfterMs)', async () => {
    const delays: number[] = [];
    const { client } = await setup(
      [
        { status: 429, body: { message: 'Rate limit exceeded' }, headers: { 'retry-after': '30' } },
        { status: 200, body: { message: 'Success', data: contact } },
      ],
      { onRetry: (e) => delays.push(e.delayMs) },
    );
    await client.contacts.get('u1');
    expect(delays).toEqual([20]);
  });

  it('surfaces a 429 that outlasts the retries as a RateLimitError with retryAfterSeconds', async () => {
    const { client } = await setup(
      [{ status: 429, body: { message: 'Rate limit exceeded' }, headers: { 'retry-after': '1' } }],
      { maxRetries: 0 },
    );
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterSeconds).toBe(1);
  });

  it('does not retry a 400, and keeps its issues', async () => {
    const issues = [{ field: 'email', message: 'Invalid email' }];
    const { client, server } = await setup([{ status: 400, body: { message: 'Validation failed', issues } }]);
    const err = await client.contacts.upsert({ external_id: 'u1', email: 'x' }).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.issues).toEqual(issues);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a request that gets no answer, and retries it', async () => {
    // Long enough that a loaded machine still connects within it, so the answer is what is missed.
    const { client, server } = await setup([{ hang: true }], { timeoutMs: 1000, maxRetries: 1 });
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.message).toMatch(
      /^Request timed out after 1000ms: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/chatbots\/agent-1\/contacts\/u1 \(no answer had come\)$/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('times out an answer that trickles in for ever: the timeout bounds the whole attempt, not silence', async () => {
    // A byte of body far more often than the timeout: an idle timer alone would never fire.
    const { client, server } = await setup([{ trickle: 5 }], { timeoutMs: 100, maxRetries: 0 });
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err.message).toMatch(/^Request timed out after 100ms: GET \S+\/contacts\/u1 \(/);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a timeout no timer can keep, for the client and for a call, sending nothing', async () => {
    const { client, server } = await setup([{ status: 200, body: { message: 'Success', data: contact } }]);
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(
        () => new ContactsClient({ baseUrl: server.url, apiKey: KEY, timeoutMs }),
        String(timeoutMs),
      ).toThrow(/^timeoutMs must be a number of milliseconds from 1 to 2147483647, got /);
      await expect(client.contacts.get('u1', { timeoutMs }), String(timeoutMs)).rejects.toBeInstanceOf(
        ContactsError,
      );
    }
    expect(server.requests).toEqual([]);
  });

  it('gives the deadline to every request: a page of a listing, and a batch upsert', async () => {
    const { client } = await setup([{ trickle: 5 }], { timeoutMs: 100, maxRetries: 0 });
    const listing = (async () => {
      for await (const _ of client.contacts.listAll()) {
        // Never reached: the first page never ends.
      }
    })();
    await expect(listing).rejects.toBeInstanceOf(APITimeoutError);
    await expect(client.contacts.upsertMany([{ external_id: 'a' }])).rejects.toBeInstanceOf(APITimeoutError);
    // A per-call timeoutMs is the deadline of that call's attempts.
    await expect(client.contacts.get('u1', { timeoutMs: 30 })).rejects.toThrow(/timed out after 30ms/);
  });

  describe('a connection that is never completed (a TLS handshake nobody answers)', () => {
    async function silentClient(timeoutMs: number) {
      const silent = await startSilentServer();
      const client = new ContactsClient({
        baseUrl: `https://127.0.0.1:${silent.port}`,
        apiKey: KEY,
        agentId: 'agent-1',
        timeoutMs,
        maxRetries: 0,
      });
      clients.push(client);
      return { client, silent };
    }

    it('ends at the deadline, and says no connection was made', async () => {
      const { client, silent } = await silentClient(50);
      const err = await client.contacts.get('u1').catch((e) => e);
      await silent.close();
      expect(err).toBeInstanceOf(APITimeoutError);
      expect(err.message).toMatch(
        /^Request timed out after 50ms: GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/chatbots\/agent-1\/contacts\/u1 \(no connection yet\)$/,
      );
      expect(silent.connections()).toBe(1);
    });

    it("ends at a call's shorter deadline, and closing does not wait for the connection", async () => {
      const { client, silent } = await silentClient(600_000);
      await expect(client.contacts.get('u1', { timeoutMs: 50 })).rejects.toThrow(
        /^Request timed out after 50ms: .* \(no connection yet\)$/,
      );
      await client.close();
      await silent.close();
    });

    it("a call's longer deadline still connects within the client's", async () => {
      const { client, silent } = await silentClient(50);
      const err = await client.contacts.get('u1', { timeoutMs: 600_000 }).catch((e) => e);
      await silent.close();
      expect(err).toBeInstanceOf(APITimeoutError);
      expect(err.message).toMatch(
        /^Connecting timed out after 50ms: GET https:\/\/127\.0\.0\.1:\d+\/\S+ \(no connection yet; /,
      );
    });

    it('ends at once when the caller aborts', async () => {
      const { client, silent } = await silentClient(600_000);
      const ctl = new AbortController();
      const pending = client.contacts.get('u1', { signal: ctl.signal });
      ctl.abort();
      await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
      await client.close();
      await silent.close();
    });
  });

  it('stops at once when the caller aborts', async () => {
    const { client } = await setup([{ hang: true }]);
    const ctl = new AbortController();
    const pending = client.contacts.get('u1', { signal: ctl.signal });
    ctl.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('reports a connection that keeps failing as APIConnectionError with its cause', async () => {
    // A server that resets every connection: unlike a closed port, no other test can take it over.
    const { client, server } = await setup([{ reset: true }], { maxRetries: 1 });
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(server.requests).toHaveLength(2);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:\d+/);
    expect(err.cause).toBeDefined();
  });

  it('rejects a response that breaks the contract, naming the field', async () => {
    const { client } = await setup([
      { status: 200, body: { message: 'Success', data: { ...contact, id: 42 } } },
    ]);
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.message).toMatch(/id/);
  });

  it('rejects a 2xx body that is not JSON', async () => {
    const { client } = await setup([{ status: 200, body: '<html>' }]);
    await expect(client.contacts.get('u1')).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('accepts unknown extra fields and a bare payload without the envelope', async () => {
    const { client } = await setup([
      { status: 200, body: { message: 'Success', data: { ...contact, tags: ['x'] }, request_id: 'r1' } },
      { status: 200, body: contact },
    ]);
    expect((await client.contacts.get('u1')).tags).toEqual(['x']);
    expect((await client.contacts.get('u1')).id).toBe('ct_1');
  });

  it('accepts 204 on delete', async () => {
    const { client } = await setup([{ status: 204 }]);
    expect(await client.contacts.delete('u1')).toBeNull();
  });

  it('never shows the key in errors or debug output', async () => {
    const lines: string[] = [];
    const { client } = await setup([{ status: 401, body: { message: `Unauthorized access for ${KEY}` } }], {
      debug: (l) => lines.push(l),
    });
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    const everything = [
      err.message,
      err.stack,
      JSON.stringify(err),
      ...lines,
      String(client),
      JSON.stringify(client),
    ].join('\n');
    expect(lines.some((l) => l.includes('Bearer [REDACTED]'))).toBe(true);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('secret_key');
  });

  it('refuses to start without a bk_ key, a base URL or an agent', async () => {
    expect(() => new ContactsClient({ baseUrl: 'http://x', apiKey: 'sk_nope' })).toThrow(/bk_/);
    expect(() => new ContactsClient({ baseUrl: 'ftp://x', apiKey: KEY })).toThrow(/http/);
    const c = new ContactsClient({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY });
    clients.push(c);
    await expect(c.contacts.get('u1')).rejects.toBeInstanceOf(ContactsError);
  });
});
