// The client's own HTTP: node:http and node:https with keep-alive, behind the small part of
// undici's dispatcher interface the transport uses, so that an undici dispatcher a caller passes
// (an Agent, a ProxyAgent, a MockAgent) is used the same way. Node's HTTP parser is native: a
// command that sends one request loads no more than that (bench/README.md has the figures).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';

/** One request as the transport asks for it (a subset of undici's `Dispatcher.RequestOptions`). */
export interface HttpRequestOptions {
  origin: string;
  /** Path and query. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal;
  /** undici's idle timers; 0 turns them off (the transport's own deadline bounds every wait). */
  headersTimeout?: number;
  bodyTimeout?: number;
}

/** An answer as the transport reads it (a subset of undici's `Dispatcher.ResponseData`). */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: { text(): Promise<string>; destroy(): unknown };
}

/** What the transport sends through: this module's dispatcher, or any undici dispatcher. */
export interface HttpDispatcher {
  request(options: HttpRequestOptions): Promise<HttpResponse>;
  /** Ends the connections once the requests in flight have their answers. */
  close(): Promise<void>;
  /** Ends every connection now. */
  destroy(): Promise<void>;
}

/** How long a kept-alive connection may stay idle at most (the server's own hint may say less). */
const IDLE_TIMEOUT_MS = 60_000;

/** A failure before the connection was made (TCP, then TLS for https): the transport says so. */
export interface ConnectFailure {
  connecting: true;
}

export function failedConnecting(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as Partial<ConnectFailure>).connecting === true;
}

/**
 * Requests over node:http and node:https, the connections kept alive between them. Making a
 * connection (TCP, and TLS for https) gives up after `connectTimeoutMs`, with code `ETIMEDOUT`.
 */
export class NodeHttpDispatcher implements HttpDispatcher {
  readonly #http: HttpAgent;
  /** node:https and its agent, loaded with the first https request (TLS is no mock's). */
  #https: Promise<{ agent: HttpsAgent; request: typeof httpsRequest }> | undefined;
  readonly #agentOptions: ConstructorParameters<typeof HttpAgent>[0];
  readonly #connectTimeoutMs: number;
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(options: { connectTimeoutMs: number; keepAliveMsecs?: number }) {
    // An idle connection is closed after a minute, or a second before the server says it closes
    // one (`Keep-Alive: timeout=5`): Node heeds that hint only under a timeout of its own, and a
    // request sent on a connection the server is closing fails with ECONNRESET.
    const agent = {
      keepAlive: true,
      keepAliveMsecs: options.keepAliveMsecs ?? 1000,
      timeout: IDLE_TIMEOUT_MS,
      scheduling: 'lifo' as const,
    };
    this.#http = new HttpAgent(agent);
    this.#agentOptions = agent;
    this.#connectTimeoutMs = options.connectTimeoutMs;
  }

  request(options: HttpRequestOptions): Promise<HttpResponse> {
    const pending = this.#send(options);
    const tracked = pending.then(
      (res) => res.done,
      () => {},
    );
    this.#inFlight.add(tracked);
    void tracked.then(() => this.#inFlight.delete(tracked));
    return pending.then((res) => res.response);
  }

  #secure() {
    this.#https ??= import('node:https').then(({ Agent, request }) => ({
      agent: new Agent(this.#agentOptions),
      request,
    }));
    return this.#https;
  }

  async #send(options: HttpRequestOptions): Promise<{ response: HttpResponse; done: Promise<unknown> }> {
    const url = new URL(options.path, options.origin);
    const secure = url.protocol === 'https:' ? await this.#secure() : undefined;
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    return new Promise((resolve, reject) => {
      let connected = false;
      const req = (secure?.request ?? httpRequest)(url, {
        method: options.method,
        headers,
        agent: secure?.agent ?? this.#http,
        signal: options.signal,
      });
      const fail = (err: unknown) => {
        if (!connected && typeof err === 'object' && err !== null) Object.assign(err, { connecting: true });
        reject(err);
      };
      req.on('error', fail);
      req.once('socket', (socket: Socket) => {
        // A kept-alive socket is connected already.
        if (req.reusedSocket) {
          connected = true;
          return;
        }
        const timer = setTimeout(() => {
          const err = Object.assign(new Error(`connecting timed out after ${this.#connectTimeoutMs}ms`), {
            code: 'ETIMEDOUT',
          });
          req.destroy(err);
        }, this.#connectTimeoutMs);
        socket.once(secure ? 'secureConnect' : 'connect', () => {
          connected = true;
          clearTimeout(timer);
        });
        socket.once('close', () => clearTimeout(timer));
      });
      req.once('response', (res: IncomingMessage) => {
        res.setEncoding('utf8');
        let text = '';
        let ended = false;
        const body = new Promise<string>((resolveBody, rejectBody) => {
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.once('end', () => {
            ended = true;
            resolveBody(text);
          });
          res.on('error', rejectBody);
          res.once('close', () => {
            if (!ended)
              rejectBody(
                Object.assign(new Error('the connection closed before the answer ended'), {
                  code: 'ECONNRESET',
                }),
              );
          });
        });
        resolve({
          response: {
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: { text: () => body, destroy: () => res.destroy() },
          },
          done: body.then(
            () => {},
            () => {},
          ),
        });
      });
      req.end(options.body);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.#inFlight);
    await this.destroy();
  }

  async destroy(): Promise<void> {
    this.#http.destroy();
    (await this.#https)?.agent.destroy();
  }
}
