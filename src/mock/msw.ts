// msw 2 handlers over the same core as the server (`respond`: faults, test controls, the API),
// for code that talks to the API with fetch. The `contacts-cli/mock/msw` entry and the only
// module that imports msw: msw is an optional peer dependency, so everyone else never loads or
// installs it. Imported statically, not awaited: a top-level await would keep the entry from
// `require()` (Node fails one with ERR_REQUIRE_ASYNC_MODULE); without msw, Node's own error
// names the package (`Cannot find package 'msw'`).
import { type HttpHandler, HttpResponse, http } from 'msw';
import { API_PREFIX } from '../api/limits.js';
import { type HttpMethod, OPERATIONS } from '../api/operations.js';
import type { FaultOptions } from './faults.js';
import { createMockState, type MockSeed, type MockState } from './handler.js';
import type { RequestLogEntry } from './request-log.js';
import { ADMIN_PREFIX, respond } from './respond.js';

export interface MockHandlersOptions {
  /** Only requests under this URL are answered (e.g. `https://api.example.com`); by default any origin. */
  baseUrl?: string;
  /** Accepted keys when no `state` is given; by default any well-formed `bk_` key. */
  keys?: string[];
  /** State to serve, shared with the caller (tests inspect `state.store`). */
  state?: MockState;
  /** Without `state`: refuse unknown fields (400) instead of dropping them. */
  strict?: boolean;
  /** Without `state`: the agents that exist; any other is `404 "Chatbot not found"`. */
  agents?: string[];
  /** Without `state`: contacts one agent may hold. */
  maxContacts?: number;
  /** Without `state`: latency, injected errors, lost responses, a rate limit, as `serve --mock` has them. */
  faults?: FaultOptions;
  /** Without `state`: put into the store now and after each `POST /__mock/reset`. */
  seed?: MockSeed;
  /** Without `state`: called with each request's log entry. */
  onRequest?: (entry: RequestLogEntry) => void;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One handler per operation of the API's table (`src/api/operations.ts`), so that
 * `server.listHandlers()` shows them and a test can put its own in front of one, then one for
 * the rest of the API's paths (404s, 405s) and the mock's /health and /openapi.json. Every one
 * answers through the same front door (`respond`); other requests pass on.
 */
export function createMockHandlers(options: MockHandlersOptions = {}): HttpHandler[] {
  const state =
    options.state ??
    createMockState({
      keys: options.keys,
      strict: options.strict,
      agents: options.agents,
      maxContacts: options.maxContacts,
      faults: options.faults,
      seed: options.seed,
      onRequest: options.onRequest,
    });
  const base = options.baseUrl ? new URL(options.baseUrl) : undefined;
  const prefix = base ? base.pathname.replace(/\/+$/, '') : '';
  const origin = base ? escapeRegExp(base.origin) : 'https?://[^/]+';

  const resolver = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    // Header names come from the request: no prototype for one to land on.
    const headers: Record<string, string> = Object.create(null);
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const outcome = await respond(state, {
      method: request.method,
      path: url.pathname.slice(prefix.length),
      query: url.searchParams,
      headers,
      body: hasBody ? Buffer.from(await request.arrayBuffer()) : undefined,
    });
    // A dropped connection is a network error to fetch, as it is on the wire.
    if (outcome.drop) return HttpResponse.error();
    const { response } = outcome;
    return new HttpResponse(response.body === '' ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };

  // msw's path syntax: `:param` segments, `*` for any origin.
  const at = (template: string) =>
    `${base ? `${base.origin}${prefix}` : '*'}${template.replace(/\{(\w+)\}/g, ':$1')}`;
  const operations = OPERATIONS.map((op) => http[METHODS[op.method]](at(op.path), resolver));

  // msw matches a RegExp against the request URL without its query string.
  const rest = new RegExp(
    `^${origin}${escapeRegExp(prefix)}(?:${escapeRegExp(API_PREFIX)}/.*|${escapeRegExp(ADMIN_PREFIX)}.*|/health|/openapi\\.json)$`,
  );
  return [...operations, http.all(rest, resolver)];
}

const METHODS = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete',
} as const satisfies Record<HttpMethod, keyof typeof http>;
