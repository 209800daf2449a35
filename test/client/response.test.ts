// Turning an answer into a typed payload or a typed error, checked against the contract; and a
// record read as tolerantly as the contract allows, through the client.
import { describe, expect, it } from 'vitest';
import { checkJson } from '../../src/api/answer-check.js';
import { ContactsClient } from '../../src/client/client.js';
import {
  AgentNotFoundError,
  APIError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  ResponseValidationError,
} from '../../src/client/errors.js';
import { parseBody, toAPIError } from '../../src/client/response.js';
import { AGENT, TEST_KEY } from '../helpers/mock.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const client = (baseUrl: string) =>
  new ContactsClient({ baseUrl, apiKey: TEST_KEY, agentId: AGENT, maxRetries: 0 });

const raw = (status: number, text: string, headers: Record<string, string> = {}) => ({
  status,
  text,
  headers,
});

describe('parseBody', () => {
  const schema = (body: unknown) =>
    checkJson(body, { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });

  it('returns the checked payload, with the fields the contract does not name', () => {
    expect(parseBody(raw(200, '{"id":"a","extra":1}'), schema, 'a thing')).toEqual({ id: 'a', extra: 1 });
  });

  it('a body that is not JSON, or breaks the contract, is a ResponseValidationError with the request id', () => {
    const notJson = (() => {
      try {
        parseBody(raw(200, '<html>', { 'x-request-id': 'req_1' }), schema, 'a thing');
      } catch (e) {
        return e as ResponseValidationError;
      }
    })();
    expect(notJson).toBeInstanceOf(ResponseValidationError);
    expect(notJson?.message).toBe('The service answered 200 with a body that is not JSON (expected a thing)');
    expect(notJson?.requestId).toBe('req_1');
    expect(() => parseBody(raw(200, '{"id":1}'), schema, 'a thing')).toThrow(
      "The service's response breaks the contract (expected a thing): id: expected string, received number",
    );
  });
});

describe('toAPIError', () => {
  it('takes the message and issues from the error body, the class from the status', () => {
    const error = toAPIError(
      raw(
        409,
        JSON.stringify({ message: 'Email already exists', issues: [{ field: 'email', message: 'taken' }] }),
      ),
      'POST',
      'http://x/api',
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toBe('409 Email already exists');
    expect(error.issues).toEqual([{ field: 'email', message: 'taken' }]);
    expect([error.method, error.url]).toEqual(['POST', 'http://x/api']);
  });

  it('knows production’s words: "Chatbot not found" is an unknown agent', () => {
    const agent = toAPIError(raw(404, '{"message":"Chatbot not found"}'), 'GET', 'u');
    expect(agent).toBeInstanceOf(AgentNotFoundError);
    const contact = toAPIError(raw(404, '{"message":"Contact not found"}'), 'GET', 'u');
    expect(contact).toBeInstanceOf(NotFoundError);
    expect(contact).not.toBeInstanceOf(AgentNotFoundError);
  });

  it('says the status in words when the body has none, and keeps a body that is not JSON as text', () => {
    const gateway = toAPIError(raw(502, '<html>bad gateway</html>'), 'GET', 'u');
    expect(gateway).toBeInstanceOf(InternalServerError);
    expect(gateway.message).toBe('502 Bad Gateway');
    expect(gateway.body).toBe('<html>bad gateway</html>');
    expect(toAPIError(raw(418, ''), 'GET', 'u').message).toBe('418 HTTP error');
    expect(toAPIError(raw(418, ''), 'GET', 'u')).toBeInstanceOf(APIError);
  });

  it('redacts the key wherever the answer echoes it', () => {
    const key = 'bk_live_echoed';
    const error = toAPIError(
      raw(401, JSON.stringify({ message: `Bad key ${key}`, issues: [{ field: 'k', message: key }] }), {
        'x-echo': key,
      }),
      'GET',
      'u',
      [key],
    );
    expect(JSON.stringify([error.message, error.body, error.issues, error.headers])).not.toContain('echoed');
  });
});

describe('records', () => {
  it('read a Stripe account whose missing id or email comes as null, and a record without the list', async () => {
    const record = {
      id: 'ct_1',
      external_id: 'r1',
      name: null,
      email: null,
      phonenumber: null,
      custom_attributes: {},
      created_at: 1,
      updated_at: 1,
    };
    const server = await startScriptedServer([
      {
        status: 200,
        body: {
          message: 'Success',
          data: { ...record, stripe_accounts: [{ label: 'main', stripe_id: 'cus_1', stripe_email: null }] },
        },
      },
      { status: 200, body: { message: 'Success', data: record } },
    ]);
    const c = client(server.url);
    expect((await c.contacts.get('r1')).stripe_accounts).toEqual([
      { label: 'main', stripe_id: 'cus_1', stripe_email: null },
    ]);
    // A server of revision 1 leaves the list out: none.
    expect((await c.contacts.get('r1')).stripe_accounts).toEqual([]);
    await c.close();
    await server.close();
  });
});
