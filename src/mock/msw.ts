// msw 2 handlers over the same handleRequest core, for code that talks to the API with fetch.
// The only module that imports msw, so the server never loads it.
import { type HttpHandler, HttpResponse, http } from 'msw';
import { API_PREFIX } from '../api/limits.js';
import { type HttpMethod, OPERATIONS } from '../api/operations.js';
import { createMockState, handleRequest, type MockState } from './handler.js';
import { toJson } from './json.js';

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
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One handler per operation of the API's table (`src/api/operations.ts`), so that
 * `server.listHandlers()` shows them and a test can put its own in front of one, then one for
 * the rest of the API's paths (404s, 405s) and the mock's /health and /openapi.json. Every one
 * answers through the same `handleRequest`; other requests pass on.
 */
export function createMockHandlers(options: MockHandlersOptions = {}): HttpHandler[] {
  const state =
    options.state ??
    createMockState({
      keys: options.keys,
      strict: options.strict,
      agents: options.agents,
      maxContacts: options.maxContacts,
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
    const response = handleRequest(state, {
      method: request.method,
      path: url.pathname.slice(prefix.length),
      query: url.searchParams,
      headers,
      body: hasBody ? Buffer.from(await request.arrayBuffer()) : undefined,
    });
    return new HttpResponse(response.body === undefined ? null : toJson(response.body), {
      status: response.status,
      headers: { ...response.headers, 'content-type': 'application/json; charset=utf-8' },
    });
  };

  // msw's path syntax: `:param` segments, `*` for any origin.
  const at = (template: string) =>
    `${base ? `${base.origin}${prefix}` : '*'}${template.replace(/\{(\w+)\}/g, ':$1')}`;
  const operations = OPERATIONS.map((op) => http[METHODS[op.method]](at(op.path), resolver));

  // msw matches a RegExp against the request URL without its query string.
  const rest = new RegExp(
    `^${origin}${escapeRegExp(prefix)}(?:${escapeRegExp(API_PREFIX)}/.*|/health|/openapi\\.json)$`,
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
