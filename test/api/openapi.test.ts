// The OpenAPI document generated from the contract's schemas and its table of operations.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/api/openapi.js';

describe('7. the OpenAPI document says all of it', () => {
  it('has stripe_accounts, the headers, 200 for a definition and the agent 404', async () => {
    const text = JSON.stringify(buildOpenApiDocument());
    const doc = JSON.parse(text);
    expect(doc.components.schemas.Contact.properties.stripe_accounts).toBeDefined();
    expect(doc.components.schemas.ContactInput.properties.stripe_accounts).toBeDefined();
    const define = doc.paths['/api/v1/chatbots/{agentId}/custom-attributes'].post;
    expect(Object.keys(define.responses)).toContain('200');
    expect(define.responses['201']).toBeUndefined();
    const upsert = doc.paths['/api/v1/chatbots/{agentId}/contacts'].post;
    expect(upsert.responses['201'].headers).toHaveProperty('x-contacts-ignored');
    expect(upsert.responses['201'].headers).toHaveProperty('x-request-id');
    expect(upsert.responses['201'].headers).toHaveProperty('x-contacts-ignored-count');
    expect(upsert.responses['404'].description).toMatch(/Chatbot not found/);
    // Records as answered: the list is always there. Inputs as read: unknown fields are dropped,
    // not forbidden, and a Stripe account needs an id or an email.
    expect(doc.components.schemas.Contact.required).toContain('stripe_accounts');
    for (const id of ['ContactInput', 'ContactPatch', 'BatchUpsert', 'StripeAccountInput']) {
      expect(doc.components.schemas[id].additionalProperties, id).toBeUndefined();
    }
    expect(doc.components.schemas.AttributeCreate.additionalProperties).toBe(false);
    expect(doc.components.schemas.StripeAccountInput.anyOf).toEqual([
      { required: ['stripe_id'] },
      { required: ['stripe_email'] },
    ]);
    // Strict mode is a mock option, not part of the API.
    expect(text).not.toMatch(/strict/i);
    const served = JSON.parse(await readFile(new URL('../../dist/openapi.json', import.meta.url), 'utf8'));
    expect(served.paths).toEqual(doc.paths);
  });
});
