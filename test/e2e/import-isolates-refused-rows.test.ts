// A batch the service refuses because of a few rows: exactly those rows are rejected, with the
// service's own words, and the rest go again in one request (contract revision 2 names items).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/api/limits.js';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';

const home = useTempHome();

describe('refused rows isolated from the service answer', () => {
  it('20 refused rows in 10,000 cost a few dozen requests, not thousands', async () => {
    const mock = await startTestMock();
    // Twenty emails already held by other contacts: the service answers 409 users.N.email.
    mock.store.batchUpsert('a1', {
      users: Array.from({ length: 20 }, (_, i) => ({
        external_id: `holder${i}`,
        email: `taken${i}@example.com`,
      })),
    });
    let text = 'external_id,email\n';
    for (let i = 0; i < 10_000; i++) {
      const clash = i % 500 === 7 ? `taken${Math.floor(i / 500)}@example.com` : `u${i}@example.com`;
      text += `u${i},${clash}\n`;
    }
    await writeFile(join(home.dir, 'big.csv'), text);
    const env = { ...home.env, CONTACTS_API_KEY: 'bk_test_isolation_1', CONTACTS_BASE_URL: mock.url };
    const before = mock.requests.length;
    const r = await runInProcess(['import', 'big.csv', '--agent', 'a1', '--batch-size', '1000'], {
      env,
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.PARTIAL);
    const used = mock.requests.length - before;
    expect(used).toBeLessThanOrEqual(60);
    expect(mock.store.contacts('a1')).toHaveLength(20 + 10_000 - 20);
    const rejects = (await readFile(join(home.dir, 'big.rejects.csv'), 'utf8')).trim().split('\n');
    expect(rejects).toHaveLength(21);
    expect(rejects[1]).toMatch(/^u7,taken0@example\.com,9,email: Email already exists$/);
  });

  it('batches are sized by bytes too, under the 1 MiB body limit', async () => {
    const mock = await startTestMock();
    await fetch(`${mock.url}/api/v1/chatbots/a1/custom-attributes`, {
      method: 'POST',
      headers: { authorization: 'Bearer bk_test_isolation_2', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'notes', type: 'text' }),
    });
    // 2 KB a row: a thousand of them would be a 2 MB body, twice what one request may carry.
    const big = 'x'.repeat(2000);
    let text = 'external_id,notes\n';
    for (let i = 0; i < 3000; i++) text += `b${i},${big}\n`;
    await writeFile(join(home.dir, 'wide.csv'), text);
    const env = { ...home.env, CONTACTS_API_KEY: 'bk_test_isolation_2', CONTACTS_BASE_URL: mock.url };
    const r = await runInProcess(['import', 'wide.csv', '--agent', 'a1', '--batch-size', '1000'], {
      env,
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const posts = mock.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/contacts'));
    expect(posts.every((q) => q.status === 200)).toBe(true);
    // Several rows a request still (about 450 of these rows fit under the limit), and never one
    // body over it: the 6 MB of rows take at least six requests. From a file, batches are cut by
    // what the rows hold, not by how fast they were read, so a busy machine changes neither.
    expect(posts.length).toBeLessThanOrEqual(12);
    expect(posts.length).toBeGreaterThanOrEqual(Math.ceil((3000 * big.length) / MAX_BODY_BYTES));
    expect(mock.store.contacts('a1')).toHaveLength(3000);
  });
});
