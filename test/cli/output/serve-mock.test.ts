// serveMock, the body of `contacts serve --mock`: URL first on stdout, a log line per request
// on stderr (never the key), and a clean stop on SIGINT/SIGTERM.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { paths } from '../../../src/api/index.js';
import { type ServeMockOptions, serveMock } from '../../../src/cli/output/serve-mock.js';
import { openSqliteStore } from '../../../src/mock/sqlite-store.js';
import { BIN, runBin, useTempHome } from '../../helpers/cli.js';
import { AGENT, api, TEST_KEY, tempDir } from '../../helpers/mock.js';

class Capture extends PassThrough {
  text = '';
  private waiters: (() => void)[] = [];
  constructor() {
    super();
    this.on('data', (chunk: Buffer) => {
      this.text += chunk.toString();
      for (const wake of this.waiters.splice(0)) wake();
    });
  }
  /** Resolves once the captured text matches. */
  async waitFor(re: RegExp): Promise<string> {
    while (!re.test(this.text)) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.text;
  }
}

async function serve(options: ServeMockOptions = {}) {
  const stdout = new Capture();
  const stderr = new Capture();
  const signals = new EventEmitter();
  const running = await serveMock({ port: 0, ...options }, { stdout, stderr, signals });
  onTestFinished(() => running.server.close());
  const url = stdout.text.split('\n')[0]!;
  return { ...running, stdout, stderr, signals, url };
}

describe('serveMock', () => {
  it('prints the URL as the first line of stdout, and serves there', async () => {
    const { stdout, url, server } = await serve();
    expect(url).toBe(server.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout.text).toBe(`${url}\n`);
    expect((await api(url).get('/health')).status).toBe(200);
  });

  it('logs method, path, status and time per request to stderr, never the key', async () => {
    const key = 'bk_secret_value_123';
    const { url, stderr } = await serve({ log: true });
    await api(url, key).post(paths.contacts(AGENT), { external_id: 'a' });
    await api(url, key).get(paths.contact(AGENT, 'missing'));
    const text = await stderr.waitFor(/missing 404/);
    expect(text).toMatch(new RegExp(`POST ${paths.contacts(AGENT)} 201 \\d+\\.\\dms`));
    expect(text).toContain(`GET ${paths.contact(AGENT, 'missing')} 404`);
    expect(text).not.toContain('secret');
    expect(text).not.toMatch(/authorization/i);
  });

  it('seeds from --seed (for the --seed-agent) and says that a reset puts the seed back', async () => {
    const dir = await tempDir();
    const seed = join(dir, 'people.ndjson');
    await writeFile(seed, '{"external_id":"s1","name":"Seeded"}\n{"external_id":"s2"}\n');
    const { url, stderr } = await serve({ seed, seedAgent: AGENT });
    expect(stderr.text).toContain(`seed: ${seed} (POST /__mock/reset puts it back)`);
    const list = await api(url).get(paths.contacts(AGENT));
    expect(list.body.data.map((c: { external_id: string }) => c.external_id)).toEqual(['s1', 's2']);
  });

  it('writes no request lines without log', async () => {
    const { url, stderr } = await serve({ log: false });
    await api(url).get(paths.contacts(AGENT));
    expect(stderr.text).not.toContain(paths.contacts(AGENT));
  });

  it('describes data file, keys and faults (with the seed to replay them) on stderr', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'mock.db');
    const { stderr } = await serve({ dataFile, keys: ['bk_a', 'bk_b'], faults: { failRate: 0.1, seed: 77 } });
    expect(stderr.text).toContain(dataFile);
    expect(stderr.text).toContain('keys: 2 accepted');
    expect(stderr.text).toContain('fail rate 0.1 (seed 77)');
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`stops on ${signal}: closes the database, resolves closed`, async () => {
      const dir = await tempDir();
      const dataFile = join(dir, 'mock.db');
      const { url, signals, closed, server } = await serve({ dataFile });
      server.store.upsertContact(AGENT, { external_id: 'kept' });
      signals.emit(signal);
      await closed;
      const again = openSqliteStore(dataFile);
      expect(again.contacts(AGENT).map((c) => c.external_id)).toEqual(['kept']);
      again.close();
      await expect(fetch(`${url}/health`)).rejects.toThrow();
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    });
  }

  it('resolves closed and stops listening for signals when the server is closed directly', async () => {
    const before = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
    const stdout = new Capture();
    const stderr = new Capture();
    const { server, closed } = await serveMock({ port: 0 }, { stdout, stderr });
    expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(before + 2);
    await server.close();
    await closed;
    expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(before);
  });

  it('rejects when the port is taken', async () => {
    const { server } = await serve();
    await expect(
      serveMock({ port: server.port, host: '127.0.0.1' }, { stdout: new Capture(), stderr: new Capture() }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});

describe('contacts serve --mock: where the data lives', () => {
  const home = useTempHome();

  /** `contacts serve --mock ARGS` in `cwd` until its first line; the URL and its description. */
  async function started(cwd: string, env: NodeJS.ProcessEnv, args: string[] = []) {
    const child = spawn(process.execPath, [BIN, 'serve', '--mock', '--port', '0', ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    onTestFinished(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    let stderr = '';
    const described = new Promise<string>((resolve) => {
      child.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (stderr.includes('Ctrl+C')) resolve(stderr);
      });
    });
    const url = await new Promise<string>((resolve) =>
      child.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim())),
    );
    return {
      url,
      described: await described,
      stop: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    };
  }

  it("serves the embedded --mock's database by default and says where it is; --in-memory keeps nothing", async () => {
    const server = await started(home.dir, home.env);
    expect(server.described).toContain(
      `data: ${join(home.dir, '.contacts-mock', 'mock.db')} (SQLite, shared with contacts --mock here)`,
    );
    expect((await api(server.url).post(paths.contacts('demo'), { external_id: 'from-serve' })).status).toBe(
      201,
    );
    // The embedded mock of a command in the same directory sees it, while the server runs and after.
    const seen = await runBin(['--mock', 'get', 'from-serve', '-o', 'json'], {
      env: home.env,
      cwd: home.dir,
    });
    expect(seen.code).toBe(0);
    expect(JSON.parse(seen.stdout).external_id).toBe('from-serve');
    await server.stop();

    const memory = await started(home.dir, home.env, ['--in-memory']);
    expect(memory.described).toContain('data: in memory (gone when it stops)');
    expect((await api(memory.url).get(paths.contact('demo', 'from-serve'))).status).toBe(404);
    const both = await runBin(['serve', '--mock', '--in-memory', '--data', 'x.db'], {
      env: home.env,
      cwd: home.dir,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--in-memory and --data name two places for the state');
  });

  it('refuses a --cors value that is not an origin and an --allow-host value that is not a name', async () => {
    const cors = await runBin(['serve', '--mock', '--cors', 'localhost:3000/app'], {
      env: home.env,
      cwd: home.dir,
    });
    expect(cors.code).toBe(2);
    expect(cors.stderr).toContain('--cors: not an origin: localhost:3000/app');
    const host = await runBin(['serve', '--mock', '--allow-host', 'http://mock.test'], {
      env: home.env,
      cwd: home.dir,
    });
    expect(host.code).toBe(2);
    expect(host.stderr).toContain('--allow-host: not a host name');
    const any = await runBin(['serve', '--mock', '--allow-host', '*'], { env: home.env, cwd: home.dir });
    expect(any.code).toBe(2);
    expect(any.stderr).toContain("--allow-host '*' needs --key");
  });

  it.each([['http://*'], ['https://*.com'], ['http://a*b.example:3000']])(
    'refuses the pattern --cors %s: an origin is literal',
    async (pattern) => {
      const r = await runBin(['serve', '--mock', '--in-memory', '--cors', pattern], {
        env: home.env,
        cwd: home.dir,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--cors: not an origin: ${pattern}`);
      expect(r.stdout).toBe('');
    },
  );

  it.each([['.com'], ['.COM.'], ['.test']])(
    'refuses --allow-host %s without --key: every site under a top-level domain could reach the mock',
    async (suffix) => {
      const r = await runBin(['serve', '--mock', '--in-memory', '--allow-host', suffix], {
        env: home.env,
        cwd: home.dir,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `--allow-host ${suffix} needs --key: it takes every name under a top-level domain`,
      );
      expect(r.stdout).toBe('');
    },
  );

  it('serves --allow-host .com with --key, and a suffix of two labels or .localhost without one', async () => {
    // fetch cannot set Host: node:http can.
    const statusAs = (url: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        get(`${url}/health`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
    const keyed = await started(home.dir, home.env, [
      '--in-memory',
      '--allow-host',
      '.com',
      '--key',
      TEST_KEY,
    ]);
    expect(await statusAs(keyed.url, 'a.example.com')).toBe(200);
    expect(await statusAs(keyed.url, 'a.example.org')).toBe(421);
    await keyed.stop();
    const two = await started(home.dir, home.env, [
      '--in-memory',
      '--allow-host',
      '.mock.test',
      '--allow-host',
      '.localhost',
    ]);
    expect(await statusAs(two.url, 'a.mock.test')).toBe(200);
  });

  it("refuses --cors '*' without --key: any web page could read every contact and reset the mock", async () => {
    const any = await runBin(['serve', '--mock', '--in-memory', '--cors', '*'], {
      env: home.env,
      cwd: home.dir,
    });
    expect(any.code).toBe(2);
    expect(any.stderr).toContain("--cors '*' needs --key");
    expect(any.stderr).toContain('--cors http://localhost:3000');
    expect(any.stdout).toBe('');
    // Beside a named origin it is still any origin.
    const mixed = await runBin(
      ['serve', '--mock', '--in-memory', '--cors', 'http://localhost:3000', '--cors', '*'],
      {
        env: home.env,
        cwd: home.dir,
      },
    );
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--cors '*' needs --key");
    // With a key it serves, and answers any origin.
    const keyed = await started(home.dir, home.env, ['--in-memory', '--cors', '*', '--key', TEST_KEY]);
    const res = await fetch(`${keyed.url}/health`, { headers: { origin: 'http://a.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
