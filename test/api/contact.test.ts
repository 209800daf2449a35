// Contacts on the wire: the record as read (tolerant), the input as checked (strict), the
// per-agent validators, and what the service drops of a body it does not know.
import { describe, expect, it } from 'vitest';
import {
  BatchUpsertSchema,
  ContactInputSchema,
  ContactPatchSchema,
  ContactSchema,
  createContactValidators,
  splitUnknownBatchFields,
  splitUnknownFields,
} from '../../src/api/contact.js';
import { toIssues } from '../../src/api/envelope.js';

const record = {
  id: 'ct_1',
  external_id: 'u1',
  name: null,
  email: null,
  phonenumber: null,
  custom_attributes: {},
  created_at: 1,
  updated_at: 2,
};

const issuesOf = (result: { success: boolean; error?: unknown }) =>
  result.success ? [] : toIssues(result.error as Parameters<typeof toIssues>[0]);

describe('ContactSchema (a record as the service returns it)', () => {
  it('reads a record without stripe_accounts as none, and keeps fields it does not know', () => {
    const read = ContactSchema.parse({ ...record, tier: 'gold' });
    expect(read.stripe_accounts).toEqual([]);
    expect((read as Record<string, unknown>).tier).toBe('gold');
  });

  it('reads a Stripe account whose id or email comes as null', () => {
    const read = ContactSchema.parse({
      ...record,
      stripe_accounts: [{ label: 'main', stripe_id: null, stripe_email: 'a@b.co' }],
    });
    expect(read.stripe_accounts[0]).toEqual({ label: 'main', stripe_id: null, stripe_email: 'a@b.co' });
  });

  it('refuses a record without an id or with a fractional time', () => {
    const { id: _, ...noId } = record;
    expect(issuesOf(ContactSchema.safeParse(noId)).map((i) => i.field)).toEqual(['id']);
    expect(issuesOf(ContactSchema.safeParse({ ...record, created_at: 1.5 })).map((i) => i.field)).toEqual([
      'created_at',
    ]);
  });
});

describe('ContactInputSchema (one upsert body)', () => {
  it('trims external_id and email, and keeps a phone number with its punctuation', () => {
    expect(
      ContactInputSchema.parse({ external_id: ' u1 ', email: ' A@b.co ', phonenumber: '+44 (20) 7946-0958' }),
    ).toEqual({ external_id: 'u1', email: 'A@b.co', phonenumber: '+44 (20) 7946-0958' });
  });

  it('says what is wrong, field by field', () => {
    const result = ContactInputSchema.safeParse({
      external_id: '   ',
      email: 'nope',
      phonenumber: '020 7946 0958',
      name: 'x'.repeat(256),
    });
    expect(Object.fromEntries(issuesOf(result).map((i) => [i.field, i.message]))).toMatchObject({
      external_id: 'Must not be empty',
      email: 'Invalid email',
      phonenumber: 'Invalid phone number: expected a leading + and country code, e.g. +44 20 7946 0958',
      name: expect.stringMatching(/255/),
    });
  });

  it('counts the digits of a phone number: 7 to 15', () => {
    expect(ContactInputSchema.safeParse({ external_id: 'a', phonenumber: '+1 234 567' }).success).toBe(true);
    const short = ContactInputSchema.safeParse({ external_id: 'a', phonenumber: '+1 (23) 45' });
    expect(issuesOf(short)[0]?.message).toBe('Invalid phone number: expected 7 to 15 digits');
    const long = ContactInputSchema.safeParse({ external_id: 'a', phonenumber: `+${'1'.repeat(16)}` });
    expect(long.success).toBe(false);
  });

  it('refuses an external_id holding a lone surrogate, and a missing one as Required', () => {
    expect(issuesOf(ContactInputSchema.safeParse({ external_id: 'a\ud800' }))[0]?.message).toMatch(
      /lone UTF-16 surrogate/,
    );
    expect(issuesOf(ContactInputSchema.safeParse({}))).toEqual([
      { field: 'external_id', message: 'Required' },
    ]);
  });

  it('refuses unknown fields, and a Stripe account with neither id nor email', () => {
    expect(issuesOf(ContactInputSchema.safeParse({ external_id: 'a', company: 'x' }))).toEqual([
      { field: 'company', message: 'Unknown field' },
    ]);
    const account = ContactInputSchema.safeParse({ external_id: 'a', stripe_accounts: [{ label: 'main' }] });
    expect(issuesOf(account)).toEqual([
      { field: 'stripe_accounts.0', message: 'Give stripe_id or stripe_email (or both)' },
    ]);
    // null clears the list.
    expect(ContactInputSchema.parse({ external_id: 'a', stripe_accounts: null }).stripe_accounts).toBeNull();
  });
});

describe('ContactPatchSchema and BatchUpsertSchema', () => {
  it('a patch may leave every field out, and clears with null', () => {
    expect(ContactPatchSchema.parse({})).toEqual({});
    expect(ContactPatchSchema.parse({ email: null })).toEqual({ email: null });
  });

  it('a batch holds 1 to 1000 contacts', () => {
    expect(BatchUpsertSchema.safeParse({ users: [] }).success).toBe(false);
    const many = Array.from({ length: 1001 }, (_, i) => ({ external_id: `u${i}` }));
    expect(BatchUpsertSchema.safeParse({ users: many }).success).toBe(false);
    expect(BatchUpsertSchema.safeParse({ users: many.slice(0, 1000) }).success).toBe(true);
  });
});

describe('createContactValidators', () => {
  const definitions = [
    { name: 'plan', label: 'Plan', type: 'text' as const, description: null, archived: false },
    { name: 'seats', label: 'Seats', type: 'number' as const, description: null, archived: false },
    { name: 'old', label: 'Old', type: 'text' as const, description: null, archived: true },
  ];

  it('checks every custom attribute against the definitions, naming each bad key', () => {
    const { input } = createContactValidators(definitions);
    const result = input.safeParse({
      external_id: 'a',
      custom_attributes: { plna: 'x', seats: 'ten', old: 'y' },
    });
    expect(issuesOf(result).map((i) => i.field)).toEqual([
      'custom_attributes.plna',
      'custom_attributes.seats',
      'custom_attributes.old',
    ]);
  });

  it('takes null for an archived attribute, and returns the caller’s object when nothing changes', () => {
    const { input } = createContactValidators(definitions);
    const attrs = { plan: 'pro', old: null };
    expect(input.parse({ external_id: 'a', custom_attributes: attrs }).custom_attributes).toBe(attrs);
  });

  it('converts numeric text for a number attribute when values are text, leaving the given object alone', () => {
    const { input } = createContactValidators(definitions, { textValues: true });
    const attrs = { seats: ' 12 ' };
    expect(input.parse({ external_id: 'a', custom_attributes: attrs }).custom_attributes).toEqual({
      seats: 12,
    });
    expect(attrs).toEqual({ seats: ' 12 ' });
    const { input: wire } = createContactValidators(definitions);
    expect(wire.safeParse({ external_id: 'a', custom_attributes: attrs }).success).toBe(false);
  });

  it('refuses custom_attributes that are not an object', () => {
    const { patch } = createContactValidators(definitions);
    expect(issuesOf(patch.safeParse({ custom_attributes: ['plan'] }))).toEqual([
      { field: 'custom_attributes', message: 'Expected an object of attribute names to values' },
    ]);
  });
});

describe('splitUnknownFields', () => {
  const names = new Set(['plan']);

  it('returns a body with nothing to drop as it is, the same object', () => {
    const body = { external_id: 'a', custom_attributes: { plan: 'x' }, stripe_accounts: [{ label: 'l' }] };
    const split = splitUnknownFields(body, names);
    expect(split.body).toBe(body);
    expect(split.ignored).toEqual([]);
  });

  it('drops unknown fields, attribute keys and Stripe account keys, naming each by its path', () => {
    const split = splitUnknownFields(
      {
        external_id: 'a',
        company: 'x',
        custom_attributes: { plan: 'p', plna: 'q' },
        stripe_accounts: [{ label: 'l', stripe_id: 'cus_1', note: 'n' }],
      },
      names,
      'users.3.',
    );
    expect(split.ignored).toEqual([
      'users.3.company',
      'users.3.custom_attributes.plna',
      'users.3.stripe_accounts.0.note',
    ]);
    expect(JSON.parse(JSON.stringify(split.body))).toEqual({
      external_id: 'a',
      custom_attributes: { plan: 'p' },
      stripe_accounts: [{ label: 'l', stripe_id: 'cus_1' }],
    });
  });

  it('keeps __proto__ as data in what it builds', () => {
    const body = JSON.parse(
      '{"external_id":"a","__proto__":{"polluted":true},"custom_attributes":{"__proto__":1}}',
    );
    const split = splitUnknownFields(body, names);
    expect(split.ignored).toEqual(['__proto__', 'custom_attributes.__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(split.body)).toBeNull();
  });

  it('splits each contact of a batch under users.N., and drops fields beside users', () => {
    const split = splitUnknownBatchFields(
      { users: [{ external_id: 'a' }, { external_id: 'b', x: 1 }], dry_run: true },
      names,
    );
    expect(split.ignored).toEqual(['users.1.x', 'dry_run']);
    expect(JSON.parse(JSON.stringify(split.body))).toEqual({
      users: [{ external_id: 'a' }, { external_id: 'b' }],
    });
  });
});
