// HTTPS_PROXY / HTTP_PROXY / NO_PROXY: a real forward proxy on port 0 between the client (and
// the CLI) and the mock, and NO_PROXY read as curl reads it. Loopback never goes through a
// proxy, so the mock is addressed as contacts.test, which only the test proxy resolves.
import { describe, expect, it, onTestFinished } from 'vitest';
import { bypasses, proxyFor, proxyFromEnv, redactProxy } from '../../src/client/proxy.js';
import { APITimeoutError, ContactsClient } from '../../src/index.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';

/** The mock's URL under a name that is not this machine: only the test proxy can reach it. */
const remote = (url: string) => url.replace('127.0.0.1', 'contacts.test');

import { startProxy } from '../helpers/proxy.js';
import { startScriptedServer, startSilentServer } from '../helpers/scripted-server.js';

describe('the client through a proxy', () => {
  it('sends an http:// request to the proxy as a forward request', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY], allowedHosts: ['contacts.test'] });
    const proxy = await startProxy();
    const client = new ContactsClient({
      baseUrl: remote(mock.url),
      apiKey: TEST_KEY,
      proxy: { httpProxy: proxy.url },
    });
    onTestFinished(() => client.close());
    const page = await client.contacts.list({ agentId: AGENT });
    expect(page.total).toBe(0);
    expect(proxy.seen).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: `${remote(mock.url)}/api/v1/chatbots/${AGENT}/contacts`,
      }),
    ]);
  });

  it('goes direct to this machine whatever the proxy settings say', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY], allowedHosts: ['contacts.test'] });
    const proxy = await startProxy();
    const loopback = new ContactsClient({
      baseUrl: mock.url,
      apiKey: TEST_KEY,
      proxy: { httpProxy: proxy.url, httpsProxy: proxy.url },
    });
    onTestFinished(() => loopback.close());
    await loopback.contacts.list({ agentId: AGENT });
    expect(proxy.seen).toEqual([]);
  });
});

describe('a proxy that never opens the tunnel', () => {
  async function throughSilentProxy(options: { trickle?: number }, timeoutMs: number) {
    const proxy = await startSilentServer(options);
    onTestFinished(() => proxy.close());
    const client = new ContactsClient({
      baseUrl: 'https://contacts.test',
      apiKey: TEST_KEY,
      agentId: AGENT,
      timeoutMs,
      maxRetries: 0,
      proxy: { httpsProxy: proxy.url },
    });
    onTestFinished(() => client.close());
    return { client, proxy };
  }

  it('never answering CONNECT: the request ends at its deadline, saying it had no connection through the proxy', async () => {
    const { client, proxy } = await throughSilentProxy({}, 50);
    const err = await client.contacts.get('u1').catch((e) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err.message).toBe(
      `Request timed out after 50ms: GET https://contacts.test/api/v1/chatbots/${AGENT}/contacts/u1 (no connection via proxy ${proxy.url} yet)`,
    );
    expect(proxy.connections()).toBe(1);
  });

  it('trickling its answer to CONNECT a byte at a time: the request ends at its deadline', async () => {
    const { client } = await throughSilentProxy({ trickle: 5 }, 100);
    await expect(client.contacts.get('u1')).rejects.toThrow(
      /^Request timed out after 100ms: .*\(no connection via proxy /,
    );
  });

  it("a call's longer deadline still gets the CONNECT answered within the client's", async () => {
    const { client } = await throughSilentProxy({}, 50);
    const err = await client.contacts.get('u1', { timeoutMs: 600_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err.message).toMatch(
      /^Connecting timed out after 50ms: GET https:\/\/contacts\.test\/\S+ \(no connection via proxy /,
    );
  });

  const home = useTempHome();
  it('the CLI: HTTPS_PROXY that never answers, --timeout ends the command (exit 7)', async () => {
    const proxy = await startSilentServer();
    onTestFinished(() => proxy.close());
    const r = await runInProcess(
      [
        '--base-url',
        'https://contacts.test',
        '--timeout',
        '100ms',
        '--max-retries',
        '0',
        'list',
        '--agent',
        AGENT,
      ],
      { env: { ...home.env, CONTACTS_API_KEY: TEST_KEY, HTTPS_PROXY: proxy.url }, cwd: home.dir },
    );
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`error: Request timed out after 100ms: GET https://contacts.test/`);
    expect(r.stderr).toContain(`(no connection via proxy ${proxy.url} yet)`);
  });
});

describe('the CLI through a proxy', () => {
  const home = useTempHome();
  it.each([['HTTP_PROXY'], ['http_proxy']])(
    'honours %s, sends the credentials to the proxy and --debug names it with them redacted',
    async (variable) => {
      const mock = await startTestMock({ keys: [TEST_KEY], allowedHosts: ['contacts.test'] });
      const proxy = await startProxy();
      const withCredentials = proxy.url.replace('http://', 'http://proxyuser:s3cr3t@');
      const r = await runInProcess(['--debug', 'list', '--agent', AGENT, '-o', 'json'], {
        env: {
          ...home.env,
          CONTACTS_API_KEY: TEST_KEY,
          CONTACTS_BASE_URL: remote(mock.url),
          CONTACTS_INSECURE_HTTP: '1',
          [variable]: withCredentials,
        },
        cwd: home.dir,
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('[]\n');
      expect(proxy.seen).toHaveLength(1);
      expect(proxy.seen[0]!.proxyAuthorization).toBe(
        `Basic ${Buffer.from('proxyuser:s3cr3t').toString('base64')}`,
      );
      expect(r.stderr).toContain(`via proxy ${proxy.url.replace('http://', 'http://***@')}`);
      expect(r.stderr).not.toContain('s3cr3t');
      expect(r.stderr).not.toContain('proxyuser');
    },
  );

  it('a loopback base URL goes direct with HTTP_PROXY set and no NO_PROXY; the embedded mock too', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY], allowedHosts: ['contacts.test'] });
    const proxy = await startProxy();
    const env = { ...home.env, CONTACTS_API_KEY: TEST_KEY, HTTP_PROXY: proxy.url };
    const direct = await runInProcess(['--debug', 'list', '--agent', AGENT, '-o', 'json'], {
      env: { ...env, CONTACTS_BASE_URL: mock.url },
      cwd: home.dir,
    });
    expect(direct.code).toBe(0);
    expect(direct.stderr).not.toContain('via proxy');
    expect(proxy.seen).toEqual([]);
    const embedded = await runInProcess(['--mock', 'list', '-o', 'json'], { env, cwd: home.dir });
    expect(embedded.code).toBe(0);
    expect(proxy.seen).toEqual([]);
  });
});

describe('proxy settings that cannot be used', () => {
  const home = useTempHome();
  const run = async (env: NodeJS.ProcessEnv) =>
    runInProcess(['list', '--agent', AGENT], {
      env: { ...home.env, CONTACTS_API_KEY: TEST_KEY, ...env },
      cwd: home.dir,
    });

  it('a socks5:// proxy is a configuration error (exit 2) naming the variable', async () => {
    const r = await run({ CONTACTS_BASE_URL: 'https://contacts.test', https_proxy: 'socks5://u:pw@p:1080' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: Unsupported proxy in https_proxy: socks5/);
    expect(r.stderr).toMatch(/hint: Fix https_proxy/);
    expect(r.stderr).not.toMatch(/bug/);
  });

  it('a proxy that does not parse is a configuration error, its password never shown', async () => {
    const r = await run({
      CONTACTS_BASE_URL: 'https://contacts.test',
      ALL_PROXY: 'alice:s3/cr3t@proxy host:3128',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: Invalid proxy URL in ALL_PROXY: \*\*\*@proxy host:3128/);
    expect(r.stderr).not.toMatch(/s3|cr3t|alice/);
  });

  it.each([
    [407, /wants credentials \(407\)/],
    [403, /does not allow it \(403\)/],
  ])(
    'a proxy answering CONNECT with %i is not retried, and the hint names the proxy',
    async (status, reason) => {
      const proxy = await startProxy({ connectStatus: status });
      const r = await run({ CONTACTS_BASE_URL: 'https://contacts.test', HTTPS_PROXY: proxy.url });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(reason);
      expect(r.stderr).toContain(`error: The proxy ${proxy.url} refused GET https://contacts.test/`);
      expect(r.stderr).toMatch(new RegExp(`hint: .*the proxy ${proxy.url.replace(/[.]/g, '\\.')}`, 'i'));
      expect(r.stderr).not.toMatch(/retrying|--base-url/);
      expect(proxy.seen.map((q) => q.method)).toEqual(['CONNECT']);
    },
  );
});

describe('a forward proxy that wants credentials', () => {
  const home = useTempHome();
  it('answers 407 to an http:// request: not retried, and the error names the proxy', async () => {
    const proxy = await startScriptedServer([{ status: 407, headers: { 'proxy-authenticate': 'Basic' } }]);
    onTestFinished(() => proxy.close());
    const r = await runInProcess(['list', '--agent', AGENT], {
      env: {
        ...home.env,
        CONTACTS_API_KEY: TEST_KEY,
        CONTACTS_BASE_URL: 'http://contacts.test:4010',
        CONTACTS_INSECURE_HTTP: '1',
        HTTP_PROXY: proxy.url,
      },
      cwd: home.dir,
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`error: The proxy ${proxy.url} refused GET http://contacts.test:4010/`);
    expect(r.stderr).toMatch(/wants credentials \(407\)/);
    expect(proxy.requests).toHaveLength(1);
  });
});

describe('reading the variables as curl does', () => {
  it('lower case wins over upper case; ALL_PROXY covers both schemes', () => {
    expect(
      proxyFromEnv({ http_proxy: 'http://a:1', HTTP_PROXY: 'http://b:2', HTTPS_PROXY: 'http://c:3' }),
    ).toEqual({
      httpProxy: 'http://a:1',
      httpsProxy: 'http://c:3',
      noProxy: undefined,
      from: { httpProxy: 'http_proxy', httpsProxy: 'HTTPS_PROXY' },
    });
    expect(proxyFromEnv({ ALL_PROXY: 'http://all:1', no_proxy: 'x' })).toEqual({
      httpProxy: 'http://all:1',
      httpsProxy: 'http://all:1',
      noProxy: 'x',
      from: { httpProxy: 'ALL_PROXY', httpsProxy: 'ALL_PROXY' },
    });
  });

  it('picks the proxy by the scheme of the URL; host:port means http://host:port', () => {
    const options = { httpProxy: 'proxy:3128', httpsProxy: 'https://secure:443' };
    expect(proxyFor('http://api.example.com', options)?.href).toBe('http://proxy:3128/');
    expect(proxyFor('https://api.example.com', options)?.href).toBe('https://secure/');
    expect(proxyFor('https://api.example.com', { httpProxy: 'proxy:3128' })).toBeUndefined();
    expect(() => proxyFor('http://a', { httpProxy: 'socks5://p:1080' })).toThrow(
      /only http:\/\/ and https:\/\//,
    );
  });

  it.each([
    ['http://localhost:4010'],
    ['http://127.0.0.1:4010'],
    ['http://127.8.9.10'],
    ['http://[::1]:4010'],
    ['https://localhost'],
  ])('never proxies loopback: %s', (target) => {
    expect(
      proxyFor(target, { httpProxy: 'http://proxy.corp:3128', httpsProxy: 'http://proxy.corp:3128' }),
    ).toBe(undefined);
  });

  it('proxies a *.localhost name, which a resolver may send anywhere (the one loopback rule, src/core)', () => {
    expect(proxyFor('http://api.localhost:4010', { httpProxy: 'http://proxy.corp:3128' })?.host).toBe(
      'proxy.corp:3128',
    );
  });

  it('NO_PROXY names a host that then goes direct', () => {
    const options = { httpProxy: 'http://proxy.corp:3128', noProxy: 'example.com' };
    expect(proxyFor('http://api.example.com', options)).toBeUndefined();
    expect(proxyFor('http://api.example.org', options)?.host).toBe('proxy.corp:3128');
  });

  it.each([
    ['*', 'https://api.example.com', true],
    ['example.com', 'https://api.example.com', true],
    ['example.com', 'https://example.com', true],
    ['.example.com', 'https://api.example.com', true],
    ['*.example.com', 'https://api.example.com', true],
    ['example.com', 'https://notexample.com', false],
    ['EXAMPLE.COM', 'https://api.example.com', true],
    ['other.org, example.com', 'https://example.com', true],
    ['other.org example.com', 'https://example.com', true],
    ['10.0.0.0/8', 'http://10.1.2.3:4010', true],
    ['10.0.0.0/8', 'http://11.1.2.3', false],
    ['::1', 'http://[::1]:4010', true],
    ['[::1]', 'http://[::1]:4010', true],
    ['fd00::/8', 'http://[fd12::1]', true],
    ['localhost:4010', 'http://localhost:4010', true],
    ['localhost:4010', 'http://localhost:4011', false],
    ['', 'http://localhost', false],
  ])('NO_PROXY=%j for %s: %s', (noProxy, url, direct) => {
    expect(bypasses(new URL(url), noProxy)).toBe(direct);
  });

  it('redacts credentials in a proxy URL', () => {
    expect(redactProxy(new URL('http://user:pw@proxy:3128'))).toBe('http://***@proxy:3128');
    expect(redactProxy(new URL('http://proxy:3128'))).toBe('http://proxy:3128');
  });

  it.each([
    ['user:s3cr3t@proxy:3128', '***@proxy:3128'],
    ['http://user:s3/cr3t@proxy:3128', 'http://***@proxy:3128'],
    ['user:s3/cr@3t@proxy:3128', '***@proxy:3128'],
    ['http://user:s3cr3t@[bad', 'http://***@[bad'],
    ['proxy:3128', 'proxy:3128'],
  ])('redacts the credentials of %j, URL or not', (raw, shown) => {
    expect(redactProxy(raw)).toBe(shown);
  });
});
