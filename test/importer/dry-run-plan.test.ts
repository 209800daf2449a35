// The dry run's plan when the directory changes while it is listed: the listing is read again
// from a fresh start, so a contact deleted meanwhile is planned as a create, not from a stale page.
// And the rows the service would refuse for an email another contact holds, where the plan knows
// that contact.
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
    expect(plan.map((p) => [p.external_id, 'action' in p ? p.action : p.refused])).toEqual([
      ['c0', 'create'],
      ['c500', 'unchanged'],
    ]);
  });

  const input = (external_id: string, email?: string | null) =>
    ({ external_id, ...(email === undefined ? {} : { email }) }) as ContactInputParsed;
  const outcomes = (plan: Awaited<ReturnType<DryRunPlanner['plan']>>) =>
    plan.map((p) =>
      'action' in p ? `${p.external_id} ${p.action}` : `${p.external_id} refused: ${p.refused}`,
    );

  async function plannerOver(contacts: { external_id: string; email?: string }[], fileRows: number) {
    const mock = await startTestMock();
    for (let from = 0; from < contacts.length; from += 1000)
      mock.store.batchUpsert('d', { users: contacts.slice(from, from + 1000) });
    const client = new ContactsClient({ baseUrl: mock.url, apiKey: 'bk_plan_test', agentId: 'd' });
    clients.push(client);
    const planner = new DryRunPlanner(client, 'd', 0);
    await planner.start(fileRows);
    return planner;
  }

  it('refuses a row giving its contact an email another contact of the directory holds, as the service would', async () => {
    const planner = await plannerOver(
      [
        { external_id: 'a1', email: 'ann@example.com' },
        { external_id: 'b1', email: 'bob@example.com' },
      ],
      10,
    );
    const plan = await planner.plan([
      // Another contact's email, in other letters: the service compares emails case-insensitively.
      { line: 2, input: input('c1', 'ANN@example.com') },
      // Its own email: no conflict.
      { line: 3, input: input('a1', 'Ann@Example.com') },
      // b1 gives up its email; from then on it is free for another contact.
      { line: 4, input: input('b1', 'bob2@example.com') },
      { line: 5, input: input('d1', 'bob@example.com') },
      // ... and b1's new one is b1's.
      { line: 6, input: input('e1', 'bob2@example.com') },
      // A row naming no email leaves the contact's as it is: no conflict either.
      { line: 7, input: input('a1') },
    ]);
    expect(outcomes(plan)).toEqual([
      'c1 refused: email: Email already exists (held by the contact with external_id a1)',
      'a1 update',
      'b1 update',
      'd1 create',
      'e1 refused: email: Email already exists (held by the contact with external_id b1)',
      'a1 unchanged',
    ]);
  });

  it('frees an email whose holder clears it, and counts a refused row as writing nothing', async () => {
    const planner = await plannerOver([{ external_id: 'a1', email: 'ann@example.com' }], 10);
    const plan = await planner.plan([
      { line: 2, input: input('b1', 'ann@example.com') },
      { line: 3, input: input('a1', null) },
      { line: 4, input: input('b1', 'ann@example.com') },
    ]);
    expect(outcomes(plan)).toEqual([
      'b1 refused: email: Email already exists (held by the contact with external_id a1)',
      'a1 update',
      // b1 was not created by line 2: line 4 creates it.
      'b1 create',
    ]);
  });

  it('knows the holders the file names when the directory is too large to list', async () => {
    // More contacts than a page against a file of 1 row: the contacts it names are fetched, not listed.
    const others = Array.from({ length: 1000 }, (_, i) => ({ external_id: `o${i}` }));
    const planner = await plannerOver(
      [
        { external_id: 'a1', email: 'ann@example.com' },
        { external_id: 'z1', email: 'zoe@example.com' },
        ...others,
      ],
      1,
    );
    const first = await planner.plan([{ line: 2, input: input('a1', 'ann@example.com') }]);
    const then = await planner.plan([
      { line: 3, input: input('c1', 'ann@example.com') },
      // z1 is named by no row: the plan cannot know it holds zoe@ (the real run's 409 will say so).
      { line: 4, input: input('d1', 'zoe@example.com') },
    ]);
    expect(outcomes([...first, ...then])).toEqual([
      'a1 unchanged',
      'c1 refused: email: Email already exists (held by the contact with external_id a1)',
      'd1 create',
    ]);
  });
});
