// The mock's transport-free core: a request in, an answer out, no server and no socket.
import { describe, expect, it } from 'vitest';
import { CHATBOT_NOT_FOUND } from '../../src/api/messages.js';
import { paths } from '../../src/api/paths.js';
import { MockHttpError } from '../../src/mock/errors.js';
import {
  authenticate,
  createMockState,
  errorResponse,
  handleRequest,
  isJsonMediaType,
  type MockRequest,
  type MockState,
  newRequestId,
} from '../../src/mock/handler.js';

const KEY = 'bk_test_handler';

function request(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): MockRequest {
  return {
    method,
    path,
    query: new URLSearchParams(),
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  };
}

const send = (state: MockState, ...args: Parameters<typeof request>) =>
  handleRequest(state, request(...args));

describe('handleRequest', () => {
  it('upserts (201, then 200), reads and deletes a contact of an agent', () => {
    const state = createMockState();
    const created = send(state, 'POST', paths.contacts('a1'), { external_id: 'u1', name: 'Ann' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ message: 'Success', data: { external_id: 'u1', name: 'Ann' } });
    expect(send(state, 'POST', paths.contacts('a1'), { external_id: 'u1', name: 'Bo' }).status).toBe(200);
    expect(send(state, 'GET', paths.contact('a1', 'u1')).body).toMatchObject({ data: { name: 'Bo' } });
    expect(send(state, 'GET', paths.contact('a2', 'u1')).status).toBe(404);
    expect(send(state, 'DELETE', paths.contact('a1', 'u1')).status).toBe(200);
    expect(send(state, 'GET', paths.contact('a1', 'u1')).status).toBe(404);
  });

  it('gives every answer, errors included, its own request id, or the one the adapter passed', () => {
    const state = createMockState();
    const a = send(state, 'GET', paths.contacts('a1'));
    const b = send(state, 'GET', '/nowhere');
    expect(a.headers['x-request-id']).toMatch(/^req_\w+$/);
    expect(b.headers['x-request-id']).toMatch(/^req_\w+$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    const mine = handleRequest(state, { ...request('GET', '/health'), requestId: 'req_mine' });
    expect(mine.headers['x-request-id']).toBe('req_mine');
  });

  it('answers 404 for an agent not among those it serves, in production’s words', () => {
    const state = createMockState({ agents: ['a1'] });
    const res = send(state, 'GET', paths.contacts('ghost'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: CHATBOT_NOT_FOUND });
  });

  it('reports the fields it dropped, and refuses them in strict mode', () => {
    const loose = send(createMockState(), 'POST', paths.contacts('a1'), { external_id: 'u1', company: 'x' });
    expect(loose.status).toBe(201);
    expect(loose.ignored).toEqual(['company']);
    expect(loose.headers['x-contacts-ignored']).toBe('company');
    const strict = send(createMockState({ strict: true }), 'POST', paths.contacts('a1'), {
      external_id: 'u1',
      company: 'x',
    });
    expect(strict.status).toBe(400);
    expect(strict.body).toMatchObject({ issues: [{ field: 'company', message: 'Unknown field' }] });
  });

  it('refuses bodies it cannot read: none, not JSON by type or by text, not UTF-8, not an object', () => {
    const state = createMockState();
    const path = paths.contacts('a1');
    expect(send(state, 'POST', path).status).toBe(400);
    expect(send(state, 'POST', path, '{"external_id":"a"}', { 'content-type': 'text/plain' }).status).toBe(
      415,
    );
    expect((send(state, 'POST', path, '{"external_id":').body as { message: string }).message).toMatch(
      /^Malformed JSON/,
    );
    expect(send(state, 'POST', path, '[1]').body).toEqual({ message: 'The JSON body must be an object' });
    const latin1 = { ...request('POST', path, 'x'), body: Buffer.from([0x7b, 0xe9, 0x7d]) };
    expect(handleRequest(state, latin1).body).toEqual({ message: 'Request body is not valid UTF-8' });
    expect(state.store.contacts('a1')).toEqual([]);
  });

  it('refuses a method a path does not take with 405 and Allow, and a dot segment with 404', () => {
    const state = createMockState();
    const wrong = send(state, 'PUT', paths.contacts('a1'));
    expect(wrong.status).toBe(405);
    expect(wrong.headers['allow']).toBe('GET, POST');
    const dots = send(state, 'DELETE', '/api/v1/chatbots/a1/contacts/..');
    expect(dots.status).toBe(404);
    expect((dots.body as { message: string }).message).toMatch(/a "\.\." segment names no contact/);
  });

  it('takes a PATCH body bare or wrapped in data', () => {
    const state = createMockState();
    send(state, 'POST', paths.contacts('a1'), { external_id: 'u1' });
    expect(send(state, 'PATCH', paths.contact('a1', 'u1'), { name: 'Bare' }).body).toMatchObject({
      data: { name: 'Bare' },
    });
    expect(send(state, 'PATCH', paths.contact('a1', 'u1'), { data: { name: 'Wrapped' } }).body).toMatchObject(
      {
        data: { name: 'Wrapped' },
      },
    );
  });
});

describe('authenticate', () => {
  it('takes any well-formed bk_ key, or only the listed ones, and says the same for every refusal', () => {
    expect(() => authenticate({ keys: null }, `Bearer ${KEY}`)).not.toThrow();
    expect(() => authenticate({ keys: null }, [`bearer  ${KEY}`])).not.toThrow();
    for (const header of [undefined, '', 'Basic abc', 'Bearer sk_live_1', `Bearer ${KEY} extra`]) {
      const error = (() => {
        try {
          authenticate({ keys: null }, header);
        } catch (e) {
          return e;
        }
      })();
      expect(error, String(header)).toBeInstanceOf(MockHttpError);
      expect((error as MockHttpError).status).toBe(401);
      expect((error as MockHttpError).message).toBe('Unauthorized access');
    }
    expect(() => authenticate({ keys: new Set(['bk_other']) }, `Bearer ${KEY}`)).toThrow(
      'Unauthorized access',
    );
  });
});

describe('isJsonMediaType', () => {
  it('takes application/json and application/*+json, parameters and case aside', () => {
    expect(isJsonMediaType('application/json')).toBe(true);
    expect(isJsonMediaType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonMediaType(['application/merge-patch+json'])).toBe(true);
    expect(isJsonMediaType('text/json')).toBe(false);
    expect(isJsonMediaType('application/jsonp')).toBe(false);
    expect(isJsonMediaType(undefined)).toBe(false);
  });
});

describe('errorResponse and newRequestId', () => {
  it('an error answer carries message, code and issues, and a 5xx with a cause is kept for the operator', () => {
    const plain = errorResponse(
      new MockHttpError(409, 'Email already exists', { issues: [{ field: 'email', message: 'x' }] }),
    );
    expect(plain).toEqual({
      status: 409,
      headers: {},
      body: { message: 'Email already exists', issues: [{ field: 'email', message: 'x' }] },
    });
    const cause = new Error('disk full');
    const failed = errorResponse(new MockHttpError(500, 'Internal server error', { cause }));
    expect(failed.error).toBeInstanceOf(MockHttpError);
    expect(errorResponse(new MockHttpError(503, 'busy')).error).toBeUndefined();
  });

  it('request ids are unique, a thousand in a row', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    expect(new Set(ids).size).toBe(1000);
  });
});
