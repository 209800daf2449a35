// `contacts serve --mock`: the embedded mock on a real port until SIGINT/SIGTERM.
import { apiKeyProblem } from '../../api/key.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';

export interface ServeOptions {
  port: number;
  host: string;
  data?: string;
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
  const { serveMock } = await import('../../mock/serve.js');
  const { resolve } = await import('node:path');
  if (opts.rateLimit === undefined && (opts.rateWindow !== undefined || opts.rateLimitHeaders === false)) {
    throw new UsageError('--rate-window and --no-rate-limit-headers go with --rate-limit <n>');
  }
  const faulty = opts.latency !== undefined || opts.failRate !== undefined || opts.rateLimit !== undefined;
  const running = await serveMock(
    {
      port: opts.port,
      host: opts.host,
      dataFile: opts.data === undefined ? undefined : resolve(ctx.cwd, opts.data),
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

/** Whether a listen address is reachable from this machine only. */
function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}
