// The dry run's plan when the directory changes while it is listed: the listing is read again
// from a fresh start, so a contact deleted meanwhile is planned as a create, not from a stale page.
import { afterEach, describe, expect, it } from 'vitest';
import type { ContactInputParsed } from '../../src/api/contact.js';
import { ContactsClient } from '../../src/client/client.js';
import { DryRunPlanner } from '../../src/importer/dry-run-plan.js';
import { startTestMock } from '../helpers/mock.js';

const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('DryRunPlanner', () => {
  it('plans from a listing read again when contacts are deleted under it', async () => {
    // 2100 contacts in three pages; c0..c199 deleted once the mock has answered the second page
    // request (the first of the listing's own): the first walk fails, the second sees 1900.
    let lists = 0;
    const mock = await startTestMock({
      onRequest: (entry) => {
        if (entry.method !== 'GET' || !entry.path.endsWith('/contacts') || entry.status !== 200) return;
        if (++lists === 2) for (let i = 0; i < 200; i++) mock.store.deleteContact('d', `c${i}`);
      },
    });
    for (let start = 0; start < 2100; start += 1000) {
      const users = Array.from({ length: Math.min(1000, 2100 - start) }, (_, i) => ({
        external_id: `c${start + i}`,
      }));
      mock.store.batchUpsert('d', { users });
    }
    const client = new ContactsClient({ baseUrl: mock.url, apiKey: 'bk_plan_test', agentId: 'd' });
    clients.push(client);
    const planner = new DryRunPlanner(client, 'd', 0);
    await planner.start(5000);
    // Page 1 of the first walk held c0: a stale listing would plan it as unchanged.
    const rows = [
      { line: 2, input: { external_id: 'c0' } as ContactInputParsed },
      { line: 3, input: { external_id: 'c500' } as ContactInputParsed },
    ];
    const plan = await planner.plan(rows);
    expect(plan.map((p) => [p.external_id, p.action])).toEqual([
      ['c0', 'create'],
      ['c500', 'unchanged'],
    ]);
  });
});
