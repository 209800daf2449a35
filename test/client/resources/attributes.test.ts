// `client.attributes`: a name of `.` or `..` is refused before any request.
import { afterEach, describe, expect, it } from 'vitest';
import { ContactsClient, PathParamError } from '../../../src/index.js';
import { type ScriptedServer, startScriptedServer } from '../../helpers/scripted-server.js';

let server: ScriptedServer | undefined;
let client: ContactsClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

describe('attributes: names no path can carry', () => {
  it('refuses `.` and `..` for update, and sends nothing', async () => {
    server = await startScriptedServer([{ status: 200, body: {} }]);
    client = new ContactsClient({ baseUrl: server.url, apiKey: 'bk_test_key_0123456789', agentId: 'a1' });
    for (const name of ['.', '..']) {
      const error = await client.attributes.update(name, { label: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PathParamError);
      expect(error).toMatchObject({ param: 'name', value: name });
    }
    expect(server.requests).toEqual([]);
  });
});
