// `contacts list --all` while the directory changes under it: rows already on stdout cannot be
// taken back, so a walk that did not see one list fails (exit 6) and says so; never a short
// listing with exit 0. Counts said as counted (1 contact); `delete --missing-ok`.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { MockServer, RequestLogEntry } from '../../../src/mock/server.js';
import { envFor, runInProcess, useTempHome } from '../../helpers/cli.js';
import { startTestMock } from '../../helpers/mock.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';

const AGENT = 'lst';
const home = useTempHome();

/** A mock holding `n` contacts; `onList(n, mock)` runs once it has answered its nth page of contacts. */
async function mockWith(n: number, onList: (request: number, mock: MockServer) => void = () => {}) {
  let mock: MockServer | undefined;
  let requests = 0;
  mock = await startTestMock({
    onRequest: (entry: RequestLogEntry) => {
      if (entry.method === 'GET' && entry.path.endsWith('/contacts') && entry.status === 200) {
        onList(++requests, mock!);
      }
    },
  });
  mock.store.batchUpsert(AGENT, { users: Array.from({ length: n }, (_, i) => ({ external_id: `c${i}` })) });
  return mock;
}

const listAll = (url: string) =>
  runInProcess(['list', '--all', '--per-page', '10', '-o', 'ndjson', '--agent', AGENT], {
    env: envFor(home, { url }),
    cwd: home.dir,
  });

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('list --all', () => {
  it('lists every contact once when nothing changes', async () => {
    const r = await listAll((await mockWith(25)).url);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((l) => JSON.parse(l).external_id)).toEqual(
      Array.from({ length: 25 }, (_, i) => `c${i}`),
    );
  });

  it('fails with exit 6 when contacts are deleted between two pages', async () => {
    const mock = await mockWith(25, (request, m) => {
      if (request === 2) for (const id of ['c0', 'c1']) m.store.deleteContact(AGENT, id);
    });
    const r = await listAll(mock.url);
    expect(r.code).toBe(6);
    expect(lines(r.stdout)).toHaveLength(20);
    expect(r.stderr).toContain(
      'error: The list of contacts changed while it was read: page 3 counts 23 contacts, the first page 25; what was written is not the whole list',
    );
    expect(r.stderr).not.toMatch(/^25 contacts\.$/m);
  });

  it('fails with exit 6 when the server sends a page again', async () => {
    const contact = (id: string) => ({
      id,
      external_id: id,
      name: null,
      email: null,
      phonenumber: null,
      custom_attributes: {},
      stripe_accounts: [],
      created_at: 1_704_067_200,
      updated_at: 1_704_067_200,
    });
    const page = (n: number) => ({
      status: 200,
      body: {
        message: 'Success',
        data: Array.from({ length: 10 }, (_, i) => contact(`r${i}`)),
        total: 20,
        pages: { page: n, per_page: 10, total_pages: 2 },
      },
    });
    const server = await startScriptedServer([page(1), page(2)]);
    onTestFinished(() => server.close());
    const r = await listAll(server.url);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      'contact r0 came twice (again on page 2); what was written is not the whole list',
    );
    expect(r.stderr).toContain('hint: Contacts were added or deleted while the list was read');
  });
});

describe('counts', () => {
  it('one contact is one contact, in list --all and export', async () => {
    const mock = await mockWith(1);
    const env = envFor(home, { url: mock.url });
    const listed = await runInProcess(['list', '--all', '-o', 'ndjson', '--agent', AGENT], {
      env,
      cwd: home.dir,
    });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/^1 contact\.$/m);
    const exported = await runInProcess(['export', '-o', 'ndjson', '--agent', AGENT], { env, cwd: home.dir });
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('Exported 1 contact.');
  });
});

describe('delete --missing-ok', () => {
  const del = (url: string, argv: string[]) =>
    runInProcess(['delete', ...argv, '--yes', '-o', 'json'], { env: envFor(home, { url }), cwd: home.dir });

  it('a contact already gone exits 0 and says so; without it, exit 4 with the flag in the hint', async () => {
    const mock = await mockWith(1);
    const missing = await del(mock.url, ['nope', '--agent', AGENT]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('--missing-ok');
    const ok = await del(mock.url, ['nope', '--agent', AGENT, '--missing-ok']);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain(`Contact nope of agent ${AGENT} is already gone.`);
    expect(ok.stdout).toBe('');
  });

  it('deletes a contact that is there as without it', async () => {
    const mock = await mockWith(1);
    const r = await del(mock.url, ['c0', '--agent', AGENT, '--missing-ok']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ external_id: 'c0' });
    expect(mock.store.findContact(AGENT, 'c0')).toBeUndefined();
  });

  it('an unknown agent is still an error', async () => {
    const mock = await startTestMock({ agents: [AGENT] });
    const r = await del(mock.url, ['c0', '--agent', 'typo', '--missing-ok']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Chatbot not found');
    expect(r.stderr).not.toContain('already gone');
  });
});
