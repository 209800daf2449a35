// A number JSON cannot carry never leaves the client: JSON.stringify would send it as null,
// which clears the field (issue 21).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContactsClient } from '../../src/client/client.js';
import { ContactsError } from '../../src/core/error.js';
import type { MockServer } from '../../src/mock/server.js';
import { startTestMock, TEST_KEY } from '../helpers/mock.js';

let mock: MockServer;
beforeEach(async () => {
  mock = await startTestMock();
});
afterEach(() => mock.close());

describe('a non-finite number in a request body', () => {
  it('is refused with its key before anything is sent, in one contact or a batch', async () => {
    const client = new ContactsClient({ baseUrl: mock.url, apiKey: TEST_KEY, maxRetries: 0 });
    const body = { external_id: 'v1', custom_attributes: { num: Number.POSITIVE_INFINITY } };
    const one = await client.contacts.upsert(body, { agentId: 'a1' }).catch((e: unknown) => e);
    expect(one).toBeInstanceOf(ContactsError);
    expect((one as Error).message).toBe(
      'num: Infinity is no number JSON can carry (it would be sent as null, which clears)',
    );
    const many = await client.contacts
      .upsertMany([{ external_id: 'v2', custom_attributes: { num: Number.NaN } }], { agentId: 'a1' })
      .catch((e: unknown) => e);
    expect((many as Error).message).toMatch(/^num: NaN is no number JSON can carry/);
    expect(mock.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
