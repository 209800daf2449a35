// The mock's quick check of the common upsert body must never accept what the contract's schema
// refuses, and must give back what the schema gives back: compared over bodies built from values
// near every rule's edge.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  ContactInputSchema,
  MAX_EMAIL_LENGTH,
  MAX_EXTERNAL_ID_LENGTH,
  MAX_NAME_LENGTH,
  plainContactInput,
} from '../../src/api/index.js';

const ids: unknown[] = [
  'u1',
  'x',
  '',
  ' ',
  ' u1',
  'u1 ',
  '\tu1',
  'u1\n',
  '\u00a0u1',
  'u1\u2028',
  '\ufeffu1',
  'a b',
  'x'.repeat(MAX_EXTERNAL_ID_LENGTH),
  'x'.repeat(MAX_EXTERNAL_ID_LENGTH + 1),
  ` ${'x'.repeat(MAX_EXTERNAL_ID_LENGTH)}`,
  'lone \ud800 surrogate',
  'pair \ud83d\ude00 ok',
  'é',
  42,
  null,
  undefined,
  true,
  ['u1'],
  { id: 'u1' },
];
const names: unknown[] = [
  undefined,
  null,
  '',
  ' Ada ',
  'Ada Lovelace',
  'x'.repeat(MAX_NAME_LENGTH),
  'x'.repeat(MAX_NAME_LENGTH + 1),
  7,
  false,
];
const local = 'a'.repeat(64);
const emails: unknown[] = [
  undefined,
  null,
  'a@example.com',
  'A.B+tag@Example.CO.uk',
  " o'hara@example.com",
  'a@example.com ',
  'a@@example.com',
  'a@example',
  'a@example.c',
  '.a@example.com',
  'a.@example.com',
  'a..b@example.com',
  'a@-example.com',
  'a@exa_mple.com',
  'é@example.com',
  '',
  ' ',
  `${local}@${'b'.repeat(MAX_EMAIL_LENGTH - local.length - 5)}.com`,
  `${local}@${'b'.repeat(MAX_EMAIL_LENGTH - local.length - 4)}.com`,
  1,
];
const phones: unknown[] = [
  undefined,
  null,
  '+44 20 7946 0958',
  '+1 (555) 010-9999',
  '+123456',
  '+1234567',
  '+1234567890123456',
  '+123456789012345',
  ' +44 20 7946 0958',
  '0044 20 7946 0958',
  '+44 20 7946 0958 x12',
  '',
  12345678,
];
const extras: Record<string, unknown>[] = [
  {},
  { company: 'Acme' },
  { custom_attributes: {} },
  { stripe_accounts: [] },
  { stripe_accounts: null },
  { custom_attributes: null },
];

function* bodies(): Generator<Record<string, unknown>> {
  // Every id with every name, every email with every phone: each value meets each other rule.
  for (const [i, external_id] of ids.entries()) {
    for (const [j, name] of names.entries()) {
      const email = emails[(i + j) % emails.length];
      const phonenumber = phones[(i * 3 + j) % phones.length];
      yield { external_id, name, email, phonenumber };
    }
  }
  for (const email of emails)
    for (const phonenumber of phones) yield { external_id: 'u1', email, phonenumber };
  for (const extra of extras) yield { external_id: 'u1', name: 'Ada', ...extra };
  // Absent keys stay absent (undefined values are what a JSON body never holds; left out here).
  yield { external_id: 'u1' };
}

const withoutUndefined = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));

describe('plainContactInput: the common upsert body without walking the schema', () => {
  it('accepts only what ContactInputSchema accepts, and gives back what it gives back', () => {
    let accepted = 0;
    let total = 0;
    for (const raw of bodies()) {
      const body = withoutUndefined(raw);
      total++;
      const quick = plainContactInput(body);
      const schema = ContactInputSchema.safeParse(body);
      if (quick === undefined) continue;
      accepted++;
      expect(schema.success, JSON.stringify(body)).toBe(true);
      expect(quick).toEqual(schema.data);
    }
    // The comparison means something: many bodies took the quick way, and many did not.
    expect(accepted).toBeGreaterThan(40);
    expect(total - accepted).toBeGreaterThan(100);
  });

  it("checks emails with the schema's own pattern", () => {
    expect(z.email()._zod.def.pattern?.source ?? z.regexes.email.source).toBe(z.regexes.email.source);
  });

  it('takes the common body as it is', () => {
    const body = { external_id: 'u1', name: 'Ada', email: 'ada@example.com', phonenumber: null };
    expect(plainContactInput(body)).toBe(body);
    expect(plainContactInput({ external_id: 'u1', custom_attributes: { plan: 'pro' } })).toBeUndefined();
  });
});
