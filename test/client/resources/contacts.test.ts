// `client.contacts`: an id of `.` or `..` is refused before any request (a proxy or server would
// resolve it away: `DELETE .../contacts/..` would reach `.../chatbots/a1/`).
import { afterEach, describe, expect, it } from 'vitest';
import { ContactsClient, PathParamError } from '../../../src/index.js';
import { type ScriptedServer, startScriptedServer } from '../../helpers/scripted-server.js';

let server: ScriptedServer | undefined;
let client: ContactsClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

async function setup() {
  server = await startScriptedServer([{ status: 200, body: { message: 'Success', data: [] } }]);
  client = new ContactsClient({ baseUrl: server.url, apiKey: 'bk_test_key_0123456789', agentId: 'a1' });
  return { client, server };
}

describe('contacts: ids no path can carry', () => {
  it('refuses `.` and `..` for get, update and delete, and sends nothing', async () => {
    const { client, server } = await setup();
    for (const id of ['.', '..']) {
      await expect(client.contacts.get(id)).rejects.toMatchObject({
        name: 'PathParamError',
        param: 'id',
        value: id,
      });
      await expect(client.contacts.update(id, { name: 'x' })).rejects.toBeInstanceOf(PathParamError);
      await expect(client.contacts.delete(id)).rejects.toThrow(
        `The contact id "${id}" cannot go in a request path`,
      );
    }
    expect(server.requests).toEqual([]);
    // Names with dots that are not dot segments go as they are.
    await client.contacts.delete('...').catch(() => {});
    await client.contacts.get('%2e').catch(() => {});
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/chatbots/a1/contacts/...',
      '/api/v1/chatbots/a1/contacts/%252e',
    ]);
  });

  it('refuses an agent id of `.` or `..`, given to the call or to the client', async () => {
    const { client, server } = await setup();
    await expect(client.contacts.list({ agentId: '..' })).rejects.toMatchObject({ param: 'agentId' });
    await expect(client.contacts.upsert({ external_id: 'u1' }, { agentId: '.' })).rejects.toMatchObject({
      param: 'agentId',
    });
    const dotted = new ContactsClient({
      baseUrl: server.url,
      apiKey: 'bk_test_key_0123456789',
      agentId: '..',
    });
    await expect(dotted.contacts.get('u1')).rejects.toMatchObject({ param: 'agentId', value: '..' });
    await dotted.close();
    expect(server.requests).toEqual([]);
  });
});
