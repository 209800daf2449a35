// The mock on the wire: a node:http adapter over the core (`respond`). It reads the body (up to
// the limit), hands the request over, and carries the outcome out: sends the answer or drops the
// connection. State, faults and the request log are the core's.
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REQUEST_ID_HEADER } from '../api/headers.js';
import { MAX_BODY_BYTES } from '../api/limits.js';
import type { FaultInjector, FaultOptions } from './faults.js';
import { createMockState, type MockResponse, type MockState, newRequestId } from './handler.js';
import { toJson } from './json.js';
import { createMockStore } from './memory-store.js';
import type { RequestLogEntry } from './request-log.js';
import { type MockOutcome, resetState, respond } from './respond.js';
import { openSqliteStore } from './sqlite-store.js';
import type { MockStore } from './store.js';

export { REQUEST_LOG_LIMIT, type RequestLogEntry } from './request-log.js';

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
  /**
   * Keep the state in this SQLite database (created if absent; WAL mode, so `sqlite3` can open
   * it and other processes can share it). Without it the state lives in memory.
   */
  dataFile?: string;
  /** The state to serve, instead of one made from `dataFile`/`maxContacts` (closed with the server). */
  store?: MockStore;
  /** Put into the store at start and after each reset (see `loadSeed`). */
  seed?: (store: MockStore) => void;
  faults?: FaultOptions;
  onRequest?: (entry: RequestLogEntry) => void;
  /** Told about unexpected handler errors (answered 500). */
  onError?: (error: unknown) => void;
}

export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly state: MockState;
  readonly store: MockStore;
  /** The most recent requests, oldest first (at most `REQUEST_LOG_LIMIT`): `GET /__mock/requests`. */
  readonly requests: readonly RequestLogEntry[];
  /** The active fault injector, or null without faults. */
  readonly faults: FaultInjector | null;
  readonly dataFile: string | undefined;
  /** Resolves once `close()` has finished, however it ended. */
  readonly closed: Promise<void>;
  /**
   * Empties the store (or puts the seed back), empties the request log, replays faults: `POST
   * /__mock/reset`. The store shows the new state at once; the promise says it is committed.
   */
  reset(): Promise<void>;
  /** Resolves once every write made so far is committed (at once in memory; SQLite commits at the end of each turn). */
  flush(): Promise<void>;
  /** Stops listening, ends open connections (keep-alive ones too) and closes the database. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const onError = options.onError ?? (() => {});
  const store =
    options.store ??
    (options.dataFile
      ? openSqliteStore(options.dataFile, { maxContacts: options.maxContacts })
      : createMockStore({ maxContacts: options.maxContacts }));
  const closing = new AbortController();
  // Every answer waiting out its latency listens for the close: as many as there are requests.
  setMaxListeners(0, closing.signal);
  let state: MockState;
  try {
    state = createMockState({
      store,
      keys: options.keys,
      agents: options.agents,
      strict: options.strict,
      faults: options.faults,
      seed: options.seed,
      onRequest: options.onRequest,
      onError,
      closing: closing.signal,
    });
    // The seed on disk before anyone is told the server is up.
    await store.pending();
  } catch (error) {
    store.close();
    throw error;
  }

  function send(res: ServerResponse, response: MockResponse): void {
    let payload: string;
    try {
      payload = response.body === undefined ? '' : toJson(response.body);
      // One flat list: no object to build per answer. The type and length are the adapter's,
      // in place of any the response names itself (as an object spread would replace them).
      const headers: string[] = [];
      for (const name in response.headers) {
        if (name !== 'content-type' && name !== 'content-length') headers.push(name, response.headers[name]!);
      }
      headers.push('content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(payload)));
      res.writeHead(response.status, headers);
    } catch (error) {
      // A header Node refuses, or a page too large to put in one string, costs this answer,
      // never the process.
      onError(error);
      const fallback = toJson({ message: 'Internal server error' });
      const id = response.headers[REQUEST_ID_HEADER];
      res.writeHead(500, {
        ...(id ? { [REQUEST_ID_HEADER]: id } : {}),
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(fallback),
      });
      res.end(fallback);
      return;
    }
    res.end(payload);
  }

  /** Carries an outcome out: the answer, or the connection dropped. */
  function carry(req: IncomingMessage, res: ServerResponse, outcome: MockOutcome): void {
    if (closing.signal.aborted || res.destroyed) return;
    if (outcome.drop) req.socket.destroy();
    else send(res, outcome.response);
  }

  const server = createServer((req, res) => {
    const requestId = newRequestId();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client can finish sending and
      // see the 413 rather than a reset connection.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (closing.signal.aborted) return;
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const method = req.method ?? 'GET';
      const tooLarge = size > MAX_BODY_BYTES;
      const body =
        tooLarge || size === 0 || !BODY_METHODS.has(method)
          ? undefined
          : chunks.length === 1
            ? chunks[0]
            : Buffer.concat(chunks);
      let outcome: MockOutcome | Promise<MockOutcome>;
      try {
        outcome = respond(state, {
          method,
          path: q < 0 ? url : url.slice(0, q),
          query: q < 0 ? new URLSearchParams() : new URLSearchParams(url.slice(q + 1)),
          headers: req.headers,
          body,
          requestId,
          tooLarge,
          // A client that hung up while its latency ran out never had its request handled.
          gone: () => res.destroyed,
        });
      } catch (error) {
        onError(error);
        req.socket.destroy();
        return;
      }
      if (!(outcome instanceof Promise)) carry(req, res, outcome);
      else
        outcome.then(
          (settled) => carry(req, res, settled),
          (error) => {
            onError(error);
            req.socket.destroy();
          },
        );
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    store.close();
    throw error;
  }
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
      return state.log.entries;
    },
    faults: state.faults,
    dataFile: options.dataFile,
    closed,
    reset: () => {
      resetState(state);
      return store.pending() ?? Promise.resolve();
    },
    flush: () => store.pending() ?? Promise.resolve(),
    close() {
      closePromise ??= (async () => {
        closing.abort();
        try {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
        } finally {
          store.close();
          markClosed();
        }
      })();
      return closePromise;
    },
  };
}
