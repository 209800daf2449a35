// One request in, one response out: authentication, routing, body checks and the contract's
// envelopes over the store. Transport-free, so the node:http server and msw share it.

import { randomBytes } from 'node:crypto';
import type { SplitFields } from '../api/contact.js';
import type { Pagination } from '../api/envelope.js';
import {
  CHATBOT_NOT_FOUND,
  dotSegmentOf,
  INVALID_BODY,
  INVALID_PARAMETERS,
  ignoredFieldsHeaders,
  isWellFormedApiKey,
  jsonDepthExceeds,
  ListQuerySchema,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  matchPath,
  type OperationId,
  operationFor,
  REQUEST_ID_HEADER,
  SUCCESS,
  splitUnknownBatchFields,
  splitUnknownFields,
  toIssues,
  UNAUTHORIZED,
  UNKNOWN_FIELD,
} from '../api/index.js';
import { buildOpenApiDocument } from '../api/openapi.js';
import { redactSecrets } from '../core/redact.js';
import { VERSION } from '../core/version.js';
import { badRequest, MockHttpError, notFound } from './errors.js';
import { createFaultInjector, type FaultInjector, type FaultOptions } from './faults.js';
import { RequestLog, type RequestLogEntry } from './request-log.js';
import { createMockStore } from './sqlite-store.js';
import type { MockStore } from './store.js';

export interface MockState {
  store: MockStore;
  /** The accepted keys; null accepts any well-formed `bk_` key. */
  keys: ReadonlySet<string> | null;
  /** The agents that exist; null: every agent id exists (a mock convenience). */
  agents: ReadonlySet<string> | null;
  /** Answer unknown fields with 400 `Unknown field` instead of dropping them (production drops). */
  strict: boolean;
  /** The faults a run asked for (rate limit, latency, injected errors); null for none. */
  faults: FaultInjector | null;
  log: RequestLog;
  /** Puts the seed (with an agent, that agent's part) into an emptied store; null without a seed. */
  seed: MockSeed | null;
  /** Aborted when the adapter closes: answers still waiting out their latency are dropped. */
  closing: AbortSignal;
  /** Told about unexpected errors behind a 500. */
  onError: (error: unknown) => void;
}

/** Puts a seed into a store: every agent's part, or with `agent` that one's only. */
export type MockSeed = (store: MockStore, agent?: string) => void;

export interface MockStateOptions {
  keys?: Iterable<string>;
  store?: MockStore;
  /** Declared agents: any other agent's routes answer `404 "Chatbot not found"`, as production's. */
  agents?: Iterable<string>;
  /** Refuse unknown fields (400 `Unknown field` at each path) instead of dropping and reporting them. */
  strict?: boolean;
  /** Contacts one agent may hold; past it, `400 "Maximum contacts limit reached"`. */
  maxContacts?: number;
  faults?: FaultOptions;
  /** Called with each request's log entry (the log itself keeps the last ones). */
  onRequest?: (entry: RequestLogEntry) => void;
  onError?: (error: unknown) => void;
  /** Applied to the store now, when it is empty, and after each reset. */
  seed?: MockSeed;
  closing?: AbortSignal;
}

export function createMockState(options: MockStateOptions = {}): MockState {
  const onError = options.onError ?? (() => {});
  const store = options.store ?? createMockStore({ maxContacts: options.maxContacts });
  // Into an empty store only: a database that already holds state (restarted with --data) keeps it.
  const { seed } = options;
  if (seed) {
    store.atomically(() => {
      if (store.agentIds().length === 0) seed(store);
    });
  }
  return {
    store,
    keys: options.keys === undefined ? null : new Set(options.keys),
    agents: options.agents === undefined ? null : new Set(options.agents),
    strict: options.strict ?? false,
    faults: options.faults ? createFaultInjector(options.faults) : null,
    log: new RequestLog(options.onRequest, onError),
    seed: options.seed ?? null,
    closing: options.closing ?? new AbortController().signal,
    onError,
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
  /** The id to answer with (`x-request-id`); a new one when absent. Adapters pass theirs to log it. */
  requestId?: string;
  /** The body ran past the limit (the adapter stopped keeping it): the answer is 413. */
  tooLarge?: boolean;
  /** Whether the client has gone (hung up) meanwhile: a request delayed by latency is then dropped unhandled. */
  gone?: () => boolean;
}

export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value; undefined for no body, or when `json` holds it. */
  body: unknown;
  /**
   * The body as JSON text, when it was written as text (the store keeps each contact as its
   * JSON, and SQLite joins a page's): then `body` is undefined. `handleRequest` parses it back.
   */
  json?: string;
  /** Dotted paths of the fields dropped from the request (also in `x-contacts-ignored`). */
  ignored?: string[];
  /** An unexpected error behind a 500, for the adapter to report. */
  error?: unknown;
}

/** The mock's own paths beside the API's operations: not part of the API, no key needed. */
const META_PATHS: Record<string, readonly string[]> = { '/health': ['GET'], '/openapi.json': ['GET'] };

const BEARER_RE = /^Bearer +(\S+)$/i;

const success = (status: number, data: unknown): MockResponse => ({
  status,
  headers: {},
  body: { message: SUCCESS, data },
});

/** The success envelope's text up to its `data`. */
const SUCCESS_DATA = `{"message":${JSON.stringify(SUCCESS)},"data":`;

/** `success` for `data` given as JSON text: the same bytes `JSON.stringify` would write. */
const successJson = (status: number, data: string): MockResponse => ({
  status,
  headers: {},
  body: undefined,
  json: `${SUCCESS_DATA}${data}}`,
});

/** The list's answer: the envelope, the page's array (JSON text), its total and its pages. */
function listJson(data: string, total: number, pages: Pagination): MockResponse {
  const { page, per_page, total_pages } = pages;
  return {
    status: 200,
    headers: {},
    body: undefined,
    json: `${SUCCESS_DATA}${data},"total":${total},"pages":{"page":${page},"per_page":${per_page},"total_pages":${total_pages}}}`,
  };
}

export function errorResponse(error: MockHttpError): MockResponse {
  const body: { message: string; code?: string; issues?: unknown } = { message: error.message };
  if (error.code) body.code = error.code;
  if (error.issues) body.issues = error.issues;
  const response: MockResponse = { status: error.status, headers: error.headers, body };
  // A server error with a cause (a full disk, a damaged database) is also the operator's to read.
  if (error.status >= 500 && error.cause !== undefined) response.error = error;
  return response;
}

/** The 413 answer, shared with adapters that stop reading an oversized body early. */
export const payloadTooLarge = (): MockResponse => errorResponse(tooLarge());
const tooLarge = () => new MockHttpError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`);

/** Tells this process's ids from another's (another mock on the same file, a restart). */
const PROCESS_TAG = randomBytes(4).toString('hex');
let requestCounter = 0;

/** Unique per response, sortable by time: what a user quotes to support. */
export function newRequestId(): string {
  requestCounter = (requestCounter + 1) % 36 ** 4;
  return `req_${Date.now().toString(36)}${PROCESS_TAG}${requestCounter.toString(36).padStart(4, '0')}`;
}

export function handleRequest(state: MockState, req: MockRequest): MockResponse {
  const response = answerApi(state, req);
  // Every response, errors included, carries its own id (contract revision 2).
  response.headers = { ...response.headers, [REQUEST_ID_HEADER]: req.requestId ?? newRequestId() };
  if (response.json !== undefined) response.body = JSON.parse(response.json);
  return response;
}

/**
 * `handleRequest` without the request id header: for `respond`, which puts the id first among
 * the headers itself (one copy of them instead of two).
 */
export function answerApi(state: MockState, req: MockRequest): MockResponse {
  try {
    return route(state, req);
  } catch (error) {
    if (error instanceof MockHttpError) return errorResponse(error);
    return { status: 500, headers: {}, body: { message: 'Internal server error' }, error };
  }
}

/**
 * A contact body with the fields production does not know taken out (reported in
 * `x-contacts-ignored`), or in strict mode a 400 naming each of them.
 */
function dropUnknownFields(state: MockState, agentId: string, body: unknown, batch = false): SplitFields {
  const names = state.store.attributeNames(agentId);
  const split =
    batch && isPlainObject(body) ? splitUnknownBatchFields(body, names) : splitUnknownFields(body, names);
  if (state.strict && split.ignored.length > 0) {
    throw badRequest(
      INVALID_BODY,
      split.ignored.map((field) => ({ field, message: UNKNOWN_FIELD })),
    );
  }
  return split;
}

/**
 * Adds `x-contacts-ignored` (and its count) to a success when something was dropped. The keys
 * come from the body, so the header carries them percent-encoded and cut to a safe length.
 */
function reporting(response: MockResponse, ignored: string[]): MockResponse {
  if (ignored.length === 0) return response;
  return { ...response, headers: { ...response.headers, ...ignoredFieldsHeaders(ignored) }, ignored };
}

/** What an operation's handler is given: the state, the request and the path's parameters. */
interface OperationCall {
  state: MockState;
  req: MockRequest;
  agent: string;
  /** A contact's external_id or service id, trimmed (routes of one contact). */
  id: string;
  /** An attribute's name (routes of one attribute). */
  name: string;
}

/**
 * The API's operations, each answered by one handler, keyed by the operation's id in the API's
 * table (`src/api/operations.ts`): a handler is a value, and the type makes every operation
 * have one.
 */
const OPERATION_HANDLERS: { readonly [Id in OperationId]: (call: OperationCall) => MockResponse } = {
  listContacts({ state, req, agent }) {
    const query = ListQuerySchema.safeParse(Object.fromEntries(req.query));
    if (!query.success) throw badRequest(INVALID_PARAMETERS, toIssues(query.error));
    const page = state.store.listContactsJson(agent, query.data);
    return listJson(page.data, page.total, page.pages);
  },
  upsertContact({ state, req, agent }) {
    const body = jsonBody(req);
    const { store } = state;
    // One transaction: the unknown fields are told by the definitions the write checks against.
    return store.atomically(() => {
      if ('users' in body) {
        const split = dropUnknownFields(state, agent, body, true);
        return reporting(success(200, store.batchUpsert(agent, split.body)), split.ignored);
      }
      const split = dropUnknownFields(state, agent, body);
      const { json, created } = store.upsertContact(agent, split.body);
      return reporting(successJson(created ? 201 : 200, json), split.ignored);
    });
  },
  getContact: ({ state, agent, id }) => successJson(200, state.store.contactJson(agent, id)),
  deleteContact: ({ state, agent, id }) => success(200, state.store.deleteContact(agent, id)),
  updateContact({ state, req, agent, id }) {
    const body = unwrapData(jsonBody(req));
    const { store } = state;
    return store.atomically(() => {
      const split = dropUnknownFields(state, agent, body);
      return reporting(success(200, store.patchContact(agent, id, split.body)), split.ignored);
    });
  },
  listAttributes: ({ state, agent }) => success(200, state.store.listAttributes(agent)),
  // 200, not 201: production answers a definition with 200.
  defineAttribute: ({ state, req, agent }) => success(200, state.store.defineAttribute(agent, jsonBody(req))),
  updateAttribute: ({ state, req, agent, name }) =>
    success(200, state.store.updateAttribute(agent, name, jsonBody(req))),
};

function route(state: MockState, req: MockRequest): MockResponse {
  const { method, path } = req;
  if (path === '/health') {
    allowMethod(method, META_PATHS[path]!);
    return success(200, { status: 'ok' });
  }
  if (path === '/openapi.json') {
    allowMethod(method, META_PATHS[path]!);
    return { status: 200, headers: {}, body: buildOpenApiDocument(VERSION) };
  }

  authenticate(state, req.headers['authorization']);
  // Not resolved away as a URL parser would (a proxy in front of the service would): a `..`
  // contact id must not turn a DELETE of one contact into one of the path above it.
  const dot = dotSegmentOf(path);
  if (dot !== undefined) {
    throw new MockHttpError(
      404,
      `No such endpoint: ${method} ${redactSecrets(path)} (a ${JSON.stringify(dot)} segment names no contact, agent or attribute: URL parsers and proxies resolve it away)`,
    );
  }
  // Routing and 405s come from the operations table, as the client's paths and the OpenAPI do.
  const matched = matchPath(path);
  // The path as the request log shows it: a key pasted into a URL is not echoed back.
  if (!matched) throw new MockHttpError(404, `No such endpoint: ${method} ${redactSecrets(path)}`);
  allowMethod(method, matched.methods);
  const op = operationFor(method, matched.template)!;
  const { agentId, name = '' } = matched.params as Record<string, string>;
  const agent = agentId!;
  if (state.agents !== null && !state.agents.has(agent)) throw notFound(CHATBOT_NOT_FOUND);
  // Trimmed as an upsert trims the external_id it stores, so `" pad "` finds what it stored.
  const id = (matched.params['id'] ?? '').trim();
  return OPERATION_HANDLERS[op.id]({ state, req, agent, id, name });
}

function allowMethod(method: string, allowed: readonly string[]): void {
  if (!allowed.includes(method)) {
    throw new MockHttpError(405, `Method ${method} not allowed here (allowed: ${allowed.join(', ')})`, {
      headers: { allow: allowed.join(', ') },
    });
  }
}

export function authenticate(state: Pick<MockState, 'keys'>, header: string | string[] | undefined): void {
  const value = Array.isArray(header) ? header[0] : header;
  // One message for every 401, as production: which part was wrong is not said.
  if (!value?.trim()) throw unauthorized(UNAUTHORIZED);
  const key = BEARER_RE.exec(value.trim())?.[1];
  if (!key || !isWellFormedApiKey(key) || (state.keys !== null && !state.keys.has(key))) {
    throw unauthorized(UNAUTHORIZED);
  }
}

const unauthorized = (message: string) =>
  new MockHttpError(401, message, { headers: { 'www-authenticate': 'Bearer' } });

/** Whether a Content-Type names JSON: `application/json` or `application/*+json`, parameters aside. */
export function isJsonMediaType(contentType: string | string[] | undefined): boolean {
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
