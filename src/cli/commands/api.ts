// `contacts api <METHOD> <path>`: any request with the configured key, base URL and retries,
// for what has no command yet (gh's `api`). The answer is printed as JSON, or as it came when
// reading it as JSON would change it.
import { jsonNumberProblem } from '../../api/json-numbers.js';
import { type HttpMethod, isDotSegment, PathParamError } from '../../api/operations.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { ApiCommandOptions } from './api-command.js';
import { readJsonData } from './contact-input.js';

export async function api(ctx: CommandContext, method: HttpMethod, path: string, opts: ApiCommandOptions) {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new UsageError(`Give the path, not a URL: ${path}`, {
      hint: 'The base URL comes from --base-url, CONTACTS_BASE_URL or the profile, e.g. contacts api GET /api/v1/chatbots/{agent}/contacts',
    });
  }
  if (opts.data !== undefined && method === 'GET') {
    throw new UsageError('--data goes with POST, PATCH, PUT or DELETE, not GET');
  }
  // `{agent}` only asks for an agent when the path has one to fill.
  const agent = path.includes('{agent}') ? agentSegment(await ctx.agent(), path) : undefined;
  const filled = agent === undefined ? path : path.replaceAll('{agent}', agent);
  const body =
    opts.data === undefined ? undefined : (await readJsonData(opts.data, ctx.io.stdin, ctx.cwd)).value;
  const client = await ctx.client();
  // A POST or PATCH may have been applied when its answer was lost: sent again only when the
  // connection was refused, which it never left.
  const answer = await client.request(method, filled, {
    body,
    retryOnlyRefused: method === 'POST' || method === 'PATCH',
  });
  if (answer.body === undefined) {
    ctx.io.note(`${answer.status}: no content.`);
    return;
  }
  // Not JSON, or numbers JSON.parse would round (ids past 2^53): the text as the service sent it.
  if (typeof answer.body === 'string' || jsonNumberProblem(answer.text) !== null) {
    ctx.io.stdout.write(answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
    return;
  }
  const compact = ctx.options.output === 'ndjson';
  ctx.io.stdout.write(`${JSON.stringify(answer.body, null, compact ? undefined : 2)}\n`);
}

/** The agent id as a path segment; `.` and `..` would be resolved away (PathParamError). */
function agentSegment(agentId: string, path: string): string {
  const segment = encodeURIComponent(agentId);
  if (isDotSegment(segment))
    throw new PathParamError('agentId', agentId, path.replaceAll('{agent}', segment));
  return segment;
}
