// The store driven directly: ids, snapshots, change notifications, paging.
import { describe, expect, it } from 'vitest';
import { MockHttpError } from '../../src/mock/errors.js';
import { createMockState, handleRequest } from '../../src/mock/handler.js';
import { respond } from '../../src/mock/respond.js';
import { newStore as createMockStore } from '../helpers/mock.js';

const A = 'agent-a';

function thrown(fn: () => unknown): MockHttpError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MockHttpError) return error;
    throw error;
  }
  throw new Error('expected a MockHttpError');
}

describe('createMockStore', () => {
  it('gives ids that sort in creation order, also past the first digit rollover', () => {
    const store = createMockStore();
    const users = Array.from({ length: 40 }, (_, i) => ({ external_id: `u${i}` }));
    const ids = store.batchUpsert(A, { users }).map((c) => c.id);
    expect(new Set(ids).size).toBe(40);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^ct_[0-9a-z]{14}$/.test(id))).toBe(true);
  });

  it('stamps created_at and updated_at in Unix seconds from its clock', () => {
    let now = 1_700_000_000_500;
    const store = createMockStore({ now: () => now });
    const { contact } = store.upsertContact(A, { external_id: 'a' });
    expect(contact.created_at).toBe(1_700_000_000);
    now += 5000;
    const updated = store.patchContact(A, 'a', { name: 'N' });
    expect(updated.created_at).toBe(1_700_000_000);
    expect(updated.updated_at).toBe(1_700_000_005);
  });

  it("keeps its own copy of a body's custom attributes, leaving the caller's object as given", () => {
    const store = createMockStore();
    store.defineAttribute(A, { name: 'plan', type: 'text' });
    const attrs = { plan: 'pro' };
    const { contact } = store.upsertContact(A, { external_id: 'a', custom_attributes: attrs });
    expect(contact.custom_attributes).toEqual({ plan: 'pro' });
    expect(contact.custom_attributes).not.toBe(attrs);
    expect(Object.isFrozen(attrs)).toBe(false);
    attrs.plan = 'changed';
    expect(store.getContact(A, 'a').custom_attributes).toEqual({ plan: 'pro' });
  });

  it('returns frozen records that later writes do not change', () => {
    const store = createMockStore();
    const { contact } = store.upsertContact(A, { external_id: 'a', name: 'One' });
    store.upsertContact(A, { external_id: 'a', name: 'Two' });
    expect(contact.name).toBe('One');
    expect(Object.isFrozen(contact)).toBe(true);
    expect(Object.isFrozen(contact.custom_attributes)).toBe(true);
    expect(store.getContact(A, 'a').name).toBe('Two');
  });

  it('throws contract errors as MockHttpError with status and issues', () => {
    const store = createMockStore();
    expect(thrown(() => store.getContact(A, 'x')).status).toBe(404);
    const invalid = thrown(() => store.upsertContact(A, { external_id: 1 }));
    expect(invalid.status).toBe(400);
    expect(invalid.issues?.[0]?.field).toBe('external_id');
    store.upsertContact(A, { external_id: 'a', email: 'a@example.com' });
    expect(thrown(() => store.upsertContact(A, { external_id: 'b', email: 'A@example.com' })).status).toBe(
      409,
    );
    expect(thrown(() => store.updateAttribute(A, 'nope', {})).status).toBe(404);
  });

  it('round-trips a snapshot through JSON, indexes included', () => {
    const store = createMockStore();
    store.defineAttribute(A, { name: 'plan', type: 'text' });
    store.upsertContact(A, { external_id: 'a', email: 'a@example.com', custom_attributes: { plan: 'pro' } });
    store.upsertContact('agent-b', { external_id: 'b' });
    const copy = createMockStore({ snapshot: JSON.parse(JSON.stringify(store.snapshot())) });

    expect(copy.contacts(A)).toEqual(store.contacts(A));
    expect(copy.listAttributes(A)).toEqual(store.listAttributes(A));
    expect(copy.getContact('agent-b', 'b').external_id).toBe('b');
    // Email index restored; ids keep increasing after the restored counter.
    expect(thrown(() => copy.upsertContact(A, { external_id: 'c', email: 'A@EXAMPLE.COM' })).status).toBe(
      409,
    );
    const next = copy.upsertContact(A, { external_id: 'd' }).contact;
    expect(next.id > copy.getContact(A, 'a').id).toBe(true);
    // Validators know the restored attribute.
    expect(copy.upsertContact(A, { external_id: 'e', custom_attributes: { plan: 'x' } }).created).toBe(true);
  });

  it('refuses a snapshot that is not one, or breaks uniqueness', () => {
    const store = createMockStore();
    expect(() => store.restore({ version: 2 })).toThrow(/Not a mock store snapshot/);
    const contact = {
      id: 'ct_1',
      external_id: 'a',
      name: null,
      email: 'x@example.com',
      phonenumber: null,
      custom_attributes: {},
      created_at: 1,
      updated_at: 1,
    };
    const twice = {
      version: 1,
      seq: 2,
      agents: { a: { contacts: [contact, { ...contact, id: 'ct_2' }], attributes: [] } },
    };
    expect(() => store.restore(twice)).toThrow(/appears twice|not unique/);
  });

  it('tells listeners about each committed write, once per batch, not about refused ones', () => {
    const store = createMockStore();
    let changes = 0;
    const off = store.onChange(() => {
      changes += 1;
    });
    store.upsertContact(A, { external_id: 'a' });
    store.batchUpsert(A, { users: [{ external_id: 'b' }, { external_id: 'c' }] });
    expect(changes).toBe(2);
    expect(() => store.upsertContact(A, { external_id: '' })).toThrow();
    expect(() => store.deleteContact(A, 'missing')).toThrow();
    expect(changes).toBe(2);
    off();
    store.deleteContact(A, 'a');
    expect(changes).toBe(2);
  });

  it('forgets what a failed write learnt: its definitions and its ids', () => {
    const store = createMockStore();
    const first = store.upsertContact(A, { external_id: 'a' }).contact.id;
    expect(() =>
      store.atomically(() => {
        store.defineAttribute(A, { name: 'tier', type: 'text' });
        store.upsertContact(A, { external_id: 'b', custom_attributes: { tier: 'x' } });
        throw new Error('failed');
      }),
    ).toThrow('failed');
    expect(
      thrown(() => store.upsertContact(A, { external_id: 'b', custom_attributes: { tier: 'x' } })).status,
    ).toBe(400);
    const next = store.upsertContact(A, { external_id: 'b' }).contact.id;
    expect(next.slice(0, 13)).toBe(`ct_${'2'.padStart(10, '0')}`);
    expect(first.slice(0, 13)).toBe(`ct_${'1'.padStart(10, '0')}`);
  });

  it('builds an agent validator once per change of its definitions', () => {
    const store = createMockStore();
    store.defineAttribute(A, { name: 'plan', type: 'text' });
    const first = store.validators(A);
    store.upsertContact(A, { external_id: 'a', custom_attributes: { plan: 'x' } });
    expect(store.validators(A)).toBe(first);
    store.updateAttribute(A, 'plan', { label: 'Plan' });
    expect(store.validators(A)).not.toBe(first);
  });
});

describe('the handler over the store', () => {
  const headers = { authorization: 'Bearer bk_x', 'content-type': 'application/json' };
  const get = (state: ReturnType<typeof createMockState>, path: string, query = '') =>
    handleRequest(state, {
      method: 'GET',
      path,
      query: new URLSearchParams(query),
      headers,
      body: undefined,
    });

  it('serves a list page that reflects the write before it', () => {
    const state = createMockState();
    const list = () => JSON.stringify(get(state, '/api/v1/chatbots/a/contacts', 'per_page=10').body);
    state.store.upsertContact('a', { external_id: 'x', name: 'before' });
    expect(list()).toContain('"before"');
    expect(list()).toContain('"before"');
    state.store.upsertContact('a', { external_id: 'x', name: 'after' });
    expect(list()).toContain('"after"');
    state.store.upsertContact('a', { external_id: 'y' });
    expect(JSON.parse(list()).total).toBe(2);
  });
});

describe('contacts as JSON text', () => {
  /** Contacts whose JSON holds what could come out differently: escapes, numbers, attributes, accounts. */
  function filled() {
    const store = createMockStore({ now: () => 1_700_000_000_000 });
    store.defineAttribute(A, { name: 'plan', type: 'text' });
    store.defineAttribute(A, { name: 'seats', type: 'number' });
    store.defineAttribute(A, { name: 'beta', type: 'boolean' });
    store.upsertContact(A, {
      external_id: 'x',
      name: 'Zoë "quoted" \\ back\nline \u2028',
      email: 'Zoe@Example.com',
      custom_attributes: { seats: 1.5e-7, plan: 'pro', beta: true },
      stripe_accounts: [
        { label: 'main', stripe_email: 'billing@example.com' },
        { label: 'b', stripe_id: 'cus_1' },
      ],
    });
    for (let i = 0; i < 24; i++)
      store.upsertContact(A, { external_id: `p${i}`, phonenumber: '+14155550132' });
    return store;
  }

  it('gives a contact as the bytes JSON.stringify writes for it, by external_id or service id', () => {
    const store = filled();
    const contact = store.getContact(A, 'x');
    expect(store.contactJson(A, 'x')).toBe(JSON.stringify(contact));
    expect(store.contactJson(A, contact.id)).toBe(JSON.stringify(contact));
    expect(store.contactJson(A, 'x')).toContain(
      '"custom_attributes":{"seats":1.5e-7,"plan":"pro","beta":true}',
    );
    expect(thrown(() => store.contactJson(A, 'nobody'))).toMatchObject({
      status: 404,
      message: 'Contact not found',
    });
    expect(thrown(() => store.contactJson('other', 'x')).status).toBe(404);
  });

  it('gives each page as the bytes JSON.stringify writes for listContacts, in creation order', () => {
    const store = filled();
    for (const query of [
      { page: 1, per_page: 10 },
      { page: 2, per_page: 10 },
      { page: 3, per_page: 10 },
      { page: 1, per_page: 1000 },
    ]) {
      const page = store.listContacts(A, query);
      const json = store.listContactsJson(A, query);
      expect(json.data).toBe(JSON.stringify(page.data));
      expect({ total: json.total, pages: json.pages }).toEqual({ total: page.total, pages: page.pages });
    }
    expect(store.listContactsJson(A, { page: 3, per_page: 10 }).pages.total_pages).toBe(3);
    expect(thrown(() => store.listContactsJson(A, { page: 4, per_page: 10 })).message).toBe(
      'Page number out of range',
    );
    expect(store.listContactsJson('nobody', { page: 7, per_page: 10 })).toEqual({
      data: '[]',
      total: 0,
      pages: { page: 7, per_page: 10, total_pages: 0 },
    });
  });

  it('answers the same bytes as before it kept records as text: envelope, fields and list keys in order', () => {
    const state = createMockState({ store: filled() });
    const headers = { authorization: 'Bearer bk_x', 'content-type': 'application/json' };
    const call = (method: string, path: string, query = '', body?: string) =>
      respond(state, { method, path, query: new URLSearchParams(query), headers, body });
    const text = (o: ReturnType<typeof call>) => {
      if (o instanceof Promise || o.drop) throw new Error('expected an answer');
      return o.response.body;
    };
    const contact = state.store.getContact(A, 'x');
    const base = `/api/v1/chatbots/${A}/contacts`;
    expect(text(call('GET', `${base}/x`))).toBe(JSON.stringify({ message: 'Success', data: contact }));
    const page = state.store.listContacts(A, { page: 2, per_page: 10 });
    expect(text(call('GET', base, 'page=2&per_page=10'))).toBe(
      JSON.stringify({ message: 'Success', ...page }),
    );
    const created = JSON.parse(text(call('POST', base, '', '{"external_id":"new","name":"N"}')));
    expect(text(call('GET', `${base}/new`))).toBe(JSON.stringify({ message: 'Success', data: created.data }));
    expect(Object.keys(created.data)).toEqual([
      'id',
      'external_id',
      'name',
      'email',
      'phonenumber',
      'custom_attributes',
      'stripe_accounts',
      'created_at',
      'updated_at',
    ]);
    // The library's handleRequest still gives the body as a JSON value.
    const handled = handleRequest(state, {
      method: 'GET',
      path: `${base}/x`,
      query: new URLSearchParams(),
      headers,
      body: undefined,
    });
    expect(handled.body).toEqual({ message: 'Success', data: contact });
  });
});

describe('paging through the store', () => {
  it('pages stay exact across deletes before, inside and after pages already seen, and across a reset', () => {
    const store = createMockStore();
    // The page as objects and as JSON text, which must agree at every step.
    const ids = (page: number) => {
      const objects = store.listContacts(A, { page, per_page: 10 }).data;
      expect(store.listContactsJson(A, { page, per_page: 10 }).data).toBe(JSON.stringify(objects));
      return objects.map((c) => c.external_id);
    };
    store.batchUpsert(A, { users: Array.from({ length: 45 }, (_, i) => ({ external_id: `p${i}` })) });
    const walk = () => [1, 2, 3, 4, 5].flatMap(ids);
    expect(walk()).toEqual(Array.from({ length: 45 }, (_, i) => `p${i}`));
    store.deleteContact(A, 'p15'); // inside page 2, after page 1's end
    store.deleteContact(A, 'p44'); // the last row
    // A refused write between two walks changes nothing.
    expect(() => store.upsertContact(A, { external_id: '' })).toThrow();
    const left = Array.from({ length: 44 }, (_, i) => `p${i}`).filter((id) => id !== 'p15');
    expect(walk().slice(0, 43)).toEqual(left);
    store.upsertContact(A, { external_id: 'late' });
    expect(ids(5)).toEqual(['p41', 'p42', 'p43', 'late']);
    store.reset();
    store.batchUpsert(A, { users: Array.from({ length: 25 }, (_, i) => ({ external_id: `n${i}` })) });
    expect([1, 2, 3].flatMap(ids)).toEqual(Array.from({ length: 25 }, (_, i) => `n${i}`));
  });

  it('keeps external_ids that differ only in lone surrogates apart by refusing them', () => {
    const store = createMockStore();
    expect(thrown(() => store.upsertContact(A, { external_id: '\ud800' })).status).toBe(400);
    store.upsertContact(A, { external_id: '\ufffd' });
    expect(store.count(A)).toBe(1);
  });
});
