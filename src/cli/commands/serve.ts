// `contacts serve --mock`: the mock on a real port until SIGINT/SIGTERM. The presentation is
// here (the URL first on stdout, one log line per request on stderr, "Ctrl+C stops it", the
// signals); the server itself is `src/mock/server.ts`.
import { ignoredFieldsHeader } from '../../api/headers.js';
import { apiKeyProblem } from '../../api/key.js';
import type { FaultOptions } from '../../mock/faults.js';
import type { RequestLogEntry } from '../../mock/request-log.js';
import { loadSeed } from '../../mock/seed.js';
import { type MockServer, startMockServer } from '../../mock/server.js';
import { type CommandContext, EMBEDDED_MOCK_AGENT } from '../context.js';
import { UsageError } from '../errors.js';

export interface ServeMockOptions {
  port?: number;
  host?: string;
  dataFile?: string;
  seed?: string;
  seedAgent?: string;
  keys?: string[];
  agents?: string[];
  strict?: boolean;
  maxContacts?: number;
  faults?: FaultOptions;
  /** One line per request on stderr. */
  log?: boolean;
}

export interface ServeOptions {
  port: number;
  host: string;
  data?: string;
  seed?: string;
  seedAgent?: string;
  key?: string[];
  agents?: string[];
  strict?: boolean;
  maxContacts?: number;
  latency?: number;
  failRate?: number;
  faultSeed?: number;
  rateLimit?: number;
  rateWindow?: number;
  /** commander's negation of --no-rate-limit-headers. */
  rateLimitHeaders?: boolean;
}

export async function serve(ctx: CommandContext, opts: ServeOptions) {
  if (!ctx.mockMode) {
    throw new UsageError('serve needs --mock: the mock is the only server this tool runs', {
      hint: 'contacts serve --mock [--port 4010]',
    });
  }
  for (const key of opts.key ?? []) {
    const problem = apiKeyProblem(key);
    // No client could ever send a malformed key, so the server would refuse everyone.
    if (problem) throw new UsageError(`--key: not a workspace key: ${problem}`);
  }
  if (!opts.key?.length && !isLoopback(opts.host)) {
    ctx.io.warn(
      `listening on ${opts.host} with no --key: anyone who can reach this machine can read and write its contacts. ` +
        'Pass --key bk_... to accept only your keys.',
    );
  }
  const { resolve } = await import('node:path');
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
      dataFile: opts.data === undefined ? undefined : resolve(ctx.cwd, opts.data),
      seed: opts.seed === undefined ? undefined : resolve(ctx.cwd, opts.seed),
      seedAgent: opts.seedAgent ?? defaultSeedAgent(opts.agents),
      keys: opts.key,
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

/** Whether a listen address is reachable from this machine only. */
function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/** Where the stop signals come from; `process` unless a test passes its own emitter. */
export interface SignalSource {
  once(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export interface ServeMockIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  signals?: SignalSource;
}

export interface ServingMock {
  server: MockServer;
  /** Resolves once the server has stopped and its data is flushed; rejects if the flush failed. */
  closed: Promise<void>;
}

/**
 * A log line: never headers, so never the Authorization value. The request id matches the
 * answer's `x-request-id` (what a user quotes); dropped fields are named as the header names
 * them, percent-encoded, since their keys come from the body and could steer a terminal.
 */
export function formatLogEntry(entry: RequestLogEntry): string {
  const status = entry.status === 0 ? '---' : String(entry.status);
  const fault = entry.fault ? ` [fault: ${entry.fault}]` : '';
  let ignored = '';
  if (entry.ignored?.length) {
    const { value, listed } = ignoredFieldsHeader(entry.ignored);
    const more = entry.ignored.length - listed;
    ignored = ` [ignored: ${value}${more > 0 ? ` and ${more} more` : ''}]`;
  }
  return `${entry.method} ${entry.path} ${status} ${entry.durationMs.toFixed(1)}ms ${entry.requestId}${fault}${ignored}`;
}

function describe(server: MockServer, options: ServeMockOptions): string {
  const parts = [
    options.dataFile ? `data: ${options.dataFile} (SQLite)` : 'data: in memory',
    ...(options.seed ? [`seed: ${options.seed} (POST /__mock/reset puts it back)`] : []),
    options.keys?.length ? `keys: ${options.keys.length} accepted` : 'keys: any bk_ key',
    options.agents ? `agents: ${options.agents.join(', ')}` : 'agents: any',
  ];
  if (options.strict) parts.push('strict: unknown fields refused');
  if (options.maxContacts !== undefined) parts.push(`at most ${options.maxContacts} contacts an agent`);
  const f = options.faults;
  if (server.faults && f) {
    const faults = [
      f.latencyMs ? `latency ${f.latencyMs}ms` : '',
      f.failRate ? `fail rate ${f.failRate} (seed ${server.faults.seed})` : '',
      f.rateLimit
        ? `rate limit ${f.rateLimit} per ${f.rateWindowMs && f.rateWindowMs !== 1000 ? `${f.rateWindowMs / 1000} s` : 's'}${f.rateLimitHeaders === false ? ' (no X-RateLimit headers)' : ''}`
        : '',
    ].filter(Boolean);
    if (faults.length) parts.push(`faults: ${faults.join(', ')}`);
  }
  return `Mock Contacts API on ${server.url} (${parts.join('; ')}). Ctrl+C stops it.`;
}

export async function serveMock(options: ServeMockOptions, io: ServeMockIO): Promise<ServingMock> {
  const seed = options.seed ? await loadSeed(options.seed, { agent: options.seedAgent }) : undefined;
  const server = await startMockServer({
    port: options.port,
    host: options.host,
    dataFile: options.dataFile,
    seed,
    keys: options.keys,
    agents: options.agents,
    strict: options.strict,
    maxContacts: options.maxContacts,
    faults: options.faults,
    onRequest: options.log ? (entry) => io.stderr.write(`${formatLogEntry(entry)}\n`) : undefined,
    onError: (error) => io.stderr.write(`mock: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  io.stdout.write(`${server.url}\n`);
  io.stderr.write(`${describe(server, options)}\n`);

  const signals = io.signals ?? process;
  const closed = new Promise<void>((resolve, reject) => {
    let stopping = false;
    const unlisten = () => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
    };
    function stop() {
      stopping = true;
      unlisten();
      io.stderr.write('Stopping the mock server...\n');
      server.close().then(resolve, reject);
    }
    signals.once('SIGINT', stop);
    signals.once('SIGTERM', stop);
    // Closed by the caller's own close(): its outcome is the caller's; just stop listening.
    void server.closed.then(() => {
      unlisten();
      if (!stopping) resolve();
    });
  });
  return { server, closed };
}
