// `contacts serve --mock`: flags checked and turned into the mock's options; running and
// presenting the server is `../output/serve-mock.ts`, the server itself `src/mock/server.ts`.
import { apiKeyProblem } from '../../api/key.js';
import { isLoopbackHost } from '../../core/loopback.js';
import type { CommandContext } from '../context.js';
import { EMBEDDED_MOCK_AGENT, SERVE_PORT } from '../defaults.js';
import { UsageError } from '../errors.js';
import { serveMock } from '../output/serve-mock.js';
import type { ServeOptions } from './serve-command.js';

export type { ServeOptions };

export async function serve(ctx: CommandContext, opts: ServeOptions) {
  if (!ctx.mockMode) {
    throw new UsageError('serve needs --mock: the mock is the only server this tool runs', {
      hint: `contacts serve --mock [--port ${SERVE_PORT}]`,
    });
  }
  for (const key of opts.key ?? []) {
    const problem = apiKeyProblem(key);
    // No client could ever send a malformed key, so the server would refuse everyone.
    if (problem) throw new UsageError(`--key: not a workspace key: ${problem}`);
  }
  if (!opts.key?.length && !isLoopbackHost(opts.host)) {
    ctx.io.warn(
      `listening on ${opts.host} with no --key: anyone who can reach this machine can read and write its contacts. ` +
        'Pass --key bk_... to accept only your keys.',
    );
  }
  const { dirname, resolve } = await import('node:path');
  if (opts.inMemory && opts.data !== undefined) {
    throw new UsageError('--in-memory and --data name two places for the state: give one');
  }
  for (const origin of opts.cors ?? []) {
    if (origin !== '*' && !isOrigin(origin)) {
      throw new UsageError(`--cors: not an origin: ${origin}`, {
        hint: 'An origin is a scheme, host and port: --cors http://localhost:3000',
      });
    }
  }
  for (const name of opts.allowHost ?? []) {
    if (!/^(\*|\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?)$/i.test(name)) {
      throw new UsageError(`--allow-host: not a host name: ${name}`, {
        hint: 'A name without scheme or port: --allow-host mock.test (.example.com for its subdomains)',
      });
    }
  }
  // A suffix of one label (`.com`) takes every site under a top-level domain: as open to DNS
  // rebinding as `*`. (`.localhost` names are served anyway: browsers keep them on this machine.)
  const everySite = (opts.allowHost ?? []).find(
    (name) => /^\.[^.]+\.?$/.test(name) && !/^\.localhost\.?$/i.test(name),
  );
  if (everySite !== undefined && !opts.key?.length) {
    throw new UsageError(
      `--allow-host ${everySite} needs --key: it takes every name under a top-level domain, so a web page of any site there could reach the mock through DNS rebinding; only requests with your key may be answered`,
      {
        hint: `Name the host or a domain you control (--allow-host .mock.example.com), or add --key bk_...`,
      },
    );
  }
  if (opts.allowHost?.includes('*') && !opts.key?.length) {
    // Any Host is what DNS rebinding needs: a page of any site could then read and write the mock.
    throw new UsageError(
      "--allow-host '*' needs --key: serving any host name lets any web page reach the mock through DNS rebinding, so only requests with your key may be answered",
      {
        hint: "contacts serve --mock --allow-host '*' --key bk_... (or --allow-host NAME for the tunnel's name)",
      },
    );
  }
  if (opts.cors?.includes('*') && !opts.key?.length) {
    // A page of any site could then read the answers: every contact, and the controls' reset.
    throw new UsageError(
      "--cors '*' needs --key: it lets any web page you visit read every contact and reset the mock, so only requests with your key may be answered",
      {
        hint: "contacts serve --mock --cors '*' --key bk_... (or --cors ORIGIN for the one page's origin, e.g. --cors http://localhost:3000)",
      },
    );
  }
  // One rule for --mock: the embedded mock's database, unless --data or --in-memory say otherwise.
  const embedded = opts.data === undefined && !opts.inMemory;
  const dataFile = opts.inMemory ? undefined : embedded ? ctx.mockDataFile() : resolve(ctx.cwd, opts.data!);
  if (embedded) {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dirname(dataFile!), { recursive: true });
  }
  if (dataFile) {
    const { checkMockDataFile } = await import('../output-paths.js');
    await checkMockDataFile(
      ctx,
      dataFile,
      embedded
        ? { flag: 'CONTACTS_MOCK_DATA', value: ctx.env.CONTACTS_MOCK_DATA }
        : { flag: '--data', value: opts.data },
    );
  }
  if (opts.rateLimit === undefined && (opts.rateWindow !== undefined || opts.rateLimitHeaders === false)) {
    throw new UsageError('--rate-window and --no-rate-limit-headers go with --rate-limit <n>');
  }
  if (opts.seedAgent !== undefined && opts.agents && !opts.agents.includes(opts.seedAgent)) {
    throw new UsageError(
      `--seed-agent ${opts.seedAgent} is not one of --agents ${opts.agents.join(',')}: its contacts could not be reached`,
    );
  }
  const faulty = opts.latency !== undefined || opts.failRate !== undefined || opts.rateLimit !== undefined;
  const running = await serveMock(
    {
      port: opts.port,
      host: opts.host,
      dataFile,
      dataShared: embedded,
      seed: opts.seed === undefined ? undefined : resolve(ctx.cwd, opts.seed),
      seedAgent: opts.seedAgent ?? defaultSeedAgent(opts.agents),
      keys: opts.key,
      allowedHosts: opts.allowHost,
      // What a browser sends as Origin: `--cors http://localhost:3000/` must match it.
      cors: opts.cors?.map((origin) => (origin === '*' ? origin : new URL(origin).origin)),
      agents: opts.agents,
      strict: opts.strict,
      maxContacts: opts.maxContacts,
      faults: faulty
        ? {
            latencyMs: opts.latency,
            failRate: opts.failRate,
            seed: opts.faultSeed,
            rateLimit: opts.rateLimit,
            rateWindowMs: opts.rateWindow === undefined ? undefined : opts.rateWindow * 1000,
            rateLimitHeaders: opts.rateLimitHeaders,
          }
        : undefined,
      log: !ctx.options.quiet,
    },
    { stdout: ctx.io.stdout, stderr: ctx.io.stderr },
  );
  await running.closed;
}

/**
 * The agent a seed file of contacts goes to without --seed-agent: the only --agents id, or `demo`
 * when every agent exists; with several --agents none (the seed then asks for --seed-agent), since
 * `demo` would be an agent that answers 404.
 */
function defaultSeedAgent(agents: string[] | undefined): string | undefined {
  if (agents === undefined) return EMBEDDED_MOCK_AGENT;
  return agents.length === 1 ? agents[0] : undefined;
}

/**
 * Whether a value is a web origin (`http://localhost:3000`), as a browser sends it: a literal
 * host, no pattern (`http://*`, `https://*.example.com` would be echoed as they are, matching no page).
 */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.origin === value.replace(/\/$/, '') &&
      /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*)$/i.test(url.hostname)
    );
  } catch {
    return false;
  }
}
