// msw 2 handlers over the same handleRequest core, for code that talks to the API with fetch.
// The only module that imports msw, so the server never loads it.
import { type HttpHandler, HttpResponse, http } from 'msw';
import { API_PREFIX } from '../api/limits.js';
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

/** The handlers answer the API's paths plus /health and /openapi.json; other requests pass on. */
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
  // msw matches a RegExp against the request URL without its query string.
  // The API's paths all sit under API_PREFIX (the operations table); /health and /openapi.json
  // are the mock's own.
  const pattern = new RegExp(
    `^${origin}${escapeRegExp(prefix)}(?:${escapeRegExp(API_PREFIX)}/.*|/health|/openapi\\.json)$`,
  );

  const handler = http.all(pattern, async ({ request }) => {
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
  });
  return [handler];
}
