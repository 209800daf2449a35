// The envelopes around every payload, and zod's issues in the contract's dotted form.

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  ContactListResponseSchema,
  dataPayload,
  ErrorBodySchema,
  successEnvelope,
  toIssues,
} from '../../src/api/envelope.js';

describe('success envelopes', () => {
  it('successEnvelope wants message and data, and keeps fields it does not know', () => {
    const schema = successEnvelope(z.number());
    expect(schema.parse({ message: 'Success', data: 1, extra: true })).toEqual({
      message: 'Success',
      data: 1,
      extra: true,
    });
    expect(schema.safeParse({ data: 1 }).success).toBe(false);
  });

  it('dataPayload takes the data out of an envelope, or a bare body as it is', () => {
    const schema = dataPayload(z.object({ id: z.string() }));
    expect(schema.parse({ message: 'Success', data: { id: 'a' } })).toEqual({ id: 'a' });
    expect(schema.parse({ id: 'b' })).toEqual({ id: 'b' });
    expect(schema.safeParse({ message: 'Success', data: { id: 1 } }).success).toBe(false);
    const list = dataPayload(z.array(z.number()));
    expect(list.parse([1, 2])).toEqual([1, 2]);
    expect(list.parse({ message: 'Success', data: [3] })).toEqual([3]);
  });

  it('a contact list has its data, its total and its pages', () => {
    const page = {
      message: 'Success',
      data: [],
      total: 0,
      pages: { page: 1, per_page: 100, total_pages: 0 },
    };
    expect(ContactListResponseSchema.parse(page).pages.per_page).toBe(100);
    expect(ContactListResponseSchema.safeParse({ ...page, pages: undefined }).success).toBe(false);
  });

  it('an error body has a message, and issues when it names fields', () => {
    expect(ErrorBodySchema.parse({ message: 'Invalid input' })).toEqual({ message: 'Invalid input' });
    expect(ErrorBodySchema.safeParse({ message: 'x', issues: [{ field: 'email' }] }).success).toBe(false);
  });
});

describe('toIssues', () => {
  it('dots the path of each issue, names the body for a top-level one, and splits unknown keys', () => {
    const schema = z.strictObject({ users: z.array(z.strictObject({ email: z.email() })) });
    const result = schema.safeParse({ users: [{ email: 'a@b.co' }, { email: 'nope', x: 1, y: 2 }], z: 0 });
    expect(result.success).toBe(false);
    expect(toIssues(result.error!)).toEqual([
      { field: 'users.1.email', message: expect.any(String) },
      { field: 'users.1.x', message: 'Unknown field' },
      { field: 'users.1.y', message: 'Unknown field' },
      { field: 'z', message: 'Unknown field' },
    ]);
    const top = z.string().safeParse(1);
    expect(toIssues(top.error!)).toEqual([{ field: '(body)', message: expect.any(String) }]);
  });
});
