// The mock on the wire: a node:http adapter over the core (`respond`). It reads the body (up to
// the limit), keeps web pages out (`web-guard.ts`), hands the request over, and carries the
// outcome out: sends the answer or drops the connection. State, faults and the request log are
// the core's.
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REQUEST_ID_HEADER } from '../api/headers.js';
import { MAX_BODY_BYTES } from '../api/limits.js';
import type { FaultInjector, FaultOptions } from './faults.js';
import { createMockState, errorResponse, type MockSeed, type MockState, newRequestId } from './handler.js';
import type { RequestLogEntry } from './request-log.js';
import { type MockOutcome, type ResetOutcome, resetState, respond, type WireResponse } from './respond.js';
import { createMockStore, openSqliteStore } from './sqlite-store.js';
import type { MockStore } from './store.js';
import { createWebGuard, type WebRequest } from './web-guard.js';

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
  seed?: MockSeed;
  /**
   * Host names to serve besides loopback names, IP addresses, this machine's name and `host`
   * (`.example.com` takes subdomains, `*` any name): any other Host header is answered 421, so
   * that a web page cannot reach the mock through DNS rebinding.
   */
  allowedHosts?: string[];
  /** Origins whose web pages may call the mock (CORS headers and preflights); `*` for any. None by default. */
  cors?: string[];
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
   * /__mock/reset`. With an agent, that agent's records only. Committed when it returns.
   */
  reset(agent?: string): ResetOutcome;
  /** Stops listening, ends open connections (keep-alive ones too) and closes the database. */
  close(): Promise<void>;
}

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
  } catch (error) {
    store.close();
    throw error;
  }

  /** Sends an answer; its headers, an object of this answer's own, get its length. */
  function send(res: ServerResponse, response: WireResponse): void {
    const { headers } = response;
    headers['content-length'] = String(Buffer.byteLength(response.body));
    try {
      res.writeHead(response.status, headers);
    } catch (error) {
      // A header Node refuses costs this answer, never the process.
      onError(error);
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ message: 'Internal server error' }));
      return;
    }
    res.end(response.body);
  }

  /** An answer made here, before the core (refusals, preflights), as the core would make it. */
  function sendEarly(
    res: ServerResponse,
    requestId: string,
    status: number,
    headers: Record<string, string>,
    body: unknown,
  ): void {
    send(res, {
      status,
      headers: {
        [REQUEST_ID_HEADER]: requestId,
        ...headers,
        'content-type': 'application/json; charset=utf-8',
      },
      body: body === undefined ? '' : JSON.stringify(body),
    });
  }

  /** Carries an outcome out: the answer, or the connection dropped. */
  function carry(req: IncomingMessage, res: ServerResponse, web: WebRequest, outcome: MockOutcome): void {
    if (closing.signal.aborted || res.destroyed) return;
    if (outcome.drop) req.socket.destroy();
    else {
      // The outcome is this request's own: the CORS headers (none unless its origin was named) join it.
      const { headers } = outcome.response;
      const cors = guard.corsHeaders(web);
      for (const name in cors) headers[name] = cors[name]!;
      send(res, outcome.response);
    }
  }

  // The listen address is a name the user chose: served too.
  const guard = createWebGuard({
    allowedHosts: [...(options.allowedHosts ?? []), ...(options.host ? [options.host] : [])],
    cors: options.cors,
  });

  /** A request's target: origin-form as sent, or absolute-form (`GET http://user@host/path`) cut to its path. */
  function target(url: string): { path: string; query: string; host?: string } {
    let rest = url;
    let host: string | undefined;
    if (!url.startsWith('/')) {
      try {
        const parsed = new URL(url);
        // The userinfo goes: never routed, logged or echoed.
        host = parsed.host;
        rest = `${parsed.pathname}${parsed.search}`;
      } catch {
        // Not a URL: routed as it is, to a 404.
      }
    }
    const q = rest.indexOf('?');
    return { path: q < 0 ? rest : rest.slice(0, q), query: q < 0 ? '' : rest.slice(q + 1), host };
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
      const { path, query, host } = target(req.url ?? '/');
      const method = req.method ?? 'GET';
      const web: WebRequest = { method, path, headers: req.headers, targetHost: host };
      const refused = guard.check(web);
      if (refused) {
        const { status, headers, body } = errorResponse(refused);
        // A page of an origin the user named may read why it was refused (a browser test).
        sendEarly(res, requestId, status, { ...headers, ...guard.corsHeaders(web) }, body);
        return;
      }
      const preflight = guard.preflight(web);
      if (preflight) {
        sendEarly(res, requestId, preflight.status, preflight.headers, undefined);
        return;
      }
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
          path,
          query: new URLSearchParams(query),
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
      if (!(outcome instanceof Promise)) carry(req, res, web, outcome);
      else
        outcome.then(
          (settled) => carry(req, res, web, settled),
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
    reset: (agent) => resetState(state, agent),
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
