// The write rules on their own, over a lookup that is not the in-memory store: what a store on
// another medium relies on.
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/index.js';
import type { MockHttpError } from '../../src/mock/errors.js';
import {
  type ContactLookup,
  checkBatch,
  checkEmail,
  checkQuota,
  mergeFields,
  sameFields,
} from '../../src/mock/rules.js';

const record = (external_id: string, email: string | null = null): Contact => ({
  id: `ct_${external_id}`,
  external_id,
  name: null,
  email,
  phonenumber: null,
  custom_attributes: {},
  stripe_accounts: [],
  created_at: 1,
  updated_at: 1,
});

function lookup(contacts: Contact[]): ContactLookup {
  return {
    count: () => contacts.length,
    byExternalId: (id) => contacts.find((c) => c.external_id === id),
    emailOwner: (email) => contacts.find((c) => c.email?.toLowerCase() === email)?.external_id,
  };
}

const thrown = (fn: () => void): MockHttpError => {
  try {
    fn();
  } catch (error) {
    return error as MockHttpError;
  }
  throw new Error('did not throw');
};

describe('mergeFields', () => {
  it('keeps what is absent, clears null, merges attributes, replaces the Stripe list as a whole', () => {
    const prev = {
      ...record('a', 'a@example.com'),
      custom_attributes: { plan: 'pro', seats: 3 },
      stripe_accounts: [{ label: 'old', stripe_id: 'cus_0' }],
    };
    const next = mergeFields(
      prev,
      {
        email: null,
        custom_attributes: { seats: null, vip: true },
        stripe_accounts: [{ label: 'new', stripe_email: 'b@example.com' }],
      },
      'a',
    );
    expect(next).toEqual({
      external_id: 'a',
      name: null,
      email: null,
      phonenumber: null,
      custom_attributes: { plan: 'pro', vip: true },
      stripe_accounts: [{ label: 'new', stripe_email: 'b@example.com' }],
    });
    expect(mergeFields(prev, { stripe_accounts: null }, 'a').stripe_accounts).toEqual([]);
    expect(mergeFields(prev, {}, 'a').stripe_accounts).toBe(prev.stripe_accounts);
    expect(sameFields(prev, mergeFields(prev, { name: null }, 'a'))).toBe(true);
  });
});

describe('checks over any lookup', () => {
  it('the quota counts only new contacts', () => {
    const agent = lookup([record('a'), record('b')]);
    expect(() => checkQuota(agent, 0, 2)).not.toThrow();
    expect(thrown(() => checkQuota(agent, 1, 2)).message).toBe('Maximum contacts limit reached');
  });

  it('an email held by another contact is 409; the contact keeping its own is not', () => {
    const agent = lookup([record('a', 'A@example.com'), record('b')]);
    const b = record('b');
    expect(thrown(() => checkEmail(agent, b, { ...b, email: 'a@EXAMPLE.com' })).status).toBe(409);
    const a = agent.byExternalId('a')!;
    expect(() => checkEmail(agent, a, { ...a, email: 'a@example.com' })).not.toThrow();
  });

  it('a batch names each conflicting item, between items too, and counts its creations for the quota', () => {
    const agent = lookup([record('a', 'a@example.com')]);
    const conflict = thrown(() =>
      checkBatch(
        agent,
        [
          { external_id: 'x', email: 'a@example.com' },
          { external_id: 'y', email: 'y@example.com' },
          { external_id: 'z', email: 'Y@example.com' },
        ],
        100,
      ),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.issues).toEqual([
      { field: 'users.0.email', message: 'Email already exists' },
      { field: 'users.2.email', message: 'Email already exists' },
    ]);
    // An email freed earlier in the batch can be taken later in it.
    expect(() =>
      checkBatch(
        agent,
        [
          { external_id: 'a', email: 'new@example.com' },
          { external_id: 'b', email: 'a@example.com' },
        ],
        100,
      ),
    ).not.toThrow();
    // Two items of one external_id create one contact.
    expect(() =>
      checkBatch(agent, [{ external_id: 'n' }, { external_id: 'n', name: 'again' }, { external_id: 'a' }], 2),
    ).not.toThrow();
    expect(thrown(() => checkBatch(agent, [{ external_id: 'n' }, { external_id: 'm' }], 2)).status).toBe(400);
  });
});
