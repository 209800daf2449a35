// `contacts api`: any request with the configured key, base URL, retries and redaction.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/errors.js';
import { envFor, runInProcess, useTempHome } from '../../helpers/cli.js';
import { AGENT, startTestMock, TEST_KEY } from '../../helpers/mock.js';
import { type Step, startScriptedServer } from '../../helpers/scripted-server.js';

const home = useTempHome();

async function setup() {
  const mock = await startTestMock({ keys: [TEST_KEY] });
  const env = envFor(home, mock, { CONTACTS_AGENT: AGENT });
  const cli = (argv: string[], stdin?: string) => runInProcess(argv, { env, cwd: home.dir, stdin });
  return { mock, cli };
}

describe('contacts api', () => {
  it('POSTs --data, GETs with a query and {agent} filled, PATCHes and DELETEs, printing JSON', async () => {
    const { cli } = await setup();
    const created = await cli([
      'api',
      'POST',
      '/api/v1/chatbots/{agent}/contacts',
      '--data',
      '{"external_id":"u_1","name":"Ada"}',
    ]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ data: { external_id: 'u_1', name: 'Ada' } });
    await cli(['api', 'POST', '/api/v1/chatbots/{agent}/contacts', '--data', '@-'], '{"external_id":"u_2"}');

    const page = await cli(['api', 'GET', '/api/v1/chatbots/{agent}/contacts?per_page=10']);
    expect(page.code).toBe(0);
    const body = JSON.parse(page.stdout);
    expect(body).toMatchObject({ total: 2 });
    expect(body.data).toHaveLength(2);
    // The query reaches the service: one it refuses is said, with the service's reason.
    const refused = await cli(['api', 'GET', '/api/v1/chatbots/{agent}/contacts?per_page=5']);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect(refused.stderr).toContain('per_page');
    expect(page.stdout).toBe(`${JSON.stringify(body, null, 2)}\n`);

    const patched = await cli([
      'api',
      'PATCH',
      `/api/v1/chatbots/${AGENT}/contacts/u_1`,
      '--data',
      '{"name":"Ada L."}',
      '-o',
      'ndjson',
    ]);
    expect(patched.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(patched.stdout)).toMatchObject({ data: { name: 'Ada L.' } });

    const deleted = await cli(['api', 'DELETE', '/api/v1/chatbots/{agent}/contacts/u_2']);
    expect(deleted.code).toBe(0);
    const after = JSON.parse((await cli(['api', 'GET', '/api/v1/chatbots/{agent}/contacts'])).stdout);
    expect(after.total).toBe(1);
  });

  it('maps errors to the exit codes every command uses, and never shows the key', async () => {
    const { cli } = await setup();
    const missing = await cli(['--debug', 'api', 'GET', '/api/v1/chatbots/{agent}/contacts/nobody']);
    expect(missing.code).toBe(ExitCode.NOT_FOUND);
    expect(missing.stderr).toMatch(/^error: /m);
    expect(missing.stderr).toContain('[REDACTED]');
    expect(missing.stderr).not.toContain(TEST_KEY);
    const bad = await cli(['api', 'POST', '/api/v1/chatbots/{agent}/contacts', '--data', '{"name":1}']);
    expect(bad.code).toBe(ExitCode.USAGE);
  });

  it('refuses what it cannot send: a lowercase or unknown method, a full URL, --data on GET, bad JSON', async () => {
    const { cli } = await setup();
    expect((await cli(['api', 'get', '/x'])).stderr).toContain(
      'Allowed choices are GET, POST, PATCH, PUT, DELETE',
    );
    const url = await cli(['api', 'GET', 'https://elsewhere.example/api']);
    expect(url).toMatchObject({ code: ExitCode.USAGE });
    expect(url.stderr).toContain('Give the path, not a URL');
    expect((await cli(['api', 'GET', '/x', '--data', '{}'])).stderr).toContain('--data goes with POST');
    expect((await cli(['api', 'POST', '/x', '--data', '{'])).stderr).toContain('--data is not valid JSON');
  });

  it('is in the shell completion, with its methods', async () => {
    const r = await runInProcess(['completion', 'bash']);
    expect(r.stdout).toMatch(/'api'\) words='GET POST PATCH PUT DELETE /);
  });
});

describe('contacts api: what it sends and prints', () => {
  async function scripted(steps: Step[], basePath = '') {
    const server = await startScriptedServer(steps);
    const env = {
      ...home.env,
      CONTACTS_API_KEY: TEST_KEY,
      CONTACTS_BASE_URL: `${server.url}${basePath}`,
      CONTACTS_AGENT: AGENT,
    };
    const cli = (argv: string[]) => runInProcess(argv, { env, cwd: home.dir });
    return { server, cli };
  }

  it.each([
    ['/../admin'],
    ['/%2e%2e/admin'],
    ['/api/%2E%2E/../admin'],
    ['//elsewhere.test/x'],
    ['/x/../../admin'],
  ])('refuses %s, which leads out of the base URL, and sends nothing', async (path) => {
    const { server, cli } = await scripted([{ status: 200, body: {} }], '/gateway');
    try {
      const r = await cli(['api', 'GET', path]);
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(/leads out of the base URL/);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['/api/v1/chatbots/{agent}/contacts/..', '..', `/gateway/api/v1/chatbots/${AGENT}/`],
    ['/api/v1/chatbots/{agent}/contacts/%2E', '%2E', `/gateway/api/v1/chatbots/${AGENT}/contacts/`],
    ['/api/v1/chatbots/x/contacts/.%2e/y', '.%2e', '/gateway/api/v1/chatbots/x/y'],
    ['/api/v1/./chatbots', '.', '/gateway/api/v1/chatbots'],
    ['/api/v1/chatbots/x/contacts\\..', '..', '/gateway/api/v1/chatbots/x/'],
  ])(
    'refuses %s, whose dot segment a parser or proxy would rewrite, and sends nothing',
    async (path, dot, reached) => {
      const { server, cli } = await scripted([{ status: 200, body: {} }], '/gateway');
      try {
        const r = await cli(['api', 'DELETE', path]);
        expect(r.code).toBe(ExitCode.USAGE);
        expect(r.stderr).toContain(
          `holds a "${dot}" segment, which URL parsers, proxies and servers resolve away: it would reach ${reached}`,
        );
        expect(r.stderr).toContain('hint: Give the path as it is meant');
        expect(server.requests).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );

  it.each([
    ['/api/v1/chatbots/{agent}/contacts/..;', '..;'],
    ['/api/v1/chatbots/{agent}/contacts/..;jsessionid=x/y', '..;jsessionid=x'],
    ['/api/v1/chatbots/{agent}/contacts/.;', '.;'],
    ['/api/v1/chatbots/{agent}/contacts/%2e%2e%2f', '%2e%2e%2f'],
    ['/api/v1/chatbots/{agent}/contacts/..%2f', '..%2f'],
    ['/api/v1/chatbots/{agent}/contacts/%2e%2e%5c', '%2e%2e%5c'],
    ['/api/v1/chatbots/{agent}/contacts/x%2F..%2Fy', 'x%2F..%2Fy'],
    ['/api/v1/chatbots/{agent}/contacts/%252e%252e', '%252e%252e'],
    ['/api/v1/chatbots/{agent}/contacts/..%3B', '..%3B'],
  ])('refuses %s, which a server may read as a dot segment, and sends nothing', async (path, segment) => {
    const { server, cli } = await scripted([{ status: 200, body: {} }]);
    try {
      const r = await cli(['api', 'DELETE', path]);
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(
        `holds a "${segment}" segment, which servers and proxies may read as "." or ".." (percent-decoded, split at a "/" or "\\", or cut at ";")`,
      );
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('sends a segment that merely holds dots: ..., a..b, ..x, a%2F..b', async () => {
    const { server, cli } = await scripted([{ status: 204 }]);
    try {
      for (const id of ['...', 'a..b', '..x', 'a%2F..b', 'x;..']) {
        const r = await cli(['api', 'DELETE', `/api/v1/chatbots/{agent}/contacts/${id}`]);
        expect(r.code, id).toBe(0);
      }
      expect(server.requests.map((req) => req.url.split('/').pop())).toEqual([
        '...',
        'a..b',
        '..x',
        'a%2F..b',
        'x;..',
      ]);
    } finally {
      await server.close();
    }
  });

  it('refuses an agent of `.` or `..` for {agent}, and sends nothing', async () => {
    const server = await startScriptedServer([{ status: 200, body: {} }]);
    try {
      const env = {
        ...home.env,
        CONTACTS_API_KEY: TEST_KEY,
        CONTACTS_BASE_URL: server.url,
        CONTACTS_AGENT: '..',
      };
      const r = await runInProcess(['api', 'GET', '/api/v1/chatbots/{agent}/contacts'], {
        env,
        cwd: home.dir,
      });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(
        'The agent id ".." cannot go in a request path: URL parsers, proxies and servers resolve a "." or ".." segment away, so /api/v1/chatbots/../contacts would reach /api/v1/contacts',
      );
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('sends a path below the base path, with its query, and drops a fragment', async () => {
    const { server, cli } = await scripted([{ status: 200, body: { ok: true } }], '/gateway');
    try {
      const r = await cli(['api', 'GET', '/api/v1/x?per_page=10#part']);
      expect(r.code).toBe(0);
      expect(server.requests.map((q) => q.url)).toEqual(['/gateway/api/v1/x?per_page=10']);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['/api/v1/a b', /holds a space at character 10/],
    ['/api/v1/a\r\nX-Injected: 1', /holds a control character \(U\+000D\) at character 10/],
  ])('refuses %j with a usage error, not a retried network error', async (path, message) => {
    const { server, cli } = await scripted([{ status: 200, body: {} }]);
    try {
      const r = await cli(['api', 'GET', path]);
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/retrying|UND_ERR/);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('does not send a POST again when the connection broke after it left', async () => {
    const { server, cli } = await scripted([{ reset: true }, { status: 201, body: { data: {} } }]);
    try {
      const r = await cli([
        'api',
        'POST',
        '/api/v1/chatbots/{agent}/contacts',
        '--data',
        '{"external_id":"u"}',
      ]);
      expect(r.code).toBe(ExitCode.NETWORK);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['{"id": 12345678901234567890, "n": 1}', '{"id": 12345678901234567890, "n": 1}\n'],
    ['{"tiny": 1e-400}', '{"tiny": 1e-400}\n'],
    ['plain text, not JSON', 'plain text, not JSON\n'],
    ['{"a":1,"b":[true]}', '{\n  "a": 1,\n  "b": [\n    true\n  ]\n}\n'],
  ])('prints %j as the service sent it unless reading it as JSON loses nothing', async (text, printed) => {
    const { server, cli } = await scripted([{ status: 200, body: text }]);
    try {
      const r = await cli(['api', 'GET', '/api/v1/anything']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(printed);
    } finally {
      await server.close();
    }
  });
});
