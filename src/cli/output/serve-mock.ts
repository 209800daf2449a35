// The mock on a real port until SIGINT/SIGTERM, presented: the URL first on stdout, a line on
// what it serves, one log line per request on stderr, "Ctrl+C stops it", the signals.
import { ignoredFieldsHeader } from '../../api/headers.js';
import type { FaultOptions } from '../../mock/faults.js';
import type { RequestLogEntry } from '../../mock/request-log.js';
import { loadSeed } from '../../mock/seed.js';
import { type MockServer, startMockServer } from '../../mock/server.js';

export interface ServeMockOptions {
  port?: number;
  host?: string;
  /** The SQLite database; none keeps the state in memory. */
  dataFile?: string;
  /** Whether `dataFile` is the embedded `--mock` mode's, which commands in this directory share. */
  dataShared?: boolean;
  seed?: string;
  seedAgent?: string;
  keys?: string[];
  allowedHosts?: string[];
  cors?: string[];
  agents?: string[];
  strict?: boolean;
  maxContacts?: number;
  faults?: FaultOptions;
  /** One line per request on stderr. */
  log?: boolean;
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
    options.dataFile
      ? `data: ${options.dataFile} (SQLite${options.dataShared ? ', shared with contacts --mock here' : ''})`
      : 'data: in memory (gone when it stops)',
    ...(options.seed ? [`seed: ${options.seed} (POST /__mock/reset puts it back)`] : []),
    options.keys?.length ? `keys: ${options.keys.length} accepted` : 'keys: any bk_ key',
    options.agents ? `agents: ${options.agents.join(', ')}` : 'agents: any',
  ];
  if (options.allowedHosts?.length) parts.push(`also serves: ${options.allowedHosts.join(', ')}`);
  if (options.cors?.length) parts.push(`CORS for: ${options.cors.join(', ')}`);
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
    allowedHosts: options.allowedHosts,
    cors: options.cors,
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
