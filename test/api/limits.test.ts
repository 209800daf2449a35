// The contract's limits are the ones its schemas hold, so a change to one is a change to both.
import { describe, expect, it } from 'vitest';
import { AttributeTypeSchema, RESERVED_ATTRIBUTE_NAMES } from '../../src/api/attribute.js';
import { BatchUpsertSchema, ContactInputSchema, ContactSchema } from '../../src/api/contact.js';
import {
  ATTRIBUTE_TYPES,
  CONTACT_RECORD_FIELDS,
  MAX_BATCH_SIZE,
  MAX_EMAIL_LENGTH,
  MAX_EXTERNAL_ID_LENGTH,
  MAX_NAME_LENGTH,
  MAX_STRIPE_ACCOUNTS,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX,
  PER_PAGE_MIN,
} from '../../src/api/limits.js';
import { ListQuerySchema } from '../../src/api/query.js';

const ok = (body: unknown) => ContactInputSchema.safeParse(body).success;

describe('the limits of the contract', () => {
  it('are the lengths the input schema holds', () => {
    expect(ok({ external_id: 'x'.repeat(MAX_EXTERNAL_ID_LENGTH) })).toBe(true);
    expect(ok({ external_id: 'x'.repeat(MAX_EXTERNAL_ID_LENGTH + 1) })).toBe(false);
    expect(ok({ external_id: 'a', name: 'n'.repeat(MAX_NAME_LENGTH) })).toBe(true);
    expect(ok({ external_id: 'a', name: 'n'.repeat(MAX_NAME_LENGTH + 1) })).toBe(false);
    const email = (n: number) => `${'e'.repeat(n - 8)}@mail.co`;
    expect(email(MAX_EMAIL_LENGTH)).toHaveLength(MAX_EMAIL_LENGTH);
    expect(ok({ external_id: 'a', email: email(MAX_EMAIL_LENGTH + 1) })).toBe(false);
    const accounts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ label: `l${i}`, stripe_id: `c${i}` }));
    expect(ok({ external_id: 'a', stripe_accounts: accounts(MAX_STRIPE_ACCOUNTS) })).toBe(true);
    expect(ok({ external_id: 'a', stripe_accounts: accounts(MAX_STRIPE_ACCOUNTS + 1) })).toBe(false);
  });

  it('MAX_BATCH_SIZE is the batch schema’s bound', () => {
    const users = Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) => ({ external_id: `u${i}` }));
    expect(BatchUpsertSchema.safeParse({ users: users.slice(1) }).success).toBe(true);
    expect(BatchUpsertSchema.safeParse({ users }).success).toBe(false);
  });

  it('the page sizes are the list query’s bounds and default', () => {
    expect(ListQuerySchema.parse({})).toEqual({ page: 1, per_page: PER_PAGE_DEFAULT });
    expect(ListQuerySchema.safeParse({ per_page: String(PER_PAGE_MIN - 1) }).success).toBe(false);
    expect(ListQuerySchema.safeParse({ per_page: String(PER_PAGE_MAX + 1) }).success).toBe(false);
  });

  it('CONTACT_RECORD_FIELDS are the record’s fields, and names an attribute may not take', () => {
    expect([...CONTACT_RECORD_FIELDS].sort()).toEqual(Object.keys(ContactSchema.shape).sort());
    for (const field of CONTACT_RECORD_FIELDS) expect(RESERVED_ATTRIBUTE_NAMES.has(field)).toBe(true);
  });

  it('ATTRIBUTE_TYPES are the attribute type schema’s options', () => {
    expect([...ATTRIBUTE_TYPES]).toEqual(AttributeTypeSchema.options);
  });
});
