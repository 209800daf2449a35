// Reading the directory in as few requests as it takes: listed whole in pages of a thousand when
// that is fewer requests than asking for each id, else asked id by id.
import { afterEach, describe, expect, it } from 'vitest';
import { DirectoryReader } from '../../src/bulk/directory.js';
import { ContactsClient } from '../../src/client/client.js';
import { InconsistentListError } from '../../src/client/errors.js';
import { walkUntilConsistent } from '../../src/client/walk.js';
import { startTestMock } from '../helpers/mock.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A mock holding `n` contacts; `onList` runs after each page of contacts it answers, before the client has it. */
async function directoryOf(n: number, onList: () => void = () => {}) {
  const mock = await startTestMock({
    onRequest: (entry) => {
      if (entry.method === 'GET' && entry.path.endsWith('/contacts') && entry.status === 200) onList();
    },
  });
  for (let start = 0; start < n; start += 1000) {
    const users = Array.from({ length: Math.min(1000, n - start) }, (_, i) => ({
      external_id: `c${start + i}`,
    }));
    mock.store.batchUpsert('d', { users });
  }
  const client = new ContactsClient({ baseUrl: mock.url, apiKey: 'bk_dir_test', agentId: 'd' });
  clients.push(client);
  return { mock, reader: await DirectoryReader.open({ client, agentId: 'd', maxRetries: 0 }) };
}

describe('DirectoryReader', () => {
  it('lists whole when that takes no more requests than the ids would', async () => {
    const { reader } = await directoryOf(2500);
    expect(reader.total).toBe(2500);
    expect(reader.pages).toBe(3);
    expect(reader.listingIsCheaper(3)).toBe(true);
    expect(reader.listingIsCheaper(2)).toBe(false);
    expect(reader.listingIsCheaper(undefined)).toBe(false);
    const seen: string[] = [];
    await reader.list((page) => seen.push(...page.map((c) => c.external_id)));
    expect(seen).toHaveLength(2500);
    expect(new Set(seen).size).toBe(2500);
  });

  it('asks for ids, and a contact found by its service id under another external_id is not that id', async () => {
    const { mock, reader } = await directoryOf(5);
    const ownId = mock.store.getContact('d', 'c1').id;
    const found = await reader.fetch(['c0', 'missing', ownId]);
    expect(found.get('c0')?.external_id).toBe('c0');
    expect(found.get('missing')).toBeNull();
    expect(found.get(ownId)).toBeNull();
  });

  it('throws InconsistentListError when contacts are deleted under the listing, never ends short', async () => {
    // Requests 1 (open) and 2 (the first of the two pages read together): deleted after 2.
    let lists = 0;
    const { mock, reader } = await directoryOf(2100, () => {
      if (++lists === 2) for (let i = 0; i < 200; i++) mock.store.deleteContact('d', `c${i}`);
    });
    const error = await reader.list(() => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InconsistentListError);
    // Page 3 is past the end of 1900 contacts; page 2 (if it came second) counts 1900.
    expect(['page_gone', 'total_changed']).toContain((error as InconsistentListError).code);
  });

  it('lists again from a fresh first page; walkUntilConsistent gets the directory whole', async () => {
    let lists = 0;
    const { mock, reader } = await directoryOf(2100, () => {
      if (++lists === 2) for (let i = 0; i < 200; i++) mock.store.deleteContact('d', `c${i}`);
    });
    const seen = new Set<string>();
    let walks = 0;
    await walkUntilConsistent(() => {
      walks++;
      seen.clear();
      return reader.list((page) => {
        for (const c of page) seen.add(c.external_id);
      });
    });
    expect(walks).toBe(2);
    expect(seen.size).toBe(1900);
    expect(seen.has('c199')).toBe(false);
    expect(seen.has('c200')).toBe(true);
    expect(seen.has('c2099')).toBe(true);
  });

  it('throws repeated_id when the service sends a page again', async () => {
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
    const body = (page: number) => ({
      message: 'Success',
      data: Array.from({ length: 1000 }, (_, i) => contact(`c${i}`)),
      total: 2000,
      pages: { page, per_page: 1000, total_pages: 2 },
    });
    const server = await startScriptedServer([
      { status: 200, body: body(1) },
      { status: 200, body: body(2) },
    ]);
    try {
      const client = new ContactsClient({ baseUrl: server.url, apiKey: 'bk_dir_test', agentId: 'd' });
      clients.push(client);
      const reader = await DirectoryReader.open({ client, agentId: 'd', maxRetries: 0 });
      await expect(reader.list(() => {})).rejects.toMatchObject({ code: 'repeated_id', page: 2, id: 'c0' });
    } finally {
      await server.close();
    }
  });

  it('finds an external_id no path can carry (`.`, `..`) in a fresh listing, asking for the rest', async () => {
    const { mock, reader } = await directoryOf(1500);
    // Made after the reader opened: the listing is read again, not the first page it kept.
    mock.store.upsertContact('d', { external_id: '..' });
    mock.store.deleteContact('d', 'c0');
    const log = mock.requests.length;
    const found = await reader.fetch(['..', '.', 'c5']);
    expect(found.get('..')?.external_id).toBe('..');
    expect(found.get('.')).toBeNull();
    expect(found.get('c5')?.external_id).toBe('c5');
    const sent = mock.requests.slice(log).map((e) => e.path);
    expect(sent.filter((p) => p === '/api/v1/chatbots/d/contacts')).toHaveLength(2);
    expect(sent).toContain('/api/v1/chatbots/d/contacts/c5');
    expect(sent.some((p) => p.endsWith('/.') || p.endsWith('/..'))).toBe(false);
  });
});
