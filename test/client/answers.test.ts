// The answers the client reads: a payload in its envelope or bare, a page or a bare list, and
// the issues of an answer that breaks the contract named where they are.
import { describe, expect, it } from 'vitest';
import { ANSWERS } from '../../src/client/answers.js';

const contact = {
  id: 'ct_1',
  external_id: 'u1',
  name: 'Ada',
  email: null,
  phonenumber: null,
  custom_attributes: {},
  created_at: 1,
  updated_at: 2,
};

describe('ANSWERS', () => {
  it('reads a payload in the envelope or bare, stripe_accounts [] when left out', () => {
    const expected = { ok: true, value: { ...contact, stripe_accounts: [] } };
    expect(ANSWERS.contact({ message: 'Success', data: { ...contact } })).toEqual(expected);
    expect(ANSWERS.contact({ ...contact })).toEqual(expected);
  });

  it('names a field of the envelope’s data by its path in the body', () => {
    expect(ANSWERS.contact({ message: 'Success', data: { ...contact, id: 7 } })).toEqual({
      ok: false,
      issues: [{ field: 'data.id', message: 'expected string, received number' }],
    });
    expect(ANSWERS.contacts({ message: 'Success', data: [contact, { ...contact, name: 1 }] })).toEqual({
      ok: false,
      issues: [{ field: 'data.1.name', message: 'expected string or null, received number' }],
    });
  });

  it('reads a page, or a server’s bare list of every contact', () => {
    const page = {
      message: 'Success',
      data: [contact],
      total: 1,
      pages: { page: 1, per_page: 20, total_pages: 1 },
    };
    expect(ANSWERS.list(page).ok).toBe(true);
    expect(ANSWERS.list([contact])).toEqual({ ok: true, value: [{ ...contact, stripe_accounts: [] }] });
    expect(ANSWERS.list({ ...page, total: '1' }).ok).toBe(false);
  });

  it('reads an error body only with its message', () => {
    expect(ANSWERS.errorBody({ message: 'Not found', issues: [] }).ok).toBe(true);
    expect(ANSWERS.errorBody({ error: 'x' }).ok).toBe(false);
  });

  it('leaves an answer that fails as the service sent it, defaults not filled in', () => {
    const body = { message: 'Success', data: { ...contact, id: 7 } };
    expect(ANSWERS.contact(body).ok).toBe(false);
    expect(body).toEqual({ message: 'Success', data: { ...contact, id: 7 } });
  });

  it('reads a bare contact with a field named data as the contact, as a union of the two shapes would', () => {
    expect(ANSWERS.contact({ ...contact, data: 5 })).toEqual({
      ok: true,
      value: { ...contact, data: 5, stripe_accounts: [] },
    });
  });
});
