// `contacts serve --mock`: the embedded mock on a real port until SIGINT/SIGTERM.
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';

export interface ServeOptions {
  port: number;
  host: string;
  data?: string;
  key?: string[];
  latency?: number;
  failRate?: number;
  faultSeed?: number;
  rateLimit?: number;
}

export async function serve(ctx: CommandContext, opts: ServeOptions) {
  if (!ctx.mockMode) {
    throw new UsageError('serve needs --mock: the mock is the only server this tool runs', {
      hint: 'contacts serve --mock [--port 4010]',
    });
  }
  const { serveMock } = await import('../../mock/serve.js');
  const { resolve } = await import('node:path');
  const faulty = opts.latency !== undefined || opts.failRate !== undefined || opts.rateLimit !== undefined;
  const running = await serveMock(
    {
      port: opts.port,
      host: opts.host,
      dataFile: opts.data === undefined ? undefined : resolve(ctx.cwd, opts.data),
      keys: opts.key,
      faults: faulty
        ? {
            latencyMs: opts.latency,
            failRate: opts.failRate,
            seed: opts.faultSeed,
            rateLimit: opts.rateLimit,
          }
        : undefined,
      log: !ctx.options.quiet,
    },
    { stdout: ctx.io.stdout as never, stderr: ctx.io.stderr as never },
  );
  await running.closed;
}
