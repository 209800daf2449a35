// One request in, one response out: authentication, routing, body checks and the contract's
// envelopes over the store. Transport-free, so the node:http server and msw share it.
import {
  isWellFormedApiKey,
  jsonDepthExceeds,
  ListQuerySchema,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  matchRoute,
  type Route,
  toIssues,
} from '../api/index.js';
import { buildOpenApiDocument } from '../api/openapi.js';
import { VERSION } from '../client/version.js';
import { badRequest, MockHttpError } from './errors.js';
import { type ContactPage, createMockStore, type MockStore } from './store.js';

export interface MockState {
  store: MockStore;
  /** The accepted keys; null accepts any well-formed `bk_` key. */
  keys: ReadonlySet<string> | null;
}

export interface MockStateOptions {
  keys?: Iterable<string>;
  store?: MockStore;
}

export function createMockState(options: MockStateOptions = {}): MockState {
  return {
    store: options.store ?? createMockStore(),
    keys: options.keys === undefined ? null : new Set(options.keys),
  };
}

export interface MockRequest {
  method: string;
  /** The URL's pathname, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  /** Header names lowercased. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | string | undefined;
}

export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value; undefined for no body. */
  body: unknown;
  /** An unexpected error behind a 500, for the adapter to report. */
  error?: unknown;
}

const ALLOW: Record<Route['kind'] | 'health' | 'openapi', readonly string[]> = {
  contacts: ['GET', 'POST'],
  contact: ['GET', 'PATCH', 'DELETE'],
  attributes: ['GET', 'POST'],
  attribute: ['PUT'],
  health: ['GET'],
  openapi: ['GET'],
};

const BEARER_RE = /^Bearer +(\S+)$/i;

const success = (status: number, data: unknown): MockResponse => ({
  status,
  headers: {},
  body: { message: 'Success', data },
});

export function errorResponse(error: MockHttpError): MockResponse {
  const body: { message: string; issues?: unknown } = { message: error.message };
  if (error.issues) body.issues = error.issues;
  return { status: error.status, headers: error.headers, body };
}

/** The 413 answer, shared with adapters that stop reading an oversized body early. */
export const payloadTooLarge = (): MockResponse => errorResponse(tooLarge());
const tooLarge = () => new MockHttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`);

const listEnvelopes = new WeakMap<ContactPage, object>();

/** The list body; for a cached (frozen) page, one frozen envelope per page, so its JSON is reused. */
function listEnvelope(page: ContactPage): object {
  if (!Object.isFrozen(page)) return { message: 'Success', ...page };
  let body = listEnvelopes.get(page);
  if (!body) {
    body = Object.freeze({ message: 'Success', ...page });
    listEnvelopes.set(page, body);
  }
  return body;
}

let openApiDocument: Record<string, unknown> | undefined;
function openApi(): Record<string, unknown> {
  openApiDocument ??= buildOpenApiDocument(VERSION);
  return openApiDocument;
}

export function handleRequest(state: MockState, req: MockRequest): MockResponse {
  try {
    return route(state, req);
  } catch (error) {
    if (error instanceof MockHttpError) return errorResponse(error);
    return { status: 500, headers: {}, body: { message: 'Internal server error' }, error };
  }
}

function route(state: MockState, req: MockRequest): MockResponse {
  const { method, path } = req;
  if (path === '/health') {
    allowMethod(method, 'health');
    return success(200, { status: 'ok' });
  }
  if (path === '/openapi.json') {
    allowMethod(method, 'openapi');
    return { status: 200, headers: {}, body: openApi() };
  }

  authenticate(state, req.headers['authorization']);
  const r = matchRoute(path);
  if (!r) throw new MockHttpError(404, `No such endpoint: ${method} ${path}`);
  allowMethod(method, r.kind);
  const { store } = state;

  switch (r.kind) {
    case 'contacts': {
      if (method === 'GET') {
        const query = ListQuerySchema.safeParse(Object.fromEntries(req.query));
        if (!query.success) throw badRequest('Invalid query parameters', toIssues(query.error));
        return { status: 200, headers: {}, body: listEnvelope(store.listContacts(r.agentId, query.data)) };
      }
      const body = jsonBody(req);
      if ('users' in body) return success(200, store.batchUpsert(r.agentId, body));
      const { contact, created } = store.upsertContact(r.agentId, body);
      return success(created ? 201 : 200, contact);
    }
    case 'contact':
      if (method === 'GET') return success(200, store.getContact(r.agentId, r.id));
      if (method === 'DELETE') return success(200, store.deleteContact(r.agentId, r.id));
      return success(200, store.patchContact(r.agentId, r.id, unwrapData(jsonBody(req))));
    case 'attributes':
      if (method === 'GET') return success(200, store.listAttributes(r.agentId));
      return success(201, store.defineAttribute(r.agentId, jsonBody(req)));
    case 'attribute':
      return success(200, store.updateAttribute(r.agentId, r.name, jsonBody(req)));
  }
}

function allowMethod(method: string, kind: keyof typeof ALLOW): void {
  const allowed = ALLOW[kind];
  if (!allowed.includes(method)) {
    throw new MockHttpError(405, `Method ${method} not allowed here (allowed: ${allowed.join(', ')})`, {
      headers: { allow: allowed.join(', ') },
    });
  }
}

function authenticate(state: MockState, header: string | string[] | undefined): void {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value?.trim()) throw unauthorized('No API key provided.');
  const key = BEARER_RE.exec(value.trim())?.[1];
  if (!key || !isWellFormedApiKey(key) || (state.keys !== null && !state.keys.has(key))) {
    throw unauthorized('Unauthorized access');
  }
}

const unauthorized = (message: string) =>
  new MockHttpError(401, message, { headers: { 'www-authenticate': 'Bearer' } });

function isJsonMediaType(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  if (!value) return false;
  const semi = value.indexOf(';');
  const type = (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** The request body as a JSON object, or the contract's 413 / 400 / 415. */
function jsonBody(req: MockRequest): Record<string, unknown> {
  const { body } = req;
  const size = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (size > MAX_BODY_BYTES) throw tooLarge();
  if (size === 0) throw badRequest('A JSON body is required');
  if (!isJsonMediaType(req.headers['content-type'])) {
    throw new MockHttpError(415, 'Content-Type must be application/json');
  }
  let text: string;
  try {
    // Strict: a body that is not UTF-8 is refused, never stored with U+FFFD in place of its bytes.
    text = typeof body === 'string' ? body : UTF8.decode(body);
  } catch {
    throw badRequest('Request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`Malformed JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw badRequest('The JSON body must be an object');
  // Checked before any schema walks it: validation must never recurse without a bound.
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    throw badRequest(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return value;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** PATCH takes the fields bare or, in production's form, wrapped as `{"data": {...}}`. */
function unwrapData(body: Record<string, unknown>): unknown {
  const keys = Object.keys(body);
  return keys.length === 1 && keys[0] === 'data' && isPlainObject(body['data']) ? body['data'] : body;
}
