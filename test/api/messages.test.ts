// The service's words, defined once: what the contract quotes, what the mock answers, and what
// the client recognises are the same strings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as messages from '../../src/api/messages.js';
import {
  AgentNotFoundError,
  BadRequestError,
  ContactLimitError,
  errorClassFor,
  NotFoundError,
} from '../../src/client/errors.js';
import { createMockState, handleRequest } from '../../src/mock/handler.js';

const CONTRACT = readFileSync(join(import.meta.dirname, '../../docs/contract.md'), 'utf8');

describe('the API messages', () => {
  it('are the words the contract quotes', () => {
    // Two are production's own words that the contract does not quote.
    const unquoted = new Set([messages.ATTRIBUTE_NOT_FOUND, messages.EXTERNAL_ID_EXISTS]);
    const quoted = Object.values(messages).filter((m) => !unquoted.has(m));
    expect(quoted.length).toBeGreaterThan(10);
    for (const message of quoted) expect(CONTRACT, message).toContain(message);
  });

  it('choose the client error the mock means by them', () => {
    expect(errorClassFor(400, messages.MAX_CONTACTS_REACHED)).toBe(ContactLimitError);
    expect(errorClassFor(404, messages.CHATBOT_NOT_FOUND)).toBe(AgentNotFoundError);
    expect(errorClassFor(404, messages.CONTACT_NOT_FOUND)).toBe(NotFoundError);
    expect(errorClassFor(400, messages.INVALID_BODY)).toBe(BadRequestError);
  });

  it('are what the mock answers', () => {
    const state = createMockState({ agents: ['a'], maxContacts: 0 });
    const headers = { authorization: 'Bearer bk_x', 'content-type': 'application/json' };
    const call = (method: string, path: string, body?: string) =>
      handleRequest(state, { method, path, query: new URLSearchParams(), headers, body }).body;
    expect(call('GET', '/api/v1/chatbots/b/contacts/x')).toEqual({ message: messages.CHATBOT_NOT_FOUND });
    expect(call('GET', '/api/v1/chatbots/a/contacts/x')).toEqual({ message: messages.CONTACT_NOT_FOUND });
    expect(call('POST', '/api/v1/chatbots/a/contacts', '{"external_id":"x"}')).toEqual({
      message: messages.MAX_CONTACTS_REACHED,
    });
    expect(call('GET', '/api/v1/chatbots/a/contacts')).toMatchObject({ message: messages.SUCCESS, total: 0 });
  });
});
