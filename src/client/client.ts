// ContactsClient: configuration, then the resources (`contacts`, `attributes`) over one transport.
import type { Dispatcher } from 'undici';
import { apiKeyProblem } from '../api/key.js';
import { type HttpMethod, isDotSegment, readAsDotSegmentOf } from '../api/operations.js';
import { checkOptions, type InvalidOptionCode, InvalidOptionError } from '../core/options.js';
import { VERSION } from '../core/version.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './defaults.js';
import { ContactsError, type Headers, RequestPathError } from './errors.js';
import { type ProxyOptions, proxyFor, proxyFromEnv } from './proxy.js';
import { Attributes } from './resources/attributes.js';
import { Contacts } from './resources/contacts.js';
import type { ClientCore, RequestOptions } from './resources/core.js';
import { parseBody } from './response.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { type DebugLogger, type IgnoredFieldsEvent, type RetryEvent, Transport } from './transport.js';

export interface ClientOptions {
  /** Where the API lives, e.g. `https://api.example.com`. Defaults to `CONTACTS_BASE_URL`. */
  baseUrl?: string;
  /** The `bk_` workspace key. Defaults to `CONTACTS_API_KEY`. */
  apiKey?: string;
  /** The agent addressed when a call names none. Defaults to `CONTACTS_AGENT`. */
  agentId?: string;
  /** How long each attempt may take, from connecting (proxy, TLS) to the last byte of the answer. Default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt on 408, 429, 5xx and connection failures. Default 2. */
  maxRetries?: number;
  /** Backoff tuning: initial and maximum delay, and the cap on a server's `Retry-After`. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Appended to the package's own User-Agent, e.g. `my-sync/1.2`. */
  userAgent?: string;
  /** An undici dispatcher (Agent, Pool, ProxyAgent, MockAgent) to send requests through. */
  dispatcher?: Dispatcher;
  /**
   * The HTTP(S) proxy, as curl reads it. Defaults to HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either
   * case) from the environment; `false` goes direct whatever they say. Unused with `dispatcher`.
   */
  proxy?: ProxyOptions | false;
  /** Receives a line per request and response, with the key redacted. */
  debug?: DebugLogger;
  /** Called before each retry: for progress output and metrics. */
  onRetry?: (event: RetryEvent) => void;
  /**
   * Told when the service drops fields it does not know from a write (it stores the rest, as
   * production does, and names them in `x-contacts-ignored`): a typo in an attribute name
   * would otherwise lose data without a word.
   */
  onIgnoredFields?: (event: IgnoredFieldsEvent) => void;
}

export class ContactsClient {
  readonly contacts: Contacts;
  readonly attributes: Attributes;
  readonly #transport: Transport;
  readonly #agentId: string | undefined;

  constructor(options: ClientOptions = {}) {
    checkOptions('new ContactsClient()', options)
      .string('apiKey', { secret: true })
      .string('baseUrl')
      .string('agentId')
      .integer('maxRetries', 0)
      .object('retry', 'an object of retry settings')
      .string('userAgent')
      .function('debug', 'onRetry', 'onIgnoredFields');
    const env = typeof process === 'undefined' ? {} : process.env;
    const apiKey = options.apiKey ?? env.CONTACTS_API_KEY;
    const baseUrl = options.baseUrl ?? env.CONTACTS_BASE_URL;
    const invalid = (param: string, code: InvalidOptionCode, message: string) =>
      new InvalidOptionError(message, { code, param });
    if (!apiKey) throw invalid('apiKey', 'missing', 'No API key: pass apiKey or set CONTACTS_API_KEY');
    const keyProblem = apiKeyProblem(apiKey);
    if (keyProblem)
      throw invalid('apiKey', 'invalid_value', `The API key is not a valid workspace key: ${keyProblem}`);
    if (!baseUrl) throw invalid('baseUrl', 'missing', 'No base URL: pass baseUrl or set CONTACTS_BASE_URL');
    if (!/^https?:\/\//.test(baseUrl))
      throw invalid('baseUrl', 'invalid_value', `The base URL must be http(s): ${baseUrl}`);
    this.#agentId = options.agentId ?? env.CONTACTS_AGENT;

    this.#transport = new Transport({
      baseUrl,
      apiKey,
      userAgent: `contacts-cli/${VERSION} node/${process.versions.node}${options.userAgent ? ` ${options.userAgent}` : ''}`,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: {
        ...DEFAULT_RETRY_POLICY,
        ...options.retry,
        maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      },
      dispatcher: options.dispatcher,
      proxy:
        options.dispatcher || options.proxy === false
          ? undefined
          : proxyFor(baseUrl, options.proxy ?? proxyFromEnv(env)),
      debug: options.debug,
      onRetry: options.onRetry,
      onIgnoredFields: options.onIgnoredFields,
    });

    const core: ClientCore = {
      agentId: (o: RequestOptions) => {
        const agentId = o.agentId ?? this.#agentId;
        if (!agentId) throw new ContactsError('No agent: pass agentId to the call or to the client');
        return agentId;
      },
      request: (spec) => this.#transport.request(spec),
      parse: parseBody,
    };
    this.contacts = new Contacts(core);
    this.attributes = new Attributes(core);
  }

  /**
   * Any request to the API, with this client's key, base URL, retries and redaction: for what
   * has no method yet. `path` is below the base URL and may carry a query; one that would leave
   * the base URL (`/../admin`, `%2e%2e`, another host), holds a `.` or `..` segment anywhere
   * (which URL parsers and proxies rewrite) or a space or a control character throws a
   * RequestPathError, and a fragment is dropped. Resolves with the answer's text and
   * JSON (body undefined when empty, the text when it is not JSON); a failure throws the same
   * errors as every method. `retryOnlyRefused` retries only a refused connection (for a write
   * that must not be sent twice).
   */
  async request(
    method: HttpMethod,
    path: string,
    options: { body?: unknown; signal?: AbortSignal; retryOnlyRefused?: boolean } = {},
  ): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
    const res = await this.#transport.request({
      method,
      path: requestPath(this.#transport.baseUrl, path),
      body: options.body,
      signal: options.signal,
      retryOnlyRefused: options.retryOnlyRefused,
    });
    let body: unknown = res.text;
    if (res.text.trim() === '') body = undefined;
    else {
      try {
        body = JSON.parse(res.text);
      } catch {
        // Not JSON: the text as it came.
      }
    }
    return { status: res.status, headers: res.headers, body, text: res.text };
  }

  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /** Closes the keep-alive connections this client opened. */
  close(): Promise<void> {
    return this.#transport.close();
  }
}

/**
 * `path` resolved below `baseUrl` as a URL parser (and so the server) reads it, returned relative
 * to the base path with its query. Resolving first is what catches `/../admin` and `%2e%2e`: a
 * check of the text alone misses the encoded forms.
 */
export function requestPath(baseUrl: string, path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  const control = /[\s\u0000-\u001f\u007f]/.exec(path);
  if (control) {
    const what =
      control[0] === ' '
        ? 'a space'
        : `a control character (U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()})`;
    throw new RequestPathError(
      `The path holds ${what} at character ${control.index + 1}: ${JSON.stringify(path)}`,
      'Percent-encode it (a space is %20), or quote the path so the shell passes it whole.',
    );
  }
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  let url: URL;
  try {
    url = new URL(path.startsWith('/') ? path.slice(1) : path, base);
  } catch {
    throw new RequestPathError(`The path is not one a URL can hold: ${JSON.stringify(path)}`);
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
    throw new RequestPathError(
      `The path ${JSON.stringify(path)} leads out of the base URL ${base.href} (to ${url.origin}${url.pathname})`,
      'Give a path below the base URL, without `..` segments (encoded or not); to reach another service, change the base URL.',
    );
  }
  // Below the base URL yet rewritten: `/contacts/..` would DELETE the path above the contact.
  const dot = readAsDotSegmentOf(path);
  if (dot !== undefined) {
    const why = isDotSegment(dot)
      ? `which URL parsers, proxies and servers resolve away: it would reach ${url.pathname}`
      : `which servers and proxies may read as "." or ".." (percent-decoded, split at a "/" or "\\", or cut at ";"): it could reach a path above the one meant`;
    throw new RequestPathError(
      `The path ${JSON.stringify(path)} holds a ${JSON.stringify(dot)} segment, ${why}`,
      'Give the path as it is meant, without "." or ".." segments (encoded or not); a contact whose external_id is "." or ".." can be addressed by its id (ct_...).',
    );
  }
  return `/${url.pathname.slice(base.pathname.length)}${url.search}`;
}
