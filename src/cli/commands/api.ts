// `contacts api <METHOD> <path>`: any request with the configured key, base URL and retries,
// for what has no command yet (gh's `api`). The answer is printed as JSON.
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { readJsonData } from './contact-input.js';

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export async function api(ctx: CommandContext, method: HttpMethod, path: string, opts: { data?: string }) {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new UsageError(`Give the path, not a URL: ${path}`, {
      hint: 'The base URL comes from --base-url, CONTACTS_BASE_URL or the profile, e.g. contacts api GET /api/v1/chatbots/{agent}/contacts',
    });
  }
  if (opts.data !== undefined && method === 'GET') {
    throw new UsageError('--data goes with POST, PATCH, PUT or DELETE, not GET');
  }
  // `{agent}` only asks for an agent when the path has one to fill.
  const agent = path.includes('{agent}') ? encodeURIComponent(await ctx.agent()) : undefined;
  const filled = agent === undefined ? path : path.replaceAll('{agent}', agent);
  const body =
    opts.data === undefined ? undefined : (await readJsonData(opts.data, ctx.io.stdin, ctx.cwd)).value;
  const client = await ctx.client();
  const answer = await client.request(method, filled, { body });
  if (answer.body === undefined) {
    ctx.io.note(`${answer.status}: no content.`);
    return;
  }
  const compact = ctx.options.output === 'ndjson';
  ctx.io.stdout.write(`${JSON.stringify(answer.body, null, compact ? undefined : 2)}\n`);
}
