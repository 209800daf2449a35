// Reading the directory in as few requests as it takes: listed whole in pages of a thousand when
// that is fewer requests than asking for each id, else asked id by id.
import { afterEach, describe, expect, it } from 'vitest';
import { DirectoryReader } from '../../src/bulk/directory.js';
import { ContactsClient } from '../../src/client/client.js';
import { startTestMock } from '../helpers/mock.js';

const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function directoryOf(n: number) {
  const mock = await startTestMock();
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

  it('ends the listing when pages disappear under it (contacts deleted meanwhile)', async () => {
    const { mock, reader } = await directoryOf(2100);
    for (let i = 0; i < 200; i++) mock.store.deleteContact('d', `c${i}`);
    let pages = 0;
    await reader.list(() => pages++);
    expect(pages).toBe(2);
  });
});
