// The mock's request log: what was called, for `serve`'s log lines, `GET /__mock/requests` and
// `startMockServer().requests`. Bounded, and never holding a key: no headers, no bodies, and a
// key a client put in a path by mistake is redacted.
import { redactSecrets } from '../core/redact.js';
import type { FaultKind } from './faults.js';

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

export const REQUEST_LOG_LIMIT = 1000;

/**
 * The last `REQUEST_LOG_LIMIT` requests in a ring, kept as columns and made into entries when
 * asked for. Under load the log is what outlives a request longest: an object and a boxed
 * duration per entry, held for a thousand requests and more, were copied by every young
 * collection (and promoted); now a request leaves its id string behind, and its path only when
 * it differs from the one before.
 */
export class RequestLog {
  #methods: string[] = [];
  #paths: string[] = [];
  #ids: string[] = [];
  #statuses = new Uint16Array(REQUEST_LOG_LIMIT);
  #durations = new Float64Array(REQUEST_LOG_LIMIT);
  /** The entry itself, for the few with a fault or ignored fields. */
  #extras: (RequestLogEntry | undefined)[] = [];
  /** Requests recorded since the last `clear()`; the next one goes to slot `#count % LIMIT`. */
  #count = 0;
  readonly #onRequest: ((entry: RequestLogEntry) => void) | undefined;
  readonly #onError: (error: unknown) => void;

  constructor(onRequest?: (entry: RequestLogEntry) => void, onError: (error: unknown) => void = () => {}) {
    this.#onRequest = onRequest;
    this.#onError = onError;
  }

  record(entry: RequestLogEntry): void {
    if (entry.path.includes('bk_')) entry.path = redactSecrets(entry.path);
    const slot = this.#count % REQUEST_LOG_LIMIT;
    const before = this.#count === 0 ? undefined : this.#paths[(this.#count - 1) % REQUEST_LOG_LIMIT];
    this.#methods[slot] = entry.method;
    this.#paths[slot] = before === entry.path ? before : entry.path;
    this.#ids[slot] = entry.requestId;
    this.#statuses[slot] = entry.status;
    this.#durations[slot] = entry.durationMs;
    this.#extras[slot] = entry.fault !== undefined || entry.ignored !== undefined ? entry : undefined;
    this.#count++;
    if (this.#onRequest) {
      try {
        this.#onRequest(entry);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  /** The most recent requests, oldest first (at most `REQUEST_LOG_LIMIT`). */
  get entries(): readonly RequestLogEntry[] {
    const count = this.#count;
    const out: RequestLogEntry[] = [];
    for (let i = Math.max(0, count - REQUEST_LOG_LIMIT); i < count; i++) {
      const slot = i % REQUEST_LOG_LIMIT;
      const entry: RequestLogEntry = {
        method: this.#methods[slot]!,
        path: this.#paths[slot]!,
        status: this.#statuses[slot]!,
        durationMs: this.#durations[slot]!,
        requestId: this.#ids[slot]!,
      };
      const extra = this.#extras[slot];
      if (extra?.fault !== undefined) entry.fault = extra.fault;
      if (extra?.ignored !== undefined) entry.ignored = extra.ignored;
      out.push(entry);
    }
    return out;
  }

  clear(): void {
    this.#methods = [];
    this.#paths = [];
    this.#ids = [];
    this.#extras = [];
    this.#count = 0;
  }
}
