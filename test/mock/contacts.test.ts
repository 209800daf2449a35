// The contact rows of the contract, over real HTTP against the mock on port 0.
import { describe, expect, it } from 'vitest';
import { ContactListResponseSchema, ContactSchema, paths } from '../../src/api/index.js';
import { AGENT, api, startTestMock } from '../helpers/mock.js';

async function setup() {
  const server = await startTestMock();
  const client = api(server.url);
  const define = async (name: string, type: string) => {
    const res = await client.post(paths.attributes(AGENT), { name, type });
    expect(res.status).toBe(200);
  };
  return { server, client, define };
}

describe('upsert POST .../contacts', () => {
  it('creates with 201 and the full record, then updates the same contact with 200', async () => {
    const { client, server } = await setup();
    const created = await client.post(paths.contacts(AGENT), { external_id: 'u1', name: 'Ada' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Success');
    const contact = ContactSchema.parse(created.body.data);
    expect(contact).toMatchObject({ external_id: 'u1', name: 'Ada', email: null, phonenumber: null });
    expect(contact.id).toMatch(/^ct_/);
    expect(contact.custom_attributes).toEqual({});
    expect(Number.isInteger(contact.created_at)).toBe(true);
    expect(Math.abs(contact.created_at - Date.now() / 1000)).toBeLessThan(60);

    const updated = await client.post(paths.contacts(AGENT), { external_id: 'u1', email: 'ada@example.com' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: contact.id, name: 'Ada', email: 'ada@example.com' });
    expect(server.store.contacts(AGENT)).toHaveLength(1);
  });

  it('merges custom attributes key by key and clears with null', async () => {
    const { client, define } = await setup();
    await define('plan', 'text');
    await define('seats', 'number');
    await client.post(paths.contacts(AGENT), {
      external_id: 'u1',
      custom_attributes: { plan: 'pro', seats: 3 },
    });
    const res = await client.post(paths.contacts(AGENT), {
      external_id: 'u1',
      name: 'Bo',
      custom_attributes: { seats: 5 },
    });
    expect(res.body.data.custom_attributes).toEqual({ plan: 'pro', seats: 5 });
    const cleared = await client.post(paths.contacts(AGENT), {
      external_id: 'u1',
      name: null,
      custom_attributes: { plan: null },
    });
    expect(cleared.body.data.name).toBeNull();
    expect(cleared.body.data.custom_attributes).toEqual({ seats: 5 });
  });

  it('trims external_id, so " u1 " is the same contact as "u1"', async () => {
    const { client, server } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'u1' });
    const res = await client.post(paths.contacts(AGENT), { external_id: '  u1 ' });
    expect(res.status).toBe(200);
    expect(server.store.contacts(AGENT)).toHaveLength(1);
  });

  it('rejects invalid fields with 400 and dotted issue paths', async () => {
    const { client, define } = await setup();
    await define('seats', 'number');
    const res = await client.post(paths.contacts(AGENT), {
      external_id: '',
      email: 'not-an-email',
      phonenumber: '0044 20',
      nickname: 'x',
      custom_attributes: { seats: 'many', unknown_attr: 1 },
    });
    expect(res.status).toBe(400);
    const fields = res.body.issues.map((i: { field: string }) => i.field).sort();
    // Unknown fields are not errors (production drops them): only the invalid ones are named.
    expect(fields).toEqual(['custom_attributes.seats', 'email', 'external_id', 'phonenumber']);
    expect(res.body.message).toBe('Invalid request body');
  });

  it('drops unknown fields and attribute keys, stores the rest, and names what it dropped', async () => {
    const { client, define, server } = await setup();
    await define('plan', 'text');
    const res = await client.post(paths.contacts(AGENT), {
      external_id: 'd1',
      name: 'Ada',
      company: 'Analytical Engines',
      custom_attributes: { plan: 'pro', plna: 'typo' },
      stripe_accounts: [{ label: 'main', stripe_id: 'cus_1', note: 'x' }],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-contacts-ignored')).toBe(
      'company,custom_attributes.plna,stripe_accounts.0.note',
    );
    expect(res.body.data).toMatchObject({
      name: 'Ada',
      custom_attributes: { plan: 'pro' },
      stripe_accounts: [{ label: 'main', stripe_id: 'cus_1' }],
    });
    expect(res.body.data).not.toHaveProperty('company');
    expect(server.requests.at(-1)?.ignored).toEqual([
      'company',
      'custom_attributes.plna',
      'stripe_accounts.0.note',
    ]);
  });

  it('holds the length bounds: external_id 255, name 255, email 254, phone 7 to 15 digits', async () => {
    const { client } = await setup();
    const email = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    const fits = {
      external_id: 'e'.repeat(255),
      name: 'n'.repeat(255),
      email: email(254),
      phonenumber: `+${'1'.repeat(15)}`,
    };
    expect((await client.post(paths.contacts(AGENT), fits)).status).toBe(201);
    const over: [string, unknown][] = [
      ['external_id', 'e'.repeat(256)],
      ['name', 'n'.repeat(256)],
      ['email', email(255)],
      ['phonenumber', `+${'1'.repeat(16)}`],
      ['phonenumber', '+123456'],
    ];
    for (const [field, value] of over) {
      const res = await client.post(paths.contacts(AGENT), { external_id: 'x', [field]: value });
      expect(res.status, field).toBe(400);
      expect(
        res.body.issues.map((i: { field: string }) => i.field),
        field,
      ).toEqual([field]);
    }
  });

  it('requires external_id', async () => {
    const { client } = await setup();
    const res = await client.post(paths.contacts(AGENT), { name: 'No key' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ field: 'external_id', message: 'Required' });
  });

  it('accepts phone numbers with +, country code and grouping; rejects too few digits', async () => {
    const { client } = await setup();
    const ok = await client.post(paths.contacts(AGENT), {
      external_id: 'p',
      phonenumber: '+1 (555) 010-9999',
    });
    expect(ok.status).toBe(201);
    const short = await client.post(paths.contacts(AGENT), { external_id: 'q', phonenumber: '+1 23' });
    expect(short.status).toBe(400);
    expect(short.body.issues[0].field).toBe('phonenumber');
  });

  it('keeps email unique per agent, case-insensitively: 409', async () => {
    const { client } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'a', email: 'Same@Example.com' });
    const res = await client.post(paths.contacts(AGENT), { external_id: 'b', email: 'same@example.COM' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Email already exists' });
    // The owner may write its own address again in another case.
    const own = await client.post(paths.contacts(AGENT), { external_id: 'a', email: 'SAME@example.com' });
    expect(own.status).toBe(200);
  });

  it('frees an email when its owner changes address', async () => {
    const { client } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'a', email: 'x@example.com' });
    await client.post(paths.contacts(AGENT), { external_id: 'a', email: 'y@example.com' });
    const res = await client.post(paths.contacts(AGENT), { external_id: 'b', email: 'x@example.com' });
    expect(res.status).toBe(201);
  });

  it('does not bump updated_at for a write that changes nothing', async () => {
    const { server } = await setup();
    const first = server.store.upsertContact(AGENT, { external_id: 'a', name: 'A' });
    const again = server.store.upsertContact(AGENT, { external_id: 'a', name: 'A' });
    expect(again.created).toBe(false);
    expect(again.contact).toEqual(first.contact);
  });
});

describe('batch upsert POST .../contacts {users}', () => {
  it('answers 200 with the contacts in request order, creating and updating', async () => {
    const { client, server } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'b', name: 'Old' });
    const res = await client.post(paths.contacts(AGENT), {
      users: [{ external_id: 'c' }, { external_id: 'b', name: 'New' }, { external_id: 'a' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { external_id: string }) => c.external_id)).toEqual(['c', 'b', 'a']);
    expect(res.body.data[1].name).toBe('New');
    expect(server.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['b', 'c', 'a']);
  });

  it('writes nothing when one item is invalid, naming it users.N.field', async () => {
    const { client, server } = await setup();
    const users = Array.from({ length: 5 }, (_, i) => ({ external_id: `u${i}`, email: `u${i}@example.com` }));
    users[3]!.email = 'broken';
    const res = await client.post(paths.contacts(AGENT), { users });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ field: 'users.3.email', message: 'Invalid email' }]);
    expect(server.store.contacts(AGENT)).toHaveLength(0);
  });

  it('writes nothing on an email conflict inside the batch or with stored contacts', async () => {
    const { client, server } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'old', email: 'taken@example.com' });
    const inside = await client.post(paths.contacts(AGENT), {
      users: [
        { external_id: 'n1', email: 'dup@example.com' },
        { external_id: 'n2', email: 'DUP@example.com' },
      ],
    });
    expect(inside.status).toBe(409);
    expect(inside.body.issues).toEqual([{ field: 'users.1.email', message: 'Email already exists' }]);
    const stored = await client.post(paths.contacts(AGENT), {
      users: [{ external_id: 'n3' }, { external_id: 'n4', email: 'taken@example.com' }],
    });
    expect(stored.status).toBe(409);
    expect(stored.body.issues[0].field).toBe('users.1.email');
    expect(server.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['old']);
  });

  it('lets a batch move an email from one contact to another', async () => {
    const { client } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'a', email: 'move@example.com' });
    const res = await client.post(paths.contacts(AGENT), {
      users: [
        { external_id: 'a', email: 'other@example.com' },
        { external_id: 'b', email: 'move@example.com' },
      ],
    });
    expect(res.status).toBe(200);
  });

  it('treats a repeated external_id in one batch as two upserts of one contact', async () => {
    const { client, server } = await setup();
    const res = await client.post(paths.contacts(AGENT), {
      users: [
        { external_id: 'a', name: 'First', email: 'a@example.com' },
        { external_id: 'a', name: 'Second' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data[0].name).toBe('First');
    expect(res.body.data[1]).toMatchObject({ name: 'Second', email: 'a@example.com' });
    expect(server.store.contacts(AGENT)).toHaveLength(1);
  });

  it('takes 1 to 1000 items', async () => {
    const { client } = await setup();
    const empty = await client.post(paths.contacts(AGENT), { users: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.issues[0].field).toBe('users');
    const users = Array.from({ length: 1001 }, (_, i) => ({ external_id: `u${i}` }));
    const tooMany = await client.post(paths.contacts(AGENT), { users });
    expect(tooMany.status).toBe(400);
    const full = await client.post(paths.contacts(AGENT), { users: users.slice(0, 1000) });
    expect(full.status).toBe(200);
    expect(full.body.data).toHaveLength(1000);
  });
});

describe('200 concurrent upserts of one external_id', () => {
  it('leave exactly one contact, and exactly one request saw 201', async () => {
    const { client, server } = await setup();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client.post(paths.contacts(AGENT), { external_id: 'same', name: `writer ${i}` }),
      ),
    );
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    const list = await client.get(paths.contacts(AGENT));
    expect(list.body.total).toBe(1);
    expect(server.store.contacts(AGENT)).toHaveLength(1);
  });
});

describe('fetch GET .../contacts/:id', () => {
  it('finds by external_id first, then by the service id; 404 otherwise', async () => {
    const { client } = await setup();
    const a = (await client.post(paths.contacts(AGENT), { external_id: 'ext-a', name: 'A' })).body.data;
    // A contact whose external_id is the other one's service id: external_id wins.
    const b = (await client.post(paths.contacts(AGENT), { external_id: a.id, name: 'B' })).body.data;

    expect((await client.get(paths.contact(AGENT, 'ext-a'))).body.data.id).toBe(a.id);
    const byKey = await client.get(paths.contact(AGENT, a.id));
    expect(byKey.status).toBe(200);
    expect(byKey.body.data.id).toBe(b.id);
    expect((await client.get(paths.contact(AGENT, b.id))).body.data.name).toBe('B');

    const missing = await client.get(paths.contact(AGENT, 'nobody'));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Contact not found' });
  });

  it('decodes ids with reserved characters in the path', async () => {
    const { client } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'a/b c?d', name: 'Odd' });
    const res = await client.get(paths.contact(AGENT, 'a/b c?d'));
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Odd');
  });
});

describe('update PATCH .../contacts/:id', () => {
  it('is partial: absent fields keep values, attributes merge, null clears', async () => {
    const { client, define } = await setup();
    await define('plan', 'text');
    await define('vip', 'boolean');
    await client.post(paths.contacts(AGENT), {
      external_id: 'u',
      name: 'N',
      email: 'u@example.com',
      custom_attributes: { plan: 'free', vip: 'true' },
    });
    const res = await client.patch(paths.contact(AGENT, 'u'), {
      email: null,
      custom_attributes: { plan: 'pro' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'N',
      email: null,
      custom_attributes: { plan: 'pro', vip: true },
    });
  });

  it('accepts the body wrapped as {"data": {...}}', async () => {
    const { client } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'u' });
    const res = await client.patch(paths.contact(AGENT, 'u'), { data: { name: 'Wrapped' } });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Wrapped');
  });

  it('renames external_id, and refuses one another contact has with 409', async () => {
    const { client } = await setup();
    const u = (await client.post(paths.contacts(AGENT), { external_id: 'u' })).body.data;
    await client.post(paths.contacts(AGENT), { external_id: 'v' });
    const taken = await client.patch(paths.contact(AGENT, 'u'), { external_id: 'v' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('External ID already exists');

    const renamed = await client.patch(paths.contact(AGENT, u.id), { external_id: 'w' });
    expect(renamed.status).toBe(200);
    expect((await client.get(paths.contact(AGENT, 'w'))).body.data.id).toBe(u.id);
    expect((await client.get(paths.contact(AGENT, 'u'))).status).toBe(404);
    // The old key is free again for an upsert.
    expect((await client.post(paths.contacts(AGENT), { external_id: 'u' })).status).toBe(201);
  });

  it('refuses another contact email with 409, unknown contact with 404, bad fields with 400', async () => {
    const { client } = await setup();
    await client.post(paths.contacts(AGENT), { external_id: 'u', email: 'u@example.com' });
    await client.post(paths.contacts(AGENT), { external_id: 'v' });
    const conflict = await client.patch(paths.contact(AGENT, 'v'), { email: 'U@EXAMPLE.com' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('Email already exists');
    expect((await client.patch(paths.contact(AGENT, 'nobody'), { name: 'x' })).status).toBe(404);
    const bad = await client.patch(paths.contact(AGENT, 'v'), { external_id: null, shoe_size: 44 });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { field: string }) => i.field).sort()).toEqual(['external_id']);
  });
});

describe('delete DELETE .../contacts/:id', () => {
  it('answers 200 with the deleted contact, then 404; frees its email and external_id', async () => {
    const { client } = await setup();
    const u = (await client.post(paths.contacts(AGENT), { external_id: 'u', email: 'u@example.com' })).body
      .data;
    const res = await client.delete(paths.contact(AGENT, u.id));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(u);
    expect((await client.get(paths.contact(AGENT, 'u'))).status).toBe(404);
    expect((await client.delete(paths.contact(AGENT, 'u'))).status).toBe(404);
    const again = await client.post(paths.contacts(AGENT), { external_id: 'x', email: 'u@example.com' });
    expect(again.status).toBe(201);
  });
});

describe('list GET .../contacts', () => {
  async function seeded(count: number) {
    const ctx = await setup();
    const users = Array.from({ length: count }, (_, i) => ({
      external_id: `u${String(i).padStart(3, '0')}`,
    }));
    if (count > 0) expect((await ctx.client.post(paths.contacts(AGENT), { users })).status).toBe(200);
    return ctx;
  }

  it('pages with defaults page=1, per_page=100, in creation order, with total and pages', async () => {
    const { client } = await seeded(250);
    const res = await client.get(paths.contacts(AGENT));
    expect(res.status).toBe(200);
    const body = ContactListResponseSchema.parse(res.body);
    expect(body.total).toBe(250);
    expect(body.pages).toEqual({ page: 1, per_page: 100, total_pages: 3 });
    expect(body.data).toHaveLength(100);
    expect(body.data[0]!.external_id).toBe('u000');
    const ids = body.data.map((c) => c.id);
    expect([...ids].sort()).toEqual(ids);

    const last = await client.get(`${paths.contacts(AGENT)}?page=3&per_page=100`);
    expect(last.body.data).toHaveLength(50);
    expect(last.body.data[49].external_id).toBe('u249');
  });

  it('lists in creation order, not by update, and stays stable across pages after updates', async () => {
    const { client } = await seeded(30);
    await client.post(paths.contacts(AGENT), { external_id: 'u000', name: 'updated later' });
    const pages = await Promise.all(
      [1, 2, 3].map((p) => client.get(`${paths.contacts(AGENT)}?page=${p}&per_page=10`)),
    );
    const all = pages.flatMap((p) => p.body.data.map((c: { external_id: string }) => c.external_id));
    expect(all).toEqual(Array.from({ length: 30 }, (_, i) => `u${String(i).padStart(3, '0')}`));
  });

  it('reflects deletes and creates in later pages (no stale cache)', async () => {
    const { client } = await seeded(15);
    const before = await client.get(`${paths.contacts(AGENT)}?page=1&per_page=10`);
    expect(before.body.data[0].external_id).toBe('u000');
    await client.delete(paths.contact(AGENT, 'u000'));
    await client.post(paths.contacts(AGENT), { external_id: 'new' });
    const after = await client.get(`${paths.contacts(AGENT)}?page=2&per_page=10`);
    expect(after.body.total).toBe(15);
    expect(after.body.data.map((c: { external_id: string }) => c.external_id).at(-1)).toBe('new');
    expect((await client.get(`${paths.contacts(AGENT)}?page=1&per_page=10`)).body.data[0].external_id).toBe(
      'u001',
    );
  });

  it('refuses a page past the last one when there are contacts: 400 Page number out of range', async () => {
    const { client } = await seeded(20);
    const res = await client.get(`${paths.contacts(AGENT)}?page=3&per_page=10`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Page number out of range');
  });

  it('answers an agent with no data with 200 and total 0, on any page', async () => {
    const { client } = await seeded(0);
    for (const query of ['', '?page=1', '?page=7']) {
      const res = await client.get(`${paths.contacts('never-used')}${query}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(0);
      expect(res.body.data).toEqual([]);
    }
  });

  it('rejects bad page and per_page values with 400 and issues', async () => {
    const { client } = await seeded(5);
    for (const query of [
      'page=0',
      'page=-1',
      'page=abc',
      'per_page=9',
      'per_page=1001',
      'page=1.5',
      'page=',
    ]) {
      const res = await client.get(`${paths.contacts(AGENT)}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.issues.length, query).toBeGreaterThan(0);
    }
    expect((await client.get(`${paths.contacts(AGENT)}?per_page=10`)).status).toBe(200);
    expect((await client.get(`${paths.contacts(AGENT)}?per_page=1000`)).status).toBe(200);
  });
});

describe('agent scoping', () => {
  it('never shows one agent anything of another', async () => {
    const { client, define } = await setup();
    await define('plan', 'text');
    await client.post(paths.contacts(AGENT), { external_id: 'shared', email: 'x@example.com' });
    const other = 'agent-2';
    expect((await client.get(paths.contact(other, 'shared'))).status).toBe(404);
    expect((await client.get(paths.contacts(other))).body.total).toBe(0);
    expect((await client.get(paths.attributes(other))).body.data).toEqual([]);
    // The same external_id and email are free in the other agent; its attributes are its own.
    const res = await client.post(paths.contacts(other), { external_id: 'shared', email: 'x@example.com' });
    expect(res.status).toBe(201);
    const attr = await client.post(paths.contacts(other), {
      external_id: 'y',
      custom_attributes: { plan: 'p' },
    });
    // `plan` is not an attribute of the other agent: dropped there, and said so.
    expect(attr.status).toBe(201);
    expect(attr.headers.get('x-contacts-ignored')).toBe('custom_attributes.plan');
    expect(attr.body.data.custom_attributes).toEqual({});
    expect((await client.delete(paths.contact(other, 'shared'))).status).toBe(200);
    expect((await client.get(paths.contact(AGENT, 'shared'))).status).toBe(200);
  });
});

describe('ids padded with spaces in the path', () => {
  it('are trimmed as an upsert trims the external_id it stores: get, patch and delete find the contact', async () => {
    const server = await startTestMock();
    const client = api(server.url);
    const created = await client.post(paths.contacts(AGENT), { external_id: ' pad ' });
    expect(created.body.data.external_id).toBe('pad');
    const padded = `${paths.contacts(AGENT)}/%20pad%20`;
    expect((await client.get(padded)).body.data.external_id).toBe('pad');
    expect((await client.patch(padded, { name: 'Padded' })).body.data.name).toBe('Padded');
    expect((await client.request('DELETE', `${paths.contacts(AGENT)}/%09pad%0A`)).status).toBe(200);
    expect((await client.get(padded)).status).toBe(404);
  });
});
