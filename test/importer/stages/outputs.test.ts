// The import's outputs pass the one output-path rule before anything is sent: a library caller
// gets the refusal as an OutputPathError with a code, naming the output and what it would replace.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContactsClient } from '../../../src/client/client.js';
import { OutputPathError, runImport } from '../../../src/import.js';
import { startTestMock, TEST_KEY } from '../../helpers/mock.js';
import { tempDir } from '../helpers.js';

const AGENT = 'out';
const clients: ContactsClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setup() {
  const mock = await startTestMock({ keys: [TEST_KEY] });
  const client = new ContactsClient({ baseUrl: mock.url, apiKey: TEST_KEY, agentId: AGENT });
  clients.push(client);
  const dir = await tempDir();
  const input = join(dir, 'in.csv');
  await writeFile(input, 'external_id,email\nu1,u1@example.com\nu2,bad\n');
  const refused = (options: Partial<Parameters<typeof runImport>[0]>) =>
    runImport({ client, agentId: AGENT, input, undoDir: join(dir, 'undo'), ...options }).then(
      () => expect.unreachable('the import ran'),
      (e: unknown) => {
        expect(e).toBeInstanceOf(OutputPathError);
        return e as OutputPathError;
      },
    );
  return { mock, dir, input, refused };
}

describe('openOutputs', () => {
  it('refuses the fixes and the results in one file, naming both; nothing is sent or written', async () => {
    const { mock, dir, refused } = await setup();
    const e = await refused({ fixesPath: join(dir, 'x.csv'), resultsPath: join(dir, 'x.csv') });
    expect(e.code).toBe('same_file');
    expect(e.output).toBe('results');
    expect(e.conflict).toMatchObject({ output: 'fixes', path: join(dir, 'x.csv') });
    expect(mock.store.contacts(AGENT)).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(['in.csv']);
  });

  it('refuses a path the caller protects, the input, and one in the undo records directory', async () => {
    const { dir, input, refused } = await setup();
    const config = join(dir, 'config.json');
    await writeFile(config, '{"key":"k"}');
    const protectedOne = await refused({
      rejectsPath: config,
      protect: [{ path: config, what: 'the config file' }],
    });
    expect(protectedOne).toMatchObject({ code: 'protected_file', output: 'rejects' });
    expect(protectedOne.message).toBe(
      `Cannot write the rejects file ${config}: it is the config file (${config}), which would be overwritten`,
    );
    expect(await readFile(config, 'utf8')).toBe('{"key":"k"}');
    expect((await refused({ resultsPath: input })).conflict?.what).toBe('the input');
    expect((await refused({ resultsPath: join(dir, 'undo', 'r.csv') })).conflict?.what).toBe(
      'the undo records directory',
    );
  });

  it('refuses a rejects path that is the checkpoint', async () => {
    const { input, refused } = await setup();
    const e = await refused({ rejectsPath: `${input}.import-checkpoint.json` });
    expect(e).toMatchObject({ code: 'same_file', output: 'rejects', conflict: { output: 'checkpoint' } });
  });
});
