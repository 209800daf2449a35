// Issue "nothing lost, nothing injected", mock state: an agent id from outside (`__proto__`
// too) keeps its writes across a restart, a refused request allocates nothing, and a body that
// is not UTF-8 is refused rather than stored with U+FFFD.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { api, startTestMock, tempDir } from '../helpers/mock.js';

const home = useTempHome();

describe('agent ids from outside', () => {
  it('__proto__ is an agent like any other, across a restart of serve --data', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'state.json');
    const first = await startTestMock({ dataFile });
    const created = await api(first.url).post('/api/v1/chatbots/__proto__/contacts', { external_id: 'p1' });
    expect(created.status).toBe(201);
    await first.close();
    const second = await startTestMock({ dataFile });
    const list = await api(second.url).get('/api/v1/chatbots/__proto__/contacts');
    expect(list.body.data.map((c: { external_id: string }) => c.external_id)).toEqual(['p1']);
  });

  it('__proto__ keeps its contacts through the embedded --mock too', async () => {
    const cli = (argv: string[]) => runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir });
    expect((await cli(['upsert', '-e', 'p1', '--agent', '__proto__'])).code).toBe(0);
    const list = await cli(['list', '--agent', '__proto__', '-o', 'json']);
    expect(JSON.parse(list.stdout).map((c: { external_id: string }) => c.external_id)).toEqual(['p1']);
  });
});

describe('refused requests', () => {
  it('allocate no state for the agent they name', async () => {
    const mock = await startTestMock();
    const client = api(mock.url);
    for (let i = 0; i < 300; i++) {
      const r = await client.post(`/api/v1/chatbots/fresh-${i}/contacts`, { name: 'no external_id' });
      expect(r.status).toBe(400);
    }
    await client.post('/api/v1/chatbots/fresh-batch/contacts', {
      users: [{ external_id: 'a', email: 'bad' }],
    });
    expect(mock.store.agentIds()).toEqual([]);
    expect((await client.post('/api/v1/chatbots/real/contacts', { external_id: 'a' })).status).toBe(201);
    expect(mock.store.agentIds()).toEqual(['real']);
  });
});

describe('bodies that are not UTF-8', () => {
  it('are answered 400 and nothing is stored', async () => {
    const mock = await startTestMock();
    const latin1 = Buffer.from('{"external_id":"u1","name":"Jos\xe9"}', 'latin1');
    const res = await fetch(`${mock.url}/api/v1/chatbots/a/contacts`, {
      method: 'POST',
      headers: { authorization: 'Bearer bk_test_key_0123456789', 'content-type': 'application/json' },
      body: latin1,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Request body is not valid UTF-8');
    expect(mock.store.contacts('a')).toEqual([]);
  });
});
