// The mock's errors: a contract error carries what its answer says; the file and seed errors
// what the operator needs.
import { describe, expect, it } from 'vitest';
import {
  badRequest,
  conflict,
  MockDataFileError,
  MockHttpError,
  notFound,
  SeedError,
} from '../../src/mock/errors.js';
import { errorResponse } from '../../src/mock/handler.js';

describe('MockHttpError', () => {
  it('the helpers give the statuses their names say, issues kept', () => {
    const issues = [{ field: 'email', message: 'Email already exists' }];
    expect([badRequest('x').status, notFound('x').status, conflict('x').status]).toEqual([400, 404, 409]);
    expect(conflict('Conflict', issues).issues).toBe(issues);
    expect(badRequest('x').headers).toEqual({});
    expect(notFound('Chatbot not found')).toBeInstanceOf(MockHttpError);
  });

  it('keeps a cause only when given one, and its headers go into the answer', () => {
    expect(Object.hasOwn(new MockHttpError(500, 'x'), 'cause')).toBe(false);
    const cause = new Error('disk full');
    expect(new MockHttpError(500, 'x', { cause }).cause).toBe(cause);
    const limited = new MockHttpError(429, 'Rate limit exceeded', { headers: { 'retry-after': '1' } });
    expect(errorResponse(limited).headers).toEqual({ 'retry-after': '1' });
  });
});

describe('MockDataFileError and SeedError', () => {
  it('name the file, and carry the hint and the cause', () => {
    const cause = new Error('SQLITE_NOTADB');
    const error = new MockDataFileError('/tmp/x.db', 'not a database', { cause, hint: 'Move it away.' });
    expect([error.file, error.hint, error.cause, error.name]).toEqual([
      '/tmp/x.db',
      'Move it away.',
      cause,
      'MockDataFileError',
    ]);
    expect(new MockDataFileError('f', 'm').hint).toBeUndefined();
    expect(new SeedError('seed.csv, line 3: bad').name).toBe('SeedError');
  });
});
