// `contacts export` while the directory changes under it, against the real mock on port 0
// (contacts deleted between two page requests) and a server that repeats a page: a file is
// written only from a walk that saw one list, read again up to three times; stdout cannot take
// rows back, so it fails. Never a short export with exit 0.
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { MockServer, RequestLogEntry } from '../../../src/mock/server.js';
import { envFor, runInProcess, useTempHome } from '../../helpers/cli.js';
import { startTestMock } from '../../helpers/mock.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';

const AGENT = 'exp';
const home = useTempHome();

/**
 * A mock holding `n` contacts (c0, c1, …); `onList(n, mock)` runs once it has answered its nth
 * request for a page of contacts (1 first), before the CLI has the answer.
 */
async function mockWith(n: number, onList: (request: number, mock: MockServer) => void) {
  let mock: MockServer | undefined;
  let requests = 0;
  const failures: unknown[] = [];
  mock = await startTestMock({
    onRequest: (entry: RequestLogEntry) => {
      if (entry.method === 'GET' && entry.path.endsWith('/contacts') && entry.status === 200) {
        onList(++requests, mock!);
      }
    },
    onError: (error) => failures.push(error),
  });
  onTestFinished(() => expect(failures).toEqual([]));
  for (let start = 0; start < n; start += 1000) {
    const users = Array.from({ length: Math.min(1000, n - start) }, (_, i) => ({
      external_id: `c${start + i}`,
    }));
    mock.store.batchUpsert(AGENT, { users });
  }
  return mock;
}

const exportTo = (url: string, args: string[]) =>
  runInProcess(['export', '--agent', AGENT, ...args], {
    env: envFor(home, { url }),
    cwd: home.dir,
  });

const ids = (ndjson: string) =>
  ndjson
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { external_id: string }).external_id);

describe('export --out while contacts are deleted', () => {
  it('reads again from the first page, and the file holds every contact there is', async () => {
    // 2500 contacts in pages of 1000; 300 deleted after the first walk's first page.
    const mock = await mockWith(2500, (request, m) => {
      if (request === 1) for (let i = 0; i < 300; i++) m.store.deleteContact(AGENT, `c${i}`);
    });
    const r = await exportTo(mock.url, ['--out', 'all.ndjson']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'warning: The list of contacts changed while it was read: page 2 counts 2200 contacts, the first page 2500; reading them again from the first page (2 of 3)',
    );
    expect(r.stderr).toContain('Exported 2200 contacts to all.ndjson.');
    const written = ids(await readFile(join(home.dir, 'all.ndjson'), 'utf8'));
    expect(written).toEqual(Array.from({ length: 2200 }, (_, i) => `c${i + 300}`));
    // The abandoned walk's temporary file is gone.
    expect(await readdir(home.dir)).not.toContainEqual(expect.stringMatching(/\.partial$/));
  });

  it('gives up after three walks with exit 6, leaving the file as it was', async () => {
    // Every walk's first page is followed by a deletion: requests 1, 3 and 5.
    let next = 0;
    const mock = await mockWith(2500, (request, m) => {
      if (request % 2 === 1) m.store.deleteContact(AGENT, `c${next++}`);
    });
    const out = join(home.dir, 'all.csv');
    await writeFile(out, 'the export before\n');
    const r = await exportTo(mock.url, ['--out', 'all.csv']);
    expect(r.code).toBe(6);
    expect(next).toBe(3);
    expect(r.stderr).toContain(
      'error: The list of contacts changed while it was read: page 2 counts 2497 contacts, the first page 2498 (read 3 times); all.csv was not written',
    );
    expect(r.stderr).toContain('hint: Contacts were added or deleted while the list was read');
    expect(r.stderr).not.toContain('Exported');
    expect(await readFile(out, 'utf8')).toBe('the export before\n');
    expect((await readdir(home.dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('a server that repeats a page gets exit 6 and no file', async () => {
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
        // Page 2 holds page 1's contacts again.
        data: Array.from({ length: 1000 }, (_, i) => contact(`r${i}`)),
        total: 2000,
        pages: { page: n, per_page: 1000, total_pages: 2 },
      },
    });
    const server = await startScriptedServer([
      { status: 200, body: { message: 'Success', data: [] } },
      page(1),
      page(2),
      page(1),
      page(2),
      page(1),
      page(2),
    ]);
    onTestFinished(() => server.close());
    const r = await exportTo(server.url, ['--out', 'all.json']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      'contact r0 came twice (again on page 2) (read 3 times); all.json was not written',
    );
    expect(existsSync(join(home.dir, 'all.json'))).toBe(false);
    // The definitions, then three walks of two pages.
    expect(server.requests).toHaveLength(7);
  });
});

describe('export to stdout while contacts are deleted', () => {
  it('fails with exit 6: the rows written are not the whole list, and it says so', async () => {
    const mock = await mockWith(2500, (request, m) => {
      if (request === 1) m.store.deleteContact(AGENT, 'c5');
    });
    const r = await exportTo(mock.url, ['-o', 'ndjson']);
    expect(r.code).toBe(6);
    // The first page went out before the second showed the change.
    expect(ids(r.stdout)).toHaveLength(1000);
    expect(r.stderr).toContain(
      'error: The list of contacts changed while it was read: page 2 counts 2499 contacts, the first page 2500; what was written is not the whole list',
    );
    expect(r.stderr).toContain('`contacts export --out FILE`, which reads again until the list holds still');
    expect(r.stderr).not.toContain('Exported');
  });
});
