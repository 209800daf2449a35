// Unknown fields dropped and named (contract revision 2) whatever their keys hold and however
// many there are: the mock keeps serving, the client reads the names back exactly, and the
// request log names them without handing a terminal their bytes.
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/api/index.js';
import { formatLogEntry } from '../../src/cli/output/serve-mock.js';
import { ContactsClient } from '../../src/client/client.js';
import type { IgnoredFieldsEvent } from '../../src/client/transport.js';
import { createMockHandlers } from '../../src/mock/msw.js';
import { AGENT, api, startTestMock, TEST_KEY } from '../helpers/mock.js';

const ODD_KEYS = ['名前', 'a,b%', 'new\nline', 'esc\u001b]0;PWNED\u0007'];

describe('keys that a header cannot carry as they are', () => {
  it('are named percent-encoded; the server keeps serving and the client decodes them', async () => {
    const errors: unknown[] = [];
    const mock = await startTestMock({ onError: (e) => errors.push(e) });
    const body = Object.fromEntries([['external_id', 'k1'], ...ODD_KEYS.map((k) => [k, 1])]);
    const res = await api(mock.url).post(paths.contacts(AGENT), body);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-contacts-ignored')).toBe(
      '%E5%90%8D%E5%89%8D,a%2Cb%25,new%0Aline,esc%1B]0;PWNED%07',
    );
    expect(res.headers.get('x-contacts-ignored-count')).toBe('4');
    expect(errors).toEqual([]);
    // Still serving.
    expect((await api(mock.url).get(paths.contact(AGENT, 'k1'))).status).toBe(200);

    const seen: IgnoredFieldsEvent[] = [];
    const client = new ContactsClient({
      baseUrl: mock.url,
      apiKey: TEST_KEY,
      agentId: AGENT,
      onIgnoredFields: (e) => seen.push(e),
    });
    await client.contacts.upsert({ ...body, external_id: 'k2' } as never);
    await client.close();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.paths).toEqual(ODD_KEYS);
    expect(seen[0]!.count).toBe(4);
  });

  it('are logged in the same encoded form, with the request id the answer carried', async () => {
    const mock = await startTestMock();
    const res = await api(mock.url).post(paths.contacts(AGENT), { external_id: 'k3', 'x\u001b[2J': 1 });
    const entry = mock.requests.at(-1)!;
    expect(entry.requestId).toBe(res.headers.get('x-request-id'));
    expect(entry.ignored).toEqual(['x\u001b[2J']);
    const line = formatLogEntry(entry);
    expect(line).toMatch(
      new RegExp(
        `^POST ${paths.contacts(AGENT)} 201 \\d+\\.\\dms ${entry.requestId} \\[ignored: x%1B\\[2J\\]$`,
      ),
    );
    expect(line).not.toContain('\u001b');
  });

  it('go through the msw handlers too', async () => {
    const base = 'https://contacts.ignored.test';
    const server = setupServer(...createMockHandlers({ baseUrl: base }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const r = await fetch(`${base}${paths.contacts(AGENT)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ external_id: 'm1', 名前: 'x' }),
      });
      expect(r.status).toBe(201);
      expect(r.headers.get('x-contacts-ignored')).toBe('%E5%90%8D%E5%89%8D');
    } finally {
      server.close();
    }
  });
});

describe('many unknown fields', () => {
  it('cut the list short with a count, so the committed write reaches the client as a success', async () => {
    const mock = await startTestMock();
    const body: Record<string, unknown> = { external_id: 'many' };
    for (let i = 0; i < 5000; i++) body[`field_number_${i}`] = i;
    const seen: IgnoredFieldsEvent[] = [];
    const client = new ContactsClient({
      baseUrl: mock.url,
      apiKey: TEST_KEY,
      agentId: AGENT,
      maxRetries: 0,
      onIgnoredFields: (e) => seen.push(e),
    });
    const { created } = await client.contacts.upsert(body as never);
    await client.close();
    expect(created).toBe(true);
    expect(seen[0]!.count).toBe(5000);
    expect(seen[0]!.paths.length).toBeGreaterThan(10);
    expect(seen[0]!.paths.length).toBeLessThan(5000);
    expect(seen[0]!.paths[0]).toBe('field_number_0');
    expect(mock.requests.at(-1)!.ignored).toHaveLength(5000);
    expect(formatLogEntry(mock.requests.at(-1)!)).toMatch(/ and \d+ more\]$/);
  });
});

describe('the batch form', () => {
  it('drops unknown top-level fields beside users (strict mode refuses them)', async () => {
    const mock = await startTestMock();
    const res = await api(mock.url).post(paths.contacts(AGENT), {
      users: [{ external_id: 'b1', nick: 'x' }],
      source: 'crm',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-contacts-ignored')?.split(',').sort()).toEqual(['source', 'users.0.nick']);
    expect(mock.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['b1']);

    const strict = await startTestMock({ strict: true });
    const refused = await api(strict.url).post(paths.contacts(AGENT), {
      users: [{ external_id: 'b1' }],
      source: 'crm',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([{ field: 'source', message: 'Unknown field' }]);
    expect(strict.store.contacts(AGENT)).toEqual([]);
  });
});
