// The mock's front door, shared by every adapter (node:http, msw): the test controls under
// `/__mock/`, then the faults a run asked for (rate limit, latency, injected errors, dropped
// connections), then the API itself (`answerApi`), and the request log. It decides, and writes
// the answer's JSON; an adapter only carries the outcome out: send it, or drop the connection.
import { REQUEST_ID_HEADER } from '../api/headers.js';
import { CHATBOT_NOT_FOUND, RATE_LIMIT_EXCEEDED } from '../api/messages.js';
import { redactSecrets } from '../core/redact.js';
import { badRequest, MockHttpError } from './errors.js';
import type { FaultKind } from './faults.js';
import {
  answerApi,
  authenticate,
  errorResponse,
  type MockRequest,
  type MockResponse,
  type MockState,
  newRequestId,
  payloadTooLarge,
} from './handler.js';
import type { RequestLogEntry } from './request-log.js';
import type { ResetResult } from './store.js';

/** An answer as it goes on the wire: its headers (content type included) and its JSON text. */
export interface WireResponse {
  status: number;
  /** This answer's own object (an adapter may add to it), the content type included. */
  headers: Record<string, string>;
  /** The JSON text; empty for no body. */
  body: string;
}

/** What an adapter does with a request: answer it, or drop the connection unanswered. */
export type MockOutcome = { drop: false; response: WireResponse } | { drop: true };

const JSON_TYPE = 'application/json; charset=utf-8';

/** The test controls' prefix: no API path starts with it (the API lives under `/api/`). */
export const ADMIN_PREFIX = '/__mock/';
const ADMIN_ROUTES: Record<string, readonly string[]> = {
  '/__mock/reset': ['POST'],
  '/__mock/requests': ['GET', 'DELETE'],
};

const DROP: MockOutcome = { drop: true };

/** The answer with its body written as JSON, the one place it is. */
function answer(state: MockState, response: MockResponse): MockOutcome {
  const headers = { ...response.headers, 'content-type': JSON_TYPE };
  try {
    const body = response.json ?? (response.body === undefined ? '' : JSON.stringify(response.body));
    return { drop: false, response: { status: response.status, headers, body } };
  } catch (error) {
    // A page too large to put in one string costs this answer, never the process.
    state.onError(error);
    const body = JSON.stringify({ message: 'Internal server error' });
    return { drop: false, response: { status: 500, headers, body } };
  }
}

/** What a reset did: `POST /__mock/reset`'s answer. */
export interface ResetOutcome {
  /** The agent reset, or null for every agent. */
  agent: string | null;
  /** What was removed before the seed (if any) went back. */
  removed: { contacts: number; attributes: number };
  /** Whether any seed records (the agent's part of the seed) were put back. */
  seeded: boolean;
  /** Whether the request log was emptied and the faults started over (a reset of every agent). */
  requests_cleared: boolean;
}

/**
 * Empties the store (or puts the seed back), the request log, and replays faults from their
 * seed: `POST /__mock/reset` and the server handle's `reset()`. With an agent, only that agent's
 * records are removed (and its part of the seed put back); the log and the faults go on.
 */
export function resetState(state: MockState, agent?: string): ResetOutcome {
  const { store, seed } = state;
  // One unit: processes sharing the database never see it empty or half-seeded.
  const { removed, seeded } = store.atomically((): { removed: ResetResult; seeded: boolean } => {
    const result = store.reset(agent);
    if (!seed) return { removed: result, seeded: false };
    seed(store, agent);
    // What was emptied holds only what the seed put back: a seed may have nothing for this agent.
    const filled =
      agent === undefined
        ? store.agentIds().length > 0
        : store.count(agent) > 0 || store.attributeNames(agent).size > 0;
    return { removed: result, seeded: filled };
  });
  if (agent === undefined) {
    state.log.clear();
    state.faults?.reset();
  }
  return {
    agent: agent ?? null,
    removed: { contacts: removed.contacts, attributes: removed.attributes },
    seeded,
    requests_cleared: agent === undefined,
  };
}

/** A request whose id is settled. */
type IdentifiedRequest = MockRequest & { requestId: string };

/**
 * One request through the front door: the outcome, or with latency to wait out a promise of it.
 */
export function respond(state: MockState, req: MockRequest): MockOutcome | Promise<MockOutcome> {
  const started = performance.now();
  req.requestId ??= newRequestId();
  const request = req as IdentifiedRequest;
  if (req.path.startsWith(ADMIN_PREFIX)) {
    // An oversized body was dropped unread: a reset must not take it for "no agent, reset all".
    if (req.tooLarge) {
      const refused = payloadTooLarge();
      return answer(state, {
        ...refused,
        headers: { [REQUEST_ID_HEADER]: request.requestId, ...refused.headers },
      });
    }
    return answer(state, admin(state, request));
  }

  if (req.tooLarge) return finish(state, request, started, payloadTooLarge());
  const { faults } = state;
  if (!faults || req.path === '/health') return handled(state, request, started);

  const limit = faults.checkRateLimit();
  if (limit && !limit.allowed) {
    return finish(
      state,
      request,
      started,
      errorResponse(new MockHttpError(429, RATE_LIMIT_EXCEEDED)),
      undefined,
      limit.headers,
    );
  }
  const fault = faults.nextFault();
  const go = (): MockOutcome | Promise<MockOutcome> => {
    if (req.gone?.()) return DROP;
    if (fault === 'reset') {
      log(state, request, started, 0, fault);
      return DROP;
    }
    if (fault === 'error-500' || fault === 'error-503') {
      const status = fault === 'error-500' ? 500 : 503;
      const message = status === 500 ? 'Internal server error (injected)' : 'Service unavailable (injected)';
      const extra = status === 503 ? { ...limit?.headers, 'retry-after': '1' } : limit?.headers;
      return finish(state, request, started, errorResponse(new MockHttpError(status, message)), fault, extra);
    }
    if (fault === 'lost') {
      // Handled (a write committed), then the answer is lost on the way.
      const response = answerApi(state, request);
      if (response.error !== undefined) state.onError(response.error);
      log(state, request, started, 0, fault);
      return DROP;
    }
    return handled(state, request, started, limit?.headers);
  };
  if (faults.latencyMs <= 0) return go();
  return faults.waitLatency(state.closing).then(go, () => DROP); // closing: dropped
}

function log(
  state: MockState,
  req: IdentifiedRequest,
  started: number,
  status: number,
  fault?: FaultKind,
  ignored?: string[],
): void {
  const entry: RequestLogEntry = {
    method: req.method,
    path: req.path,
    status,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    requestId: req.requestId,
  };
  if (fault) entry.fault = fault;
  if (ignored) entry.ignored = ignored;
  state.log.record(entry);
}

/** The answer, its headers the request id first, then its own, then `extra`; logged. */
function finish(
  state: MockState,
  req: IdentifiedRequest,
  started: number,
  response: MockResponse,
  fault?: FaultKind,
  extra?: Record<string, string>,
): MockOutcome {
  const headers: Record<string, string> = { [REQUEST_ID_HEADER]: req.requestId };
  for (const name in response.headers) headers[name] = response.headers[name]!;
  if (extra) for (const name in extra) headers[name] = extra[name]!;
  response.headers = headers;
  if (response.error !== undefined) state.onError(response.error);
  log(state, req, started, response.status, fault, response.ignored);
  return answer(state, response);
}

/** The API's answer (its writes are committed by the time the store returns). */
function handled(
  state: MockState,
  req: IdentifiedRequest,
  started: number,
  extra?: Record<string, string>,
): MockOutcome {
  return finish(state, req, started, answerApi(state, req), undefined, extra);
}

/** The test controls: not part of the API, never logged, never faulted. */
function admin(state: MockState, req: IdentifiedRequest): MockResponse {
  const headers = { [REQUEST_ID_HEADER]: req.requestId };
  try {
    const allowed = ADMIN_ROUTES[req.path];
    if (!allowed) {
      throw new MockHttpError(
        404,
        `No such mock control: ${redactSecrets(req.path)} (there are ${Object.keys(ADMIN_ROUTES).join(', ')})`,
      );
    }
    // With a list of keys, the controls want one of them too: they can empty the store.
    if (state.keys !== null) authenticate(state, req.headers['authorization']);
    if (!allowed.includes(req.method)) {
      throw new MockHttpError(405, `Method ${req.method} not allowed here (allowed: ${allowed.join(', ')})`, {
        headers: { allow: allowed.join(', ') },
      });
    }
    if (req.path === '/__mock/reset') {
      const agent = resetAgent(req);
      if (agent !== undefined && state.agents !== null && !state.agents.has(agent)) {
        throw new MockHttpError(404, CHATBOT_NOT_FOUND);
      }
      return { status: 200, headers, body: { message: 'Success', data: resetState(state, agent) } };
    }
    if (req.method === 'DELETE') {
      state.log.clear();
      return { status: 200, headers, body: { message: 'Success', data: [] } };
    }
    return { status: 200, headers, body: { message: 'Success', data: state.log.entries } };
  } catch (error) {
    if (!(error instanceof MockHttpError)) {
      state.onError(error);
      return {
        status: 500,
        headers,
        body: { message: `Internal server error: ${(error as Error).message}` },
      };
    }
    const response = errorResponse(error);
    if (response.error !== undefined) state.onError(response.error);
    return { ...response, headers: { ...response.headers, ...headers } };
  }
}

/**
 * The agent a reset names: `?agent=ID` or a JSON body `{"agent": "ID"}`; undefined (every agent)
 * when neither does.
 */
function resetAgent(req: MockRequest): string | undefined {
  const fromQuery = req.query.get('agent') ?? undefined;
  let fromBody: unknown;
  const text = req.body === undefined ? '' : req.body.toString().trim();
  if (text !== '') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw badRequest(`Malformed JSON: ${(error as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw badRequest('The JSON body must be an object, e.g. {"agent": "ID"}');
    }
    fromBody = (value as { agent?: unknown }).agent;
    if (fromBody !== undefined && (typeof fromBody !== 'string' || fromBody === '')) {
      throw badRequest('Invalid request body', [
        { field: 'agent', message: 'Expected an agent id (a non-empty string)' },
      ]);
    }
  }
  if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
    throw badRequest(`The query names agent ${fromQuery} and the body ${String(fromBody)}: name one`);
  }
  const agent = (fromBody as string | undefined) ?? fromQuery;
  if (agent === '')
    throw badRequest('Invalid request parameters', [{ field: 'agent', message: 'Expected an agent id' }]);
  return agent;
}
