// A server that is down or mistyped fails a command in about a second, not fifty; --max-retries
// and --timeout tune the rest.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { ContactsClient } from '../../src/client/client.js';
import { APIConnectionError } from '../../src/client/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { refusedPort } from '../helpers/refused-port.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const home = useTempHome();

const KEY = 'bk_live_fail_fast_1234';

describe('nothing listening', () => {
  it('fails after a couple of quick tries, not the whole backoff ladder', async () => {
    const port = await refusedPort();
    const retries: number[] = [];
    const client = new ContactsClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      agentId: 'a',
      maxRetries: 10,
      onRetry: (e) => retries.push(e.delayMs),
    });
    const error = await client.contacts.get('u1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    // The waits it took, as the retry policy decided them: quick, and not the ten asked for.
    expect(retries).toEqual([500]);
    await client.close();
  });

  it('an import against a stopped server ends in seconds with exit 7', async () => {
    const port = await refusedPort();
    const env = { ...home.env, CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: `http://127.0.0.1:${port}` };
    // The whole ladder (ten retries, up to 8 s apart) would outlast the test's own timeout.
    const r = await runInProcess(['import', '-', '--agent', 'a', '--format', 'ndjson'], {
      env,
      cwd: home.dir,
      stdin: '{"external_id":"u1"}\n',
    });
    expect(r.code).toBe(ExitCode.NETWORK);
    expect(r.stderr).toMatch(/Could not reach .*ECONNREFUSED/);
  });
});

describe('--max-retries and --timeout', () => {
  it('--max-retries 0 makes one attempt; the setting does the same', async () => {
    const server = await startScriptedServer([{ status: 503, body: { message: 'down' } }]);
    try {
      const env = { ...home.env, CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: server.url };
      const r = await runInProcess(['--max-retries', '0', 'get', 'u1', '--agent', 'a'], {
        env,
        cwd: home.dir,
      });
      expect(r.code).toBe(ExitCode.SERVICE);
      expect(server.requests).toHaveLength(1);
      await runInProcess(['config', 'set', 'max-retries', '1'], { env, cwd: home.dir });
      await runInProcess(['get', 'u1', '--agent', 'a'], { env, cwd: home.dir });
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('--timeout bounds each attempt', async () => {
    const server = await startScriptedServer([{ hang: true }]);
    try {
      const env = { ...home.env, CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: server.url };
      // The server never answers: only the timeout can end the command, and it says which.
      const r = await runInProcess(
        ['--timeout', '300ms', '--max-retries', '0', 'get', 'u1', '--agent', 'a'],
        {
          env,
          cwd: home.dir,
        },
      );
      expect(r.code).toBe(ExitCode.NETWORK);
      expect(r.stderr).toMatch(/timed out after 300ms/);
      const bad = await runInProcess(['--timeout', 'soon', 'get', 'u1', '--agent', 'a'], {
        env,
        cwd: home.dir,
      });
      expect(bad.code).toBe(ExitCode.USAGE);
      expect(bad.stderr).toMatch(/Invalid timeout from --timeout: soon/);
    } finally {
      await server.close();
    }
  });
});
