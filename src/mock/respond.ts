// The mock's front door, shared by every adapter (node:http, msw): the test controls under
// `/__mock/`, then the faults a run asked for (rate limit, latency, injected errors, dropped
// connections), then the API itself (`answerApi`), and the request log. It decides; an
// adapter only carries the outcome out: send the response, or drop the connection.
import { setTimeout as delay } from 'node:timers/promises';
import { REQUEST_ID_HEADER } from '../api/headers.js';
import { MockHttpError } from './errors.js';
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

/** What an adapter does with a request: answer it, or drop the connection unanswered. */
export type MockOutcome = { drop: false; response: MockResponse } | { drop: true };

/** The test controls' prefix: no API path starts with it (the API lives under `/api/`). */
export const ADMIN_PREFIX = '/__mock/';
const ADMIN_ROUTES: Record<string, readonly string[]> = {
  '/__mock/reset': ['POST'],
  '/__mock/requests': ['GET', 'DELETE'],
};

const answer = (response: MockResponse): MockOutcome => ({ drop: false, response });
const DROP: MockOutcome = { drop: true };

/**
 * Empties the store (or puts the seed back), the request log, and replays faults from their
 * seed: `POST /__mock/reset` and the server handle's `reset()`.
 */
export function resetState(state: MockState): void {
  const { store, seed } = state;
  // One unit: processes sharing the database never see it empty or half-seeded.
  store.atomically(() => {
    store.reset();
    seed?.(store);
  });
  state.log.clear();
  state.faults?.reset();
}

/** A request whose id is settled. */
type IdentifiedRequest = MockRequest & { requestId: string };

/**
 * One request through the front door. Synchronous when nothing has to wait (no latency, no
 * commit pending), so the common case costs no promise; else a promise of the outcome.
 */
export function respond(state: MockState, req: MockRequest): MockOutcome | Promise<MockOutcome> {
  const started = performance.now();
  req.requestId ??= newRequestId();
  const request = req as IdentifiedRequest;
  if (req.path.startsWith(ADMIN_PREFIX)) {
    const response = admin(state, request);
    const commit = state.store.pending();
    if (!commit) return answer(response);
    return commit.then(
      () => answer(response),
      (error) => {
        const refused = failed(error);
        refused.headers = { [REQUEST_ID_HEADER]: request.requestId, ...refused.headers };
        return answer(refused);
      },
    );
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
      errorResponse(new MockHttpError(429, 'Rate limit exceeded')),
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
      const commit = state.store.pending();
      return commit
        ? commit.then(
            () => DROP,
            () => DROP,
          )
        : DROP;
    }
    return handled(state, request, started, limit?.headers);
  };
  if (faults.latencyMs <= 0) return go();
  return delay(faults.latencyMs, undefined, { signal: state.closing }).then(go, () => DROP); // closing: dropped
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
  return answer(response);
}

/** The API's answer, sent only once the writes it reports are committed. */
function handled(
  state: MockState,
  req: IdentifiedRequest,
  started: number,
  extra?: Record<string, string>,
): MockOutcome | Promise<MockOutcome> {
  const response = answerApi(state, req);
  const commit = state.store.pending();
  if (!commit) return finish(state, req, started, response, undefined, extra);
  return commit.then(
    () => finish(state, req, started, response, undefined, extra),
    (error) => finish(state, req, started, failed(error), undefined, extra),
  );
}

/** The answer to a request whose writes could not be committed: the 5xx the store gave, else a 500. */
function failed(error: unknown): MockResponse {
  if (error instanceof MockHttpError) return errorResponse(error);
  return { status: 500, headers: {}, body: { message: 'Internal server error' }, error };
}

/** The test controls: not part of the API, never logged, never faulted. */
function admin(state: MockState, req: IdentifiedRequest): MockResponse {
  const headers = { [REQUEST_ID_HEADER]: req.requestId };
  try {
    const allowed = ADMIN_ROUTES[req.path];
    if (!allowed) {
      throw new MockHttpError(
        404,
        `No such mock control: ${req.path} (there are ${Object.keys(ADMIN_ROUTES).join(', ')})`,
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
      resetState(state);
      return { status: 200, headers, body: { message: 'Success', data: { seeded: state.seed !== null } } };
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
    return { ...response, headers: { ...response.headers, ...headers } };
  }
}
