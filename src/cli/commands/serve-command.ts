// `contacts serve`: its declaration (options, help). The run, ./serve.ts, is loaded only when the
// command runs.
import { lazy, type OptionsOf, type Parent, type SubCommand } from '../command.js';
import { EMBEDDED_MOCK_AGENT, MOCK_DATA, SERVE_HOST, SERVE_PORT } from '../defaults.js';
import type { CliIo } from '../io.js';
import { collect, collectList, decimal, integer } from '../options.js';

/** `contacts serve`; `ServeOptions` is read from here. */
function declareServe(parent: Parent) {
  return (parent.command('serve') as unknown as SubCommand)
    .description('run a local mock of the Contacts API for offline work and tests: contacts serve --mock')
    .option('--mock', 'required: the mock is the server this command runs')
    .option('--port <port>', 'port to listen on (0 picks a free one)', integer(0, 65535), SERVE_PORT)
    .option('--host <host>', 'address to listen on', SERVE_HOST)
    .option(
      '--data <file>',
      `keep the state in this SQLite database (default: ./${MOCK_DATA}, the embedded --mock's; created if absent; each write committed before it is answered)`,
    )
    .option('--in-memory', 'keep nothing: the state lives in memory and goes when the server stops')
    .option(
      '--seed <file>',
      'put these contacts (and attribute definitions) into an empty store at start, and back at each POST /__mock/reset: CSV, JSON or NDJSON',
    )
    .option(
      '--seed-agent <id>',
      `the agent a --seed file's contacts belong to (default: ${EMBEDDED_MOCK_AGENT}; with --agents, the only one; one of several must be named)`,
    )
    .option('--key <bk_key>', 'accept only this key (repeatable; default: any bk_ key)', collect)
    .option(
      '--allow-host <name>',
      "serve requests for this host name too (repeatable; .example.com for its subdomains; * for any, which needs --key as it lets web pages in through DNS rebinding); loopback names, IP addresses and this machine's name are always served, other names get 421",
      collect,
    )
    .option(
      '--cors <origin>',
      'let web pages from this origin call the mock, e.g. http://localhost:3000 (repeatable; * for any, which needs --key); none by default',
      collect,
    )
    .option(
      '--agents <ids>',
      'the agents that exist, comma-separated (repeatable); any other is 404 "Chatbot not found" (default: every agent)',
      collectList,
    )
    .option(
      '--strict',
      'refuse unknown fields with 400 "Unknown field" instead of dropping them as production does',
    )
    .option(
      '--max-contacts <n>',
      'contacts an agent may hold; past it, 400 "Maximum contacts limit reached"',
      integer(0),
    )
    .option('--latency <ms>', 'delay every answer by this many milliseconds', integer(0, 60_000))
    .option(
      '--fail-rate <r>',
      'fail this share of requests (0 to 1): 500, 503, resets, lost responses',
      decimal(0, 1),
    )
    .option('--fault-seed <n>', 'seed for reproducible faults', integer(0))
    .option('--rate-limit <n>', 'allow this many requests per window (a second), then 429', integer(1))
    .option(
      '--rate-window <seconds>',
      'the rate limit window in seconds (production: --rate-limit 100 --rate-window 10)',
      integer(1, 3600),
    )
    .option('--no-rate-limit-headers', 'answer 429s with Retry-After only, without X-RateLimit-* headers');
}

export type ServeOptions = OptionsOf<typeof declareServe>;

export function serveCommand(program: Parent, io: CliIo): void {
  declareServe(program).action(lazy(io, async () => (await import('./serve.js')).serve));
}
