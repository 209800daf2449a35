// new ContactsClient() checks its options before it makes a transport: a missing key or base URL,
// a malformed key and retries that cannot be counted are InvalidOptionErrors naming the option.
import { describe, expect, it } from 'vitest';
import { ContactsClient } from '../../src/client/client.js';
import { ContactsError, InvalidOptionError } from '../../src/client/index.js';

const baseUrl = 'http://127.0.0.1:9';
const apiKey = 'bk_test_key';

describe('new ContactsClient()', () => {
  it.each([
    [{ baseUrl, apiKey: '' }, 'apiKey', 'missing'],
    [{ baseUrl, apiKey: 'sk_live_123' }, 'apiKey', 'invalid_value'],
    [{ baseUrl: 'ftp://example.com', apiKey }, 'baseUrl', 'invalid_value'],
    [{ baseUrl, apiKey, maxRetries: -1 }, 'maxRetries', 'out_of_range'],
    [{ baseUrl, apiKey, maxRetries: Number.NaN }, 'maxRetries', 'out_of_range'],
    [{ baseUrl, apiKey, timeoutMs: 0 }, 'timeoutMs', 'out_of_range'],
    [{ baseUrl, apiKey, onRetry: 'log' }, 'onRetry', 'invalid_type'],
  ])('%o: %s is %s', (options, param, code) => {
    const make = () => new ContactsClient(options as never);
    expect(make).toThrow(InvalidOptionError);
    expect(make).toThrow(expect.objectContaining({ param, code }));
    expect(make).toThrow(ContactsError);
  });

  it('never quotes the key it refuses', () => {
    expect(() => new ContactsClient({ baseUrl, apiKey: 42 as unknown as string })).toThrow(
      'new ContactsClient(): apiKey must be a string, not 42',
    );
    try {
      new ContactsClient({ baseUrl, apiKey: 'sk_live_secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('sk_live_secret');
    }
  });

  it('checks the retries of one call as it checks the client', async () => {
    const client = new ContactsClient({ baseUrl, apiKey, agentId: 'a1' });
    await expect(client.contacts.get('u1', { maxRetries: 1.5 })).rejects.toMatchObject({
      name: 'InvalidOptionError',
      param: 'maxRetries',
      message: 'maxRetries of the call must be a whole number, 0 or more, got 1.5',
    });
    await client.close();
  });
});
