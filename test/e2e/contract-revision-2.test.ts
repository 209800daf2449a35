// Contract revision 2 (production's public documentation), row by row, against the mock on port
// 0, through the msw handlers, the typed client and the CLI.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, PATH_TEMPLATES, paths } from '../../src/api/index.js';
import { buildOpenApiDocument } from '../../src/api/openapi.js';
import { ExitCode } from '../../src/cli/errors.js';
import { ContactsClient } from '../../src/client/client.js';
import { BadRequestError, NotFoundError } from '../../src/client/errors.js';
import { createMockHandlers } from '../../src/mock/msw.js';
import { envFor, runInProcess, useTempHome } from '../helpers/cli.js';
import { AGENT, api, startTestMock, TEST_KEY } from '../helpers/mock.js';

const home = useTempHome();

describe('1. stripe_accounts', () => {
  it('is stored, returned ([] when none), replaced as a whole, and cleared by [] or null', async () => {
    const mock = await startTestMock();
    const client = api(mock.url);
    const none = await client.post(paths.contacts(AGENT), { external_id: 's1' });
    expect(none.body.data.stripe_accounts).toEqual([]);
    const two = [
      { label: 'main', stripe_id: 'cus_1' },
      { label: 'billing', stripe_email: 'billing@example.com' },
    ];
    expect(
      (await client.post(paths.contacts(AGENT), { external_id: 's1', stripe_accounts: two })).body.data
        .stripe_accounts,
    ).toEqual(two);
    // Absent keeps; given replaces the whole list.
    expect(
      (await client.post(paths.contacts(AGENT), { external_id: 's1', name: 'x' })).body.data.stripe_accounts,
    ).toEqual(two);
    const one = [{ label: 'new', stripe_id: 'cus_9' }];
    expect(
      (await client.patch(paths.contact(AGENT, 's1'), { stripe_accounts: one })).body.data.stripe_accounts,
    ).toEqual(one);
    expect(
      (await client.patch(paths.contact(AGENT, 's1'), { stripe_accounts: null })).body.data.stripe_accounts,
    ).toEqual([]);
    await client.patch(paths.contact(AGENT, 's1'), { stripe_accounts: one });
    expect(
      (await client.post(paths.contacts(AGENT), { external_id: 's1', stripe_accounts: [] })).body.data
        .stripe_accounts,
    ).toEqual([]);
  });

  it('is validated at stripe_accounts.N.field', async () => {
    const mock = await startTestMock();
    const res = await api(mock.url).post(paths.contacts(AGENT), {
      external_id: 's2',
      stripe_accounts: [
        { label: 'ok', stripe_id: 'cus_1' },
        { label: 'no id' },
        { label: '', stripe_email: 'bad' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid request body');
    const fields = res.body.issues.map((i: { field: string }) => i.field).sort();
    expect(fields).toEqual([
      'stripe_accounts.1',
      'stripe_accounts.2.label',
      'stripe_accounts.2.stripe_email',
    ]);
  });

  it('goes in and out of the CLI: --stripe-account, tables, --unset', async () => {
    const cli = (argv: string[], tty = false) =>
      runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir, tty });
    const r = await cli([
      'upsert',
      '-e',
      'c1',
      '--stripe-account',
      'label=main,id=cus_123',
      '--stripe-account',
      'label=billing,email=billing@example.com',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).stripe_accounts).toEqual([
      { label: 'main', stripe_id: 'cus_123' },
      { label: 'billing', stripe_email: 'billing@example.com' },
    ]);
    const table = await cli(['get', 'c1'], true);
    expect(table.stdout).toMatch(/^stripe_accounts\s+main \(cus_123\), billing \(billing@example\.com\)$/m);
    const bad = await cli(['upsert', '-e', 'c1', '--stripe-account', 'id=cus_1']);
    expect(bad.code).toBe(ExitCode.USAGE);
    expect(bad.stderr).toMatch(/needs a label/);
    // Set and clear at once is a mistake, said before anything is sent.
    const both = await cli([
      'update',
      'c1',
      '--stripe-account',
      'label=x,id=cus_2',
      '--unset',
      'stripe_accounts',
    ]);
    expect(both.code).toBe(ExitCode.USAGE);
    expect(both.stderr).toMatch(/--stripe-account and --unset stripe_accounts both given/);
    await cli(['update', 'c1', '--unset', 'stripe_accounts']);
    expect(JSON.parse((await cli(['get', 'c1', '-o', 'json'])).stdout).stripe_accounts).toEqual([]);
  });

  for (const ext of ['csv', 'json', 'ndjson']) {
    it(`survives export -> import with typed attributes in ${ext}`, async () => {
      const cli = (argv: string[]) => runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir });
      await cli(['attrs', 'define', 'seats', '--type', 'number']);
      await cli(['attrs', 'define', 'vip', '--type', 'boolean']);
      await cli([
        'upsert',
        '-e',
        'r1',
        '--attr',
        'seats=3',
        '--attr',
        'vip=true',
        '--stripe-account',
        'label=main,id=cus_1',
      ]);
      await cli(['upsert', '-e', 'r2', '--attr', 'seats:=12.5']);
      const before = JSON.parse((await cli(['list', '-o', 'json'])).stdout).map(strip);
      expect(before[0]).toMatchObject({ custom_attributes: { seats: 3, vip: true } });
      expect((await cli(['export', '--out', `all.${ext}`])).code).toBe(0);
      await cli(['delete', 'r1', '--yes']);
      await cli(['delete', 'r2', '--yes']);
      const r = await cli(['import', `all.${ext}`]);
      expect(r.code, r.stderr).toBe(0);
      const after = JSON.parse((await cli(['list', '-o', 'json'])).stdout).map(strip);
      expect(sortById(after)).toEqual(sortById(before));
    });
  }
});

const strip = (c: Record<string, unknown>) => ({
  ...c,
  id: undefined,
  created_at: undefined,
  updated_at: undefined,
});
const sortById = (list: Record<string, unknown>[]) =>
  [...list].sort((a, b) => String(a.external_id).localeCompare(String(b.external_id)));

describe('2. unknown fields dropped and reported', () => {
  it('strict mode answers 400 Unknown field at each path, on the server and through msw', async () => {
    const mock = await startTestMock({ strict: true });
    const res = await api(mock.url).post(paths.contacts(AGENT), {
      external_id: 'x',
      company: 'y',
      custom_attributes: { nope: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { field: 'company', message: 'Unknown field' },
      { field: 'custom_attributes.nope', message: 'Unknown field' },
    ]);
    expect(mock.store.contacts(AGENT)).toEqual([]);

    const base = 'https://contacts.msw.test';
    for (const strict of [false, true]) {
      const server = setupServer(...createMockHandlers({ baseUrl: base, strict }));
      server.listen({ onUnhandledRequest: 'error' });
      try {
        const r = await fetch(`${base}${paths.contacts(AGENT)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ users: [{ external_id: 'a', nickname: 'x' }] }),
        });
        if (strict) {
          expect(r.status).toBe(400);
          expect((await r.json()).issues).toEqual([{ field: 'users.0.nickname', message: 'Unknown field' }]);
        } else {
          expect(r.status).toBe(200);
          expect(r.headers.get('x-contacts-ignored')).toBe('users.0.nickname');
        }
      } finally {
        server.close();
      }
    }
  });

  it('the client tells its hook, and the CLI warns naming the dropped paths', async () => {
    const mock = await startTestMock();
    const seen: string[][] = [];
    const client = new ContactsClient({
      baseUrl: mock.url,
      apiKey: TEST_KEY,
      agentId: AGENT,
      onIgnoredFields: (e) => seen.push(e.paths),
    });
    await client.contacts.upsert({ external_id: 'h', company: 'x' } as never);
    expect(seen).toEqual([['company']]);
    await client.close();

    const env = envFor(home, mock, { CONTACTS_AGENT: AGENT });
    const r = await runInProcess(['upsert', '--data', '{"external_id":"w","company":"Acme"}'], {
      env,
      cwd: home.dir,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: the service ignored fields it does not know: company \(request req_\w+\)/,
    );

    // --debug names the request id of each answer and what the service dropped.
    const debug = await runInProcess(
      ['--debug', 'upsert', '--data', '{"external_id":"w1","company":"Acme"}'],
      { env, cwd: home.dir },
    );
    expect(debug.code).toBe(0);
    expect(debug.stderr).toMatch(
      /\[debug\] ← 201 POST \/api\/v1\/chatbots\/agent-1\/contacts in \d+ms \(request req_\w+\)/,
    );
    expect(debug.stderr).toMatch(/\[debug\] {3}the service ignored: company$/m);

    // Too many to name: the warning says how many more there were.
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`extra_field_${i}`, i]));
    const lots = await runInProcess(['upsert', '--data', JSON.stringify({ external_id: 'w2', ...many })], {
      env,
      cwd: home.dir,
    });
    expect(lots.code, lots.stderr).toBe(0);
    expect(lots.stderr).toMatch(
      /ignored fields it does not know: extra_field_0, extra_field_1, .* and \d+ more \(request/,
    );
  });
});

describe('3. number attributes', () => {
  it('upsert and update --attr store the number the service requires', async () => {
    const mock = await startTestMock();
    const env = envFor(home, mock, { CONTACTS_AGENT: AGENT });
    const cli = (argv: string[]) => runInProcess(argv, { env, cwd: home.dir });
    await cli(['attrs', 'define', 'seats', '--type', 'number']);
    expect((await cli(['upsert', '-e', 'n1', '--attr', 'seats=3'])).code).toBe(0);
    expect(mock.store.getContact(AGENT, 'n1').custom_attributes.seats).toBe(3);
    expect((await cli(['update', 'n1', '--attr', 'seats=4.5'])).code).toBe(0);
    expect(mock.store.getContact(AGENT, 'n1').custom_attributes.seats).toBe(4.5);
    const bad = await cli(['update', 'n1', '--attr', 'seats=many']);
    expect(bad.code).toBe(ExitCode.USAGE);
    expect(bad.stderr).toMatch(/--attr seats=many: Expected a number .*seats is a number attribute/);
  });

  it('the importer sends typed values the stricter mock accepts', async () => {
    const mock = await startTestMock();
    await api(mock.url).post(paths.attributes(AGENT), { name: 'seats', type: 'number' });
    await writeFile(join(home.dir, 'n.csv'), 'external_id,seats\nn1,7\nn2, 8.5 \n');
    const env = envFor(home, mock, { CONTACTS_AGENT: AGENT });
    const r = await runInProcess(['import', 'n.csv'], { env, cwd: home.dir });
    expect(r.code, r.stderr).toBe(0);
    const seats = mock.store.contacts(AGENT).map((c) => c.custom_attributes.seats as number);
    expect(seats.sort()).toEqual([7, 8.5]);
  });
});

describe('4. agents and quota', () => {
  it('declared agents: every route of another is 404 Chatbot not found; the CLI says to check the agent', async () => {
    const mock = await startTestMock({ agents: ['known'] });
    const client = api(mock.url);
    for (const path of [paths.contacts('ghost'), paths.contact('ghost', 'x'), paths.attributes('ghost')]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ message: 'Chatbot not found' });
    }
    expect((await client.get(paths.contacts('known'))).status).toBe(200);
    const env = envFor(home, mock);
    const r = await runInProcess(['list', '--agent', 'ghost'], { env, cwd: home.dir });
    expect(r.code).toBe(ExitCode.NOT_FOUND);
    expect(r.stderr).toMatch(/error: Chatbot not found \(HTTP 404, request req_\w+\)/);
    expect(r.stderr).toMatch(/hint: Check the agent id/);
    const typed = await new ContactsClient({ baseUrl: mock.url, apiKey: TEST_KEY, agentId: 'ghost' }).contacts
      .list()
      .catch((e: unknown) => e);
    expect(typed).toBeInstanceOf(NotFoundError);
  });

  it('a write past the quota is 400 Maximum contacts limit reached, and a batch then writes nothing', async () => {
    const mock = await startTestMock({ maxContacts: 2 });
    const client = api(mock.url);
    await client.post(paths.contacts(AGENT), { external_id: 'q1' });
    const batch = await client.post(paths.contacts(AGENT), {
      users: [{ external_id: 'q2' }, { external_id: 'q3' }],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.message).toBe('Maximum contacts limit reached');
    expect(mock.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['q1']);
    expect((await client.post(paths.contacts(AGENT), { external_id: 'q2' })).status).toBe(201);
    // Updating an existing contact is not a new one.
    expect((await client.post(paths.contacts(AGENT), { external_id: 'q1', name: 'x' })).status).toBe(200);
    const over = new ContactsClient({ baseUrl: mock.url, apiKey: TEST_KEY, agentId: AGENT });
    const error = await over.contacts.upsert({ external_id: 'q3' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const env = envFor(home, mock, { CONTACTS_AGENT: AGENT });
    const r = await runInProcess(['upsert', '-e', 'q3'], { env, cwd: home.dir });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/Maximum contacts limit reached/);
    expect(r.stderr).toMatch(/hint: The agent holds as many contacts as its plan allows/);
  });
});

describe('4. the quota through the importer', () => {
  for (const batch of ['1', '10']) {
    it(`rejects the rows past it with the reason, and lands the rest (--batch-size ${batch})`, async () => {
      const mock = await startTestMock({ maxContacts: 3 });
      const rows = Array.from({ length: 6 }, (_, i) => `q${i},N${i}`).join('\n');
      await writeFile(join(home.dir, 'q.csv'), `external_id,name\n${rows}\n`);
      const env = envFor(home, mock, { CONTACTS_AGENT: AGENT });
      const r = await runInProcess(['import', 'q.csv', '--batch-size', batch, '--concurrency', '1'], {
        env,
        cwd: home.dir,
      });
      expect(r.code).toBe(ExitCode.PARTIAL);
      expect(mock.store.contacts(AGENT)).toHaveLength(3);
      // The quota is not mistaken for a service without the batch form.
      expect(r.stderr).not.toMatch(/batch form/);
      const rejects = await readFile(join(home.dir, 'q.rejects.csv'), 'utf8');
      expect(rejects.trim().split('\n').slice(1)).toEqual([
        'q3,N3,5,Maximum contacts limit reached',
        'q4,N4,6,Maximum contacts limit reached',
        'q5,N5,7,Maximum contacts limit reached',
      ]);
    });
  }
});

describe('5. small alignments', () => {
  it('every response carries a unique x-request-id, errors and the adapter own answers too', async () => {
    const mock = await startTestMock();
    const auth = { authorization: `Bearer ${TEST_KEY}` };
    const responses = await Promise.all([
      fetch(`${mock.url}${paths.contacts(AGENT)}`, { headers: auth }),
      fetch(`${mock.url}${paths.contacts(AGENT)}`),
      fetch(`${mock.url}${paths.contact(AGENT, 'x')}`, { method: 'PUT', headers: auth }),
      fetch(`${mock.url}${paths.contact(AGENT, 'x')}`, { headers: auth }),
      fetch(`${mock.url}${paths.contacts(AGENT)}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: 'x'.repeat(1024 * 1024 + 1),
      }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 401, 405, 404, 413]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_\w+$/);
    expect(new Set(ids).size).toBe(ids.length);

    // The rate limiter's 429 too: one request a second is allowed, so a burst meets it (bounded).
    const limited = await startTestMock({ faults: { rateLimit: 1 } });
    let refused: Response | undefined;
    for (let i = 0; i < 50 && !refused; i++) {
      const r = await fetch(`${limited.url}${paths.contacts(AGENT)}`, { headers: auth });
      if (r.status === 429) refused = r;
    }
    expect(refused?.headers.get('x-request-id')).toMatch(/^req_\w+$/);
  });

  it('query errors are "Invalid request parameters"; a batch conflict names users.N.email', async () => {
    const mock = await startTestMock();
    const client = api(mock.url);
    const q = await client.get(`${paths.contacts(AGENT)}?per_page=5`);
    expect(q.body.message).toBe('Invalid request parameters');
    await client.post(paths.contacts(AGENT), { external_id: 'e1', email: 'taken@example.com' });
    const conflict = await client.post(paths.contacts(AGENT), {
      users: [{ external_id: 'e2' }, { external_id: 'e3', email: 'TAKEN@example.com' }],
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.issues).toEqual([{ field: 'users.1.email', message: 'Email already exists' }]);
  });
});

describe('6. the endpoint table, once', () => {
  it('every operation is served, documented and callable; nothing else is', async () => {
    const mock = await startTestMock();
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => method !== 'parameters')
        .map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(documented.sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path} ${op.id}`).sort());

    const client = new ContactsClient({ baseUrl: mock.url, apiKey: TEST_KEY, agentId: AGENT });
    const calls: Record<(typeof OPERATIONS)[number]['id'], () => Promise<unknown>> = {
      defineAttribute: () => client.attributes.define({ name: 'plan', type: 'text' }),
      listAttributes: () => client.attributes.list(),
      updateAttribute: () => client.attributes.update('plan', { label: 'Plan' }),
      upsertContact: () => client.contacts.upsert({ external_id: 'op1' }),
      listContacts: () => client.contacts.list(),
      getContact: () => client.contacts.get('op1'),
      updateContact: () => client.contacts.update('op1', { name: 'x' }),
      deleteContact: () => client.contacts.delete('op1'),
    };
    const before = mock.requests.length;
    for (const op of OPERATIONS) await calls[op.id]();
    const served = mock.requests.slice(before).map((r) => `${r.method} ${r.status}`);
    expect(served.every((s) => /^\w+ 20[01]$/.test(s))).toBe(true);
    expect(served).toHaveLength(OPERATIONS.length);
    await client.close();

    // Any other method on a known path is 405 (with Allow naming the table's methods); any
    // other path 404.
    const raw = api(mock.url);
    const wrong = await raw.request('PUT', paths.contacts(AGENT));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    for (const template of PATH_TEMPLATES) {
      const path = template.template.replace(/\{(\w+)\}/g, (_, p: string) => (p === 'agentId' ? AGENT : 'x'));
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        if (template.methods.includes(method as never)) continue;
        const res = await raw.request(method, path);
        expect(res.status, `${method} ${template.template}`).toBe(405);
        expect(res.headers.get('allow')).toBe(template.methods.join(', '));
      }
    }
    for (const path of [
      '/api/v1/chatbots/a/other',
      '/api/v1/chatbots/a/contacts/x/y',
      '/api/v2/chatbots/a/contacts',
    ]) {
      expect((await raw.get(path)).status, path).toBe(404);
    }
  });
});
