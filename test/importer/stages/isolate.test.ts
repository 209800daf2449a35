// Reading a refusal: the reason a row is rejected with, and the items of a batch the service named.
import { describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError } from '../../../src/client/errors.js';
import { namedItems, rejectionReason } from '../../../src/importer/stages/isolate.js';

const refusal = (
  ErrorClass: typeof ConflictError,
  body: { message: string; issues?: Record<string, unknown>[]; [key: string]: unknown },
) =>
  new ErrorClass({
    status: ErrorClass === ConflictError ? 409 : 400,
    message: body.message,
    body,
    issues: (body.issues ?? []) as { field: string; message: string }[],
    method: 'POST',
    url: 'http://127.0.0.1/api/v1/agents/a/contacts',
  });

describe('a 409 for an email another contact holds', () => {
  it('is the reason as the contract gives it: no holder named', () => {
    expect(rejectionReason(refusal(ConflictError, { message: 'Email already exists' }))).toBe(
      'Email already exists',
    );
    const batch = refusal(ConflictError, {
      message: 'Email already exists',
      issues: [{ field: 'users.1.email', message: 'Email already exists' }],
    });
    expect([...namedItems(batch, 2)]).toEqual([[1, 'email: Email already exists']]);
  });

  it('names the holder where the service gives its external_id, else its id', () => {
    const single = refusal(ConflictError, { message: 'Email already exists', external_id: 'crm-7' });
    expect(rejectionReason(single)).toBe('Email already exists (held by the contact with external_id crm-7)');
    const batch = refusal(ConflictError, {
      message: 'Email already exists',
      issues: [
        { field: 'users.0.email', message: 'Email already exists', id: 'c_123' },
        { field: 'users.2.email', message: 'Email already exists', external_id: 'crm-9', id: 'c_9' },
      ],
    });
    expect([...namedItems(batch, 3)]).toEqual([
      [0, 'email: Email already exists (held by the contact with id c_123)'],
      [2, 'email: Email already exists (held by the contact with external_id crm-9)'],
    ]);
    expect(rejectionReason(batch)).toContain(
      'users.0.email: Email already exists (held by the contact with id c_123)',
    );
  });

  it('names nobody for another status', () => {
    const invalid = refusal(BadRequestError, {
      message: 'Invalid request body',
      issues: [{ field: 'email', message: 'Invalid email', external_id: 'x' }],
    });
    expect(rejectionReason(invalid)).toBe('email: Invalid email');
  });
});
