// The mock on the wire: a node:http server over handleRequest, with persistence, fault
// injection and a bounded request log.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { REQUEST_ID_HEADER } from '../api/headers.js';
import { MAX_BODY_BYTES } from '../api/limits.js';
import { MockHttpError } from './errors.js';
import { createFaultInjector, type FaultInjector, type FaultKind, type FaultOptions } from './faults.js';
import {
  createMockState,
  errorResponse,
  handleRequest,
  type MockResponse,
  type MockState,
  newRequestId,
  payloadTooLarge,
} from './handler.js';
import { toJson } from './json.js';
import { createPersistence, type Persistence } from './persistence.js';
import { createMockStore, type MockStore } from './store.js';

export interface RequestLogEntry {
  method: string;
  /** The pathname, without the query string. */
  path: string;
  /** 0 when the connection was dropped without an answer (a `reset` or `lost` fault). */
  status: number;
  durationMs: number;
  fault?: FaultKind;
  /** The `x-request-id` the answer carried (or would have carried, for a dropped connection). */
  requestId: string;
  /** Fields dropped from the request as production drops them (`x-contacts-ignored`). */
  ignored?: string[];
}

export interface MockServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Accept only these keys; by default any well-formed `bk_` key is accepted. */
  keys?: string[];
  /** The agents that exist; any other agent is `404 "Chatbot not found"`. By default every agent exists. */
  agents?: string[];
  /** Unknown fields are refused (400 `Unknown field`) instead of dropped and reported, as production does. */
  strict?: boolean;
  /** Contacts one agent may hold; past it, `400 "Maximum contacts limit reached"`. */
  maxContacts?: number;
  /** Load state from this JSON file at start and keep it saved there. */
  dataFile?: string;
  faults?: FaultOptions;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Told about unexpected handler errors (answered 500) and failed background saves. */
  onError?: (error: unknown) => void;
}

export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly state: MockState;
  readonly store: MockStore;
  /** The most recent requests, oldest first (at most `REQUEST_LOG_LIMIT`). */
  readonly requests: readonly RequestLogEntry[];
  /** The active fault injector, or null without faults. */
  readonly faults: FaultInjector | null;
  readonly dataFile: string | undefined;
  /** Resolves once `close()` has finished, however it ended. */
  readonly closed: Promise<void>;
  /** Empties the store and the request log and replays faults from their seed. */
  reset(): void;
  /** Resolves when every change so far is in the data file (immediately without one). */
  flush(): Promise<void>;
  /** Stops listening, ends open connections (keep-alive ones too) and flushes the data file. */
  close(): Promise<void>;
}

export const REQUEST_LOG_LIMIT = 1000;

interface ReadRequest {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  search: string;
  body: Buffer | undefined;
  /** performance.now() when the request arrived. */
  started: number;
  requestId: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const store = createMockStore({ maxContacts: options.maxContacts });
  const state = createMockState({
    store,
    keys: options.keys,
    agents: options.agents,
    strict: options.strict,
  });
  const faults = options.faults ? createFaultInjector(options.faults) : null;
  const onError = options.onError ?? (() => {});

  let persistence: Persistence | undefined;
  if (options.dataFile) {
    persistence = createPersistence(options.dataFile, () => store.snapshot(), { onError });
    // A restore failure comes back as an error naming the file.
    await persistence.load((raw) => store.restore(raw));
    const p = persistence;
    store.onChange(() => p.schedule());
  }

  const requests: RequestLogEntry[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;

  function record(entry: RequestLogEntry): void {
    requests.push(entry);
    // Trimmed in batches: dropping one entry per request would move the whole array each time.
    if (requests.length >= 2 * REQUEST_LOG_LIMIT) requests.splice(0, requests.length - REQUEST_LOG_LIMIT);
    if (options.onRequest) {
      try {
        options.onRequest(entry);
      } catch (error) {
        onError(error);
      }
    }
  }

  function send(
    res: ServerResponse,
    requestId: string,
    response: MockResponse,
    extra?: Record<string, string>,
  ): number {
    const payload = response.body === undefined ? '' : toJson(response.body);
    try {
      res.writeHead(response.status, {
        // The adapter's own answers (413, 429, injected faults) carry the request's id too.
        [REQUEST_ID_HEADER]: requestId,
        ...response.headers,
        ...extra,
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(payload),
      });
    } catch (error) {
      // A header Node refuses to send must cost this answer, never the process.
      onError(error);
      const fallback = toJson({ message: 'Internal server error' });
      res.writeHead(500, {
        [REQUEST_ID_HEADER]: requestId,
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(fallback),
      });
      res.end(fallback);
      return 500;
    }
    res.end(payload);
    return response.status;
  }

  /** Answers a request whose body has been read, applying its fault if it drew one. */
  function answer(
    { req, res, path, search, body, started, requestId }: ReadRequest,
    fault: FaultKind | null,
    extra: Record<string, string> | undefined,
  ): void {
    if (closing || res.destroyed) return;
    const method = req.method ?? 'GET';
    const done = (status: number, ignored?: string[]) =>
      record({
        method,
        path,
        status,
        durationMs: elapsed(started),
        requestId,
        ...(fault ? { fault } : {}),
        ...(ignored ? { ignored } : {}),
      });

    if (fault === 'reset') {
      req.socket.destroy();
      done(0);
      return;
    }
    if (fault === 'error-500' || fault === 'error-503') {
      const status = fault === 'error-500' ? 500 : 503;
      const response = errorResponse(
        new MockHttpError(
          status,
          status === 500 ? 'Internal server error (injected)' : 'Service unavailable (injected)',
        ),
      );
      send(res, requestId, response, status === 503 ? { ...extra, 'retry-after': '1' } : extra);
      done(status);
      return;
    }

    const response = handleRequest(state, {
      method,
      path,
      query: new URLSearchParams(search),
      headers: req.headers,
      body,
      requestId,
    });
    if (response.error !== undefined) onError(response.error);
    if (fault === 'lost') {
      req.socket.destroy();
      done(0);
      return;
    }
    done(send(res, requestId, response, extra), response.ignored);
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    const requestId = newRequestId();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const search = q < 0 ? '' : url.slice(q + 1);

    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client can finish sending and
      // see the 413 rather than a reset connection.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (closing) return;
      const method = req.method ?? 'GET';
      if (size > MAX_BODY_BYTES) {
        send(res, requestId, payloadTooLarge());
        record({ method, path, status: 413, durationMs: elapsed(started), requestId });
        return;
      }
      const body =
        size === 0 || !BODY_METHODS.has(method)
          ? undefined
          : chunks.length === 1
            ? chunks[0]
            : Buffer.concat(chunks);

      const read: ReadRequest = { req, res, path, search, body, started, requestId };
      if (!faults || path === '/health') {
        answer(read, null, undefined);
        return;
      }
      const limit = faults.checkRateLimit();
      if (limit && !limit.allowed) {
        send(res, requestId, errorResponse(new MockHttpError(429, 'Rate limit exceeded')), limit.headers);
        record({ method, path, status: 429, durationMs: elapsed(started), requestId });
        return;
      }
      const fault = faults.nextFault();
      if (faults.latencyMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer(read, fault, limit?.headers);
        }, faults.latencyMs);
        timers.add(timer);
      } else {
        answer(read, fault, limit?.headers);
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', onError);
  const address = server.address() as AddressInfo;
  const host = address.address;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  let closePromise: Promise<void> | undefined;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  return {
    url,
    port: address.port,
    host,
    state,
    store,
    get requests() {
      return requests.length > REQUEST_LOG_LIMIT ? requests.slice(-REQUEST_LOG_LIMIT) : requests;
    },
    faults,
    dataFile: options.dataFile,
    closed,
    reset() {
      store.reset();
      requests.length = 0;
      faults?.reset();
    },
    flush: () => persistence?.flush() ?? Promise.resolve(),
    close() {
      closePromise ??= (async () => {
        closing = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        try {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
          await persistence?.flush();
        } finally {
          markClosed();
        }
      })();
      return closePromise;
    },
  };
}
