// Issue "nothing lost, nothing injected", keys: the exact key is redacted whatever it holds,
// keys a header cannot carry are refused with a clear message, and the mock takes only bk_ keys.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { ContactsClient } from '../../src/client/client.js';
import { AuthenticationError } from '../../src/client/errors.js';
import { redactDeep, redactSecrets } from '../../src/core/redact.js';
import { BIN, runBin, runInProcess, useTempHome } from '../helpers/cli.js';
import { api, startTestMock } from '../helpers/mock.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const home = useTempHome();

describe('redaction of the exact key', () => {
  const key = 'bk_live<secret>tail&x=1';
  it('removes the key as is, JSON-escaped and URL-encoded, whatever it holds', () => {
    const text = `raw ${key}; json ${JSON.stringify({ k: key })}; url ?key=${encodeURIComponent(key)}`;
    const out = redactSecrets(text, [key]);
    expect(out).not.toContain('secret');
    expect(out).not.toContain('tail');
  });

  it('redacts a parsed body without re-parsing it, so a quote in a key cannot break it', () => {
    const quoted = 'bk_ab"cd\'ef<gh';
    const body = { message: `bad key ${quoted}`, nested: [{ [quoted]: quoted }] };
    const out = JSON.stringify(redactDeep(body, [quoted]));
    expect(out).not.toContain('cd');
    expect(out).not.toContain('gh');
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let deep: unknown = 'bk_deep_secret_1';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => redactDeep(deep, ['bk_deep_secret_1'])).not.toThrow();
  });

  it('keeps a key that a server echoes out of the error, its body, its headers and --debug', async () => {
    const server = await startScriptedServer([
      {
        status: 401,
        body: { message: `Key ${key} is not valid`, echo: { key } },
        headers: { 'x-echo': key },
      },
    ]);
    try {
      const client = new ContactsClient({ baseUrl: server.url, apiKey: key, agentId: 'a', maxRetries: 0 });
      const error = await client.contacts.get('x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      const seen = JSON.stringify([
        (error as AuthenticationError).message,
        (error as AuthenticationError).body,
        (error as AuthenticationError).headers,
      ]);
      expect(seen).not.toContain('secret');
      await client.close();

      const env = { ...home.env, CONTACTS_API_KEY: key, CONTACTS_BASE_URL: server.url, CONTACTS_AGENT: 'a' };
      const r = await runBin(['get', 'x', '--debug'], { env, cwd: home.dir });
      expect(r.code).toBe(ExitCode.AUTH);
      expect(r.stderr).toContain('[REDACTED]');
      expect(r.stderr + r.stdout).not.toContain('secret');
      expect(r.stderr + r.stdout).not.toContain('tail&');
    } finally {
      await server.close();
    }
  });
});

describe('keys a header cannot carry', () => {
  it('auth login refuses them with a clear message and stores nothing', async () => {
    for (const bad of ['bk_has space', 'bk_has"quote', "bk_has'quote", 'bk_ctrl\u0001x']) {
      const r = await runInProcess(['auth', 'login', '--with-key'], { env: home.env, stdin: bad });
      expect(r.code, bad).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(/cannot carry/);
      expect(r.stderr).not.toContain(bad.slice(3));
    }
    const status = await runInProcess(['auth', 'status', '-o', 'json'], { env: home.env });
    expect(JSON.parse(status.stdout).key).toBeNull();
  });

  it('a key from the environment with a quote is refused before any request (exit 3, not 1)', async () => {
    const server = await startScriptedServer([{ status: 200, body: {} }]);
    try {
      const env = { ...home.env, CONTACTS_API_KEY: 'bk_ab"cd1234', CONTACTS_BASE_URL: server.url };
      const r = await runInProcess(['get', 'x', '--agent', 'a'], { env });
      expect(r.code).toBe(ExitCode.AUTH);
      expect(r.stderr).toMatch(/CONTACTS_API_KEY is not a valid bk_ key/);
      expect(r.stderr).not.toContain('cd1234');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('the mock and serve', () => {
  it('refuses BK_ keys: the prefix is case-sensitive', async () => {
    const mock = await startTestMock();
    const r = await api(mock.url, 'BK_live_0123456789').get('/api/v1/chatbots/a/contacts');
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Unauthorized access');
  });

  it('serve --key with a malformed key is a usage error, since no client could match it', async () => {
    const r = await runInProcess(['serve', '--mock', '--port', '0', '--key', 'notbk'], { env: home.env });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/--key: not a workspace key: it does not start with "bk_"/);
  });

  it('serve on a non-loopback address without --key warns that anyone can write', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--mock', '--port', '0', '--host', '0.0.0.0'], {
      env: home.env,
      cwd: home.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines = createInterface({ input: child.stderr });
      let warning = '';
      for await (const line of lines) {
        if (line.startsWith('warning:')) warning = line;
        if (line.startsWith('Mock Contacts API on')) break;
      }
      expect(warning).toMatch(/anyone who can reach this machine can read and write/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
