// The request core: one HTTP exchange (node:http with keep-alive, or a dispatcher the caller
// gives; per-request deadline, abort), wrapped in the retry policy, with redacted debug output.
import {
  IGNORED_COUNT_HEADER,
  IGNORED_FIELDS_HEADER,
  parseIgnoredFieldsHeader,
  REQUEST_ID_HEADER,
} from '../api/headers.js';
import type { HttpMethod } from '../api/operations.js';
import { InvalidOptionError } from '../core/options.js';
import { redactHeaders, redactSecrets } from '../core/redact.js';
import {
  APIConnectionError,
  type APIError,
  APITimeoutError,
  APIUserAbortError,
  ContactsError,
  type Headers,
  ProxyRefusedError,
} from './errors.js';
import { JsonText, toJsonText } from './json-text.js';
import { failedConnecting, type HttpDispatcher, type HttpResponse, NodeHttpDispatcher } from './node-http.js';
import { proxyDispatcher, redactProxy } from './proxy.js';
import { type RawResponse, toAPIError } from './response.js';
import { backoffDelayMs, isRetryableStatus, type RetryPolicy, sleep } from './retry.js';

export type DebugLogger = (line: string) => void;

/** One attempt of a request as it ended: for a caller that paces or sizes its own load. */
export interface AttemptEvent {
  attempt: number;
  /** The HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  /** The response's headers (rate-limit headers among them); empty without an answer. */
  headers: Headers;
  /** From handing the request to the connection to the last byte of the answer (or the failure). */
  latencyMs: number;
}

export interface RetryEvent {
  attempt: number;
  delayMs: number;
  /**
   * A quick retry of a service that has never answered and refused the connection (or has no
   * such host): worth no note of its own, since the error says it if the next try fails too.
   */
  quick: boolean;
  method: string;
  url: string;
  error: APIError | APIConnectionError;
}

/** Fields the service dropped from a request (`x-contacts-ignored`), and which request it was. */
export interface IgnoredFieldsEvent {
  /** Dotted paths: `company`, `custom_attributes.plna`, `users.3.nickname`. */
  paths: string[];
  /**
   * How many fields were dropped in all: more than `paths` names when the service cut its list
   * short (`x-contacts-ignored-count`).
   */
  count: number;
  method: string;
  url: string;
  requestId: string | undefined;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Any undici dispatcher (Agent, ProxyAgent, MockAgent); by default node:http. */
  dispatcher?: HttpDispatcher;
  /** The proxy every request goes through (unless `dispatcher` is given), from `proxyFor`. */
  proxy?: URL | undefined;
  debug?: DebugLogger;
  onRetry?: (event: RetryEvent) => void;
  /** Told when a success drops fields the service does not know (it stores the rest). */
  onIgnoredFields?: (event: IgnoredFieldsEvent) => void;
  random?: () => number;
}

interface Target {
  origin: string;
  pathname: string;
  /** Path and query, as sent. */
  path: string;
  href: string;
}

export interface RequestSpec {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /**
   * Retry only a refused connection, which the request never left: for a write the service may
   * not take twice (`contacts api POST`), as gh's api does not retry.
   */
  retryOnlyRefused?: boolean;
  onRetry?: (event: RetryEvent) => void;
  /**
   * Awaited before each attempt, the first included, once any backoff has run: a caller that
   * paces requests to a rate limit holds the attempt here. Throwing ends the request with that error.
   */
  beforeAttempt?: (attempt: number) => Promise<void> | void;
  /** Told as each attempt ends, answered or not. */
  onAttempt?: (event: AttemptEvent) => void;
}

const DEBUG_BODY_LIMIT = 2_000;

export class Transport {
  readonly #apiKey: string;
  readonly #options: TransportOptions;
  /** A proxy's dispatcher is made once undici has loaded: a promise until then. */
  readonly #dispatcher: HttpDispatcher | Promise<HttpDispatcher>;
  readonly #ownsDispatcher: boolean;
  readonly #origin: URL;
  /** The base URL's own path (`/gateway` in `https://host/gateway`), without a trailing slash. */
  readonly #basePath: string;
  /** ` via proxy http://proxy:3128` for log lines and errors, or empty when requests go direct. */
  readonly #via: string;
  /** The proxy requests go through, credentials redacted, or undefined when they go direct. */
  readonly #proxyShown: string | undefined;
  /** Whether the service has answered once: until it has, "nobody there" fails fast. */
  #reached = false;
  /**
   * Requests given up while still connecting (an undici dispatcher heeds an abort only once
   * connected): closing waits for none of them.
   */
  readonly #abandoned = new Set<Promise<unknown>>();
  #closing: Promise<void> | undefined;

  constructor(options: TransportOptions) {
    checkTimeout(options.timeoutMs, 'timeoutMs');
    checkRetries(options.retry.maxRetries, 'maxRetries');
    this.#apiKey = options.apiKey;
    this.#options = options;
    this.#origin = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.#basePath = this.#origin.pathname.replace(/\/$/, '');
    this.#ownsDispatcher = options.dispatcher === undefined;
    const proxy = options.dispatcher === undefined ? options.proxy : undefined;
    this.#proxyShown = proxy ? redactProxy(proxy) : undefined;
    this.#via = this.#proxyShown ? ` via proxy ${this.#proxyShown}` : '';
    // Connecting (TCP, a proxy's CONNECT, TLS) gets the client's deadline, whatever a call's own:
    // each attempt's timer ends the call itself.
    const connectTimeoutMs = options.timeoutMs;
    this.#dispatcher =
      options.dispatcher ??
      (proxy
        ? proxyDispatcher(proxy, this.#origin, {
            keepAliveTimeout: 10_000,
            keepAliveMaxTimeout: 60_000,
            connectTimeoutMs,
          })
        : new NodeHttpDispatcher({ connectTimeoutMs }));
  }

  get baseUrl(): string {
    return this.#origin.href.replace(/\/$/, '');
  }

  /** Where a request goes. Strings, not a URL object: this runs for every request of an import. */
  url(spec: Pick<RequestSpec, 'path' | 'query'>): Target {
    let query = '';
    if (spec.query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(spec.query)) if (v !== undefined) params.set(k, String(v));
      const text = params.toString();
      if (text) query = `?${text}`;
    }
    const pathname = `${this.#basePath}${spec.path}`;
    const origin = this.#origin.origin;
    return { origin, pathname, path: `${pathname}${query}`, href: `${origin}${pathname}${query}` };
  }

  /** Sends the request, retrying what is safe to retry; resolves with any 2xx response. */
  async request(spec: RequestSpec): Promise<RawResponse> {
    if (spec.timeoutMs !== undefined) checkTimeout(spec.timeoutMs, 'timeoutMs of the call');
    if (spec.maxRetries !== undefined) checkRetries(spec.maxRetries, 'maxRetries of the call');
    const url = this.url(spec);
    const maxRetries = spec.maxRetries ?? this.#options.retry.maxRetries;
    for (let attempt = 1; ; attempt++) {
      let failure: APIError | APIConnectionError;
      let headers: Headers | undefined;
      let limit = maxRetries;
      let quick = false;
      try {
        if (spec.beforeAttempt) await spec.beforeAttempt(attempt);
        const res = await this.#attempt(spec, url, attempt);
        this.#reached = true;
        if (res.status < 300) {
          this.#reportIgnored(res.headers, spec.method, url.href);
          return res;
        }
        failure = toAPIError(res, spec.method, url.href, [this.#apiKey]);
        if (!isRetryableStatus(res.status)) throw failure;
        headers = res.headers;
      } catch (err) {
        if (!(err instanceof APIConnectionError)) throw err;
        failure = err;
        // A refused connection or an unknown host before the service ever answered is a wrong
        // or stopped server, not a blip: a couple of quick tries, not the whole backoff ladder.
        // Once it has answered, a refusal is a restart worth riding out with the usual backoff.
        if (!this.#reached && isUnreachable(err)) {
          limit = Math.min(maxRetries, FIRST_CONTACT_RETRIES);
          quick = true;
        }
      }
      if (spec.retryOnlyRefused && !isRefused(failure)) throw failure;
      if (attempt > limit) {
        if (quick && attempt > 1) {
          throw new APIConnectionError(
            `${failure.message}, ${attempt} tries ${FIRST_CONTACT_DELAY_MS}ms apart`,
            {
              cause: failure.cause,
            },
          );
        }
        throw failure;
      }
      const delayMs = quick
        ? FIRST_CONTACT_DELAY_MS * attempt
        : backoffDelayMs(this.#options.retry, attempt - 1, headers, this.#options.random);
      const event = { attempt, delayMs, quick, method: spec.method, url: url.href, error: failure };
      this.#options.onRetry?.(event);
      spec.onRetry?.(event);
      this.#debug(`retrying in ${delayMs}ms after ${failure.message}`);
      try {
        await sleep(delayMs, spec.signal);
      } catch (reason) {
        throw new APIUserAbortError(undefined, { cause: reason });
      }
    }
  }

  async #attempt(spec: RequestSpec, url: Target, attempt: number): Promise<RawResponse> {
    if (spec.signal?.aborted) throw new APIUserAbortError(undefined, { cause: spec.signal.reason });
    const body =
      spec.body === undefined
        ? undefined
        : spec.body instanceof JsonText
          ? spec.body.text
          : toJsonText(spec.body);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: 'application/json',
      'user-agent': this.#options.userAgent,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';

    // One deadline for the whole attempt, the answer's last byte included: idle timers measure
    // silence only, so a server that trickles its body a byte at a time would hold the attempt
    // for ever. The caller's signal ends it too.
    const timeoutMs = spec.timeoutMs ?? this.#options.timeoutMs;
    const deadline = new AbortController();
    let expired = false;
    let answering = false;
    const timer = setTimeout(() => {
      expired = true;
      deadline.abort();
    }, timeoutMs);
    const forward = () => deadline.abort(spec.signal?.reason);
    spec.signal?.addEventListener('abort', forward, { once: true });
    // A request ends as soon as the signal fires (its rejection comes in a tick); one an undici
    // dispatcher is still connecting it ignores until connected. So once the signal has fired and
    // the tasks queued by then have run, the attempt ends without it.
    const gaveUp = new Promise<never>((_, reject) => {
      deadline.signal.addEventListener('abort', () => setImmediate(() => reject(NOT_CONNECTED)), {
        once: true,
      });
    });
    gaveUp.catch(() => {});

    const started = performance.now();
    const debugging = this.#options.debug !== undefined;
    if (debugging) {
      this.#debug(`→ ${spec.method} ${url.href}${this.#via}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      this.#debug(`  headers ${JSON.stringify(redactHeaders(headers, [this.#apiKey]))}`);
      if (body !== undefined) this.#debug(`  body ${truncate(body)}`);
    }
    try {
      const dispatcher = await this.#dispatcher;
      const sent = dispatcher.request({
        origin: url.origin,
        path: url.path,
        method: spec.method,
        headers,
        body,
        signal: deadline.signal,
        // The deadline above bounds every wait; an undici dispatcher's idle timers would only race it.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const res = await Promise.race([sent, gaveUp]).catch((err: unknown) => {
        if (err === NOT_CONNECTED) this.#abandon(sent);
        throw err;
      });
      answering = true;
      const text = await res.body.text();
      spec.onAttempt?.({
        attempt,
        status: res.statusCode,
        headers: res.headers,
        latencyMs: performance.now() - started,
      });
      if (debugging) {
        const id = headerValue(res.headers[REQUEST_ID_HEADER]);
        this.#debug(
          `← ${res.statusCode} ${spec.method} ${url.pathname} in ${Math.round(performance.now() - started)}ms${id ? ` (request ${id})` : ''}`,
        );
        if (text) this.#debug(`  body ${truncate(text)}`);
      }
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      spec.onAttempt?.({ attempt, status: 0, headers: {}, latencyMs: performance.now() - started });
      if (spec.signal?.aborted) throw new APIUserAbortError(undefined, { cause: spec.signal.reason });
      const connecting =
        err === NOT_CONNECTED || failedConnecting(err) ? `no connection${this.#via} yet` : undefined;
      if (expired) {
        const what = connecting ?? (answering ? 'the answer was still arriving' : 'no answer had come');
        throw new APITimeoutError(
          `Request timed out after ${timeoutMs}ms: ${spec.method} ${url.href} (${what})`,
          { cause: err === NOT_CONNECTED ? undefined : err },
        );
      }
      const code = (err as { code?: string }).code ?? '';
      if (TIMEOUT_CODES.has(code)) {
        // Connecting's own timer: the dispatcher made here has no other.
        const after = this.#ownsDispatcher ? ` after ${this.#options.timeoutMs}ms` : '';
        throw new APITimeoutError(
          `Connecting timed out${after}: ${spec.method} ${url.href} (no connection${this.#via} yet; ${code})`,
          { cause: err },
        );
      }
      if (err instanceof ContactsError) throw err;
      // undici says a proxy's refusal only in words: `Proxy response (403) !== 200 when HTTP
      // Tunneling` for a CONNECT, `Proxy Authentication Required (407)` for a forwarded request.
      const refused = this.#proxyShown
        ? /^Proxy (?:response|Authentication Required) \((\d{3})\)/.exec((err as Error).message)
        : null;
      if (refused) throw this.#proxyRefused(Number(refused[1]), spec.method, url.href, err);
      throw new APIConnectionError(
        redactSecrets(
          `Could not reach ${url.origin}${this.#via}: ${describeCause(err)} (${spec.method} ${url.pathname})`,
          [this.#apiKey],
        ),
        { cause: err },
      );
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', forward);
    }
  }

  /** A request still connecting: it ends, aborted, once connected or given up. */
  #abandon(sent: Promise<HttpResponse>): void {
    const settled = sent.then(
      (res) => res.body.destroy(),
      () => {},
    );
    this.#abandoned.add(settled);
    void settled.then(() => this.#abandoned.delete(settled));
  }

  #proxyRefused(status: number, method: string, href: string, cause?: unknown): ProxyRefusedError {
    const reason =
      status === 407
        ? 'wants credentials (407)'
        : status === 403
          ? 'does not allow it (403)'
          : `answered ${status}`;
    return new ProxyRefusedError(
      redactSecrets(`The proxy ${this.#proxyShown} refused ${method} ${href}: it ${reason}`, [this.#apiKey]),
      { status, proxy: this.#proxyShown ?? '', cause },
    );
  }

  #reportIgnored(headers: Headers, method: string, url: string): void {
    const text = headerValue(headers[IGNORED_FIELDS_HEADER], ',');
    if (!text) return;
    const paths = parseIgnoredFieldsHeader(text);
    const total = Number(headerValue(headers[IGNORED_COUNT_HEADER]));
    const count = Number.isSafeInteger(total) && total > paths.length ? total : paths.length;
    const requestId = headerValue(headers[REQUEST_ID_HEADER]);
    const more = count > paths.length ? ` and ${count - paths.length} more` : '';
    this.#debug(`  the service ignored: ${paths.join(', ')}${more}`);
    this.#options.onIgnoredFields?.({ paths, count, method, url, requestId });
  }

  #debug(line: string) {
    this.#options.debug?.(redactSecrets(line, [this.#apiKey]));
  }

  /** Ends the connections; those still being made for an abandoned request are cut, not awaited. */
  close(): Promise<void> {
    if (!this.#ownsDispatcher) return Promise.resolve();
    const abandoned = this.#abandoned.size > 0;
    this.#closing ??= Promise.resolve(this.#dispatcher).then((d) => (abandoned ? d.destroy() : d.close()));
    return this.#closing;
  }
}

/** A header's value as one string: repeated headers joined (the list header) or the first one. */
function headerValue(raw: string | string[] | undefined, join?: string): string | undefined {
  if (!Array.isArray(raw)) return raw;
  return join === undefined ? raw[0] : raw.join(join);
}

/** The longest delay a timer takes: a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** A timeout is a positive number of milliseconds a timer can wait (about 24 days at most). */
function checkTimeout(ms: number, name: string): void {
  if (!(ms > 0 && ms <= MAX_TIMEOUT_MS)) {
    throw new InvalidOptionError(
      `${name} must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${ms}`,
      { code: typeof ms === 'number' ? 'out_of_range' : 'invalid_type', param: 'timeoutMs' },
    );
  }
}

/** Retries are a whole number, 0 or more: NaN or a fraction would retry for ever. */
function checkRetries(n: number, name: string): void {
  if (!(Number.isInteger(n) && n >= 0)) {
    throw new InvalidOptionError(`${name} must be a whole number, 0 or more, got ${n}`, {
      code: typeof n === 'number' ? 'out_of_range' : 'invalid_type',
      param: 'maxRetries',
    });
  }
}

/** How an attempt ends when its signal fired while undici was still connecting. */
const NOT_CONNECTED = Symbol('not connected');

/** Connecting timed out: node:http's (here, or the kernel's) and an undici dispatcher's. */
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Retries, and the wait before each (times the attempt), while nothing has ever answered: two
 * tries half a second apart, as docs/cli.md says.
 */
const FIRST_CONTACT_RETRIES = 1;
const FIRST_CONTACT_DELAY_MS = 500;
/** "Nothing listens there" or "no such host": errors a retry a few seconds later rarely fixes. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function isUnreachable(err: APIConnectionError): boolean {
  const code = (err.cause as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

function isRefused(err: APIError | APIConnectionError): boolean {
  return (
    err instanceof APIConnectionError &&
    (err.cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED'
  );
}

function truncate(text: string): string {
  return text.length > DEBUG_BODY_LIMIT ? `${text.slice(0, DEBUG_BODY_LIMIT)}… (${text.length} bytes)` : text;
}

function describeCause(err: unknown): string {
  // undici's errors name their code apart (`UND_ERR_SOCKET: other side closed`).
  const undiciCode = (err as { code?: unknown } | null)?.code;
  if (err instanceof Error && typeof undiciCode === 'string' && undiciCode.startsWith('UND_ERR')) {
    return `${undiciCode}: ${err.message}`;
  }
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    // Node's message already names the code: `connect ECONNREFUSED 127.0.0.1:4099`.
    return code && !err.message.includes(code) ? `${code} ${err.message}` : err.message;
  }
  return String(err);
}
