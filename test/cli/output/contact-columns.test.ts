import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../src/api/contact.js';
import { UsageError } from '../../../src/cli/errors.js';
import {
  CONTACT_COLUMN_NAMES,
  defaultContactColumns,
  parseContactColumns,
} from '../../../src/cli/output/contact-columns.js';

const ADA: Contact = {
  id: 'ct_1',
  external_id: 'u_1',
  name: 'Ada',
  email: 'ada@example.com',
  phonenumber: '+442079460958',
  stripe_accounts: [{ label: 'main', stripe_id: 'cus_1', stripe_email: 'billing@example.com' }],
  custom_attributes: { plan: 'pro', Plan: 'other', seats: 3, gone: null },
  created_at: 1_717_156_800,
  updated_at: 1_717_243_200,
};

function refusal(spec: string): UsageError {
  try {
    parseContactColumns(spec);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`--columns ${spec} was accepted`);
}

describe('--columns', () => {
  it('takes the names the table shows, in the order given, with their values', () => {
    const columns = parseContactColumns('email, id,external_id,updated_at,stripe,attributes');
    expect(columns.map((c) => c.header)).toEqual([
      'email',
      'id',
      'external_id',
      'updated_at',
      'stripe',
      'attributes',
    ]);
    expect(columns.map((c) => c.value(ADA))).toEqual([
      'ada@example.com',
      'ct_1',
      'u_1',
      '2024-06-01T12:00:00Z',
      'main (cus_1, billing@example.com)',
      'Plan=other, plan=pro, seats=3',
    ]);
  });

  it('takes the API field names and --phone as other spellings, any case, and a column once', () => {
    const columns = parseContactColumns('Phone,stripe_accounts,CUSTOM_ATTRIBUTES,phonenumber');
    expect(columns.map((c) => c.header)).toEqual(['phonenumber', 'stripe', 'attributes']);
  });

  it('takes attr.<name> for one custom attribute, its name case-sensitive', () => {
    const columns = parseContactColumns('attr.plan,attr.Plan,attr.seats,attr.none,attr.constructor');
    expect(columns.map((c) => c.header)).toEqual([
      'attr.plan',
      'attr.Plan',
      'attr.seats',
      'attr.none',
      'attr.constructor',
    ]);
    expect(columns.map((c) => c.value(ADA))).toEqual(['pro', 'other', 3, undefined, undefined]);
  });

  it('shows every column asked for: none is left out for being empty or for the width', () => {
    for (const column of parseContactColumns(CONTACT_COLUMN_NAMES.join(','))) {
      expect(column.dropWhenEmpty).toBeUndefined();
      expect(column.drop).toBeUndefined();
    }
  });

  it('refuses an unknown name with the closest known one and the list of every one', () => {
    const error = refusal('external_id,emial');
    expect(error.message).toBe('--columns: unknown column "emial" (did you mean email?)');
    expect(error.exitCode).toBe(2);
    expect(error.hint).toBe(
      'Columns: id, external_id, name, email, phonenumber, stripe, attributes, created_at, updated_at, or attr.<name> for one custom attribute.',
    );
    expect(refusal('colour').message).toBe('--columns: unknown column "colour"');
    expect(refusal('attr.').message).toContain('unknown column "attr."');
  });

  it('refuses an empty list', () => {
    expect(refusal(' , ').message).toBe('--columns needs at least one column');
  });
});

describe('the default columns', () => {
  it('are external_id to updated_at, each left out when empty on the page; ids, emails, phones and times never cut', () => {
    const columns = defaultContactColumns();
    expect(columns.map((c) => c.header)).toEqual([
      'external_id',
      'name',
      'email',
      'phonenumber',
      'stripe',
      'attributes',
      'updated_at',
    ]);
    expect(columns.every((c) => c.dropWhenEmpty)).toBe(true);
    const whole = columns.filter((c) => c.fit === 'whole').map((c) => c.header);
    expect(whole).toEqual(['external_id', 'email', 'phonenumber', 'stripe', 'updated_at']);
    const never = columns.filter((c) => c.drop === undefined).map((c) => c.header);
    expect(never).toEqual(['external_id', 'email', 'phonenumber']);
  });
});
