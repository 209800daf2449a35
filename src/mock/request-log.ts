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

/** The last `REQUEST_LOG_LIMIT` requests, oldest first. */
export class RequestLog {
  #entries: RequestLogEntry[] = [];
  readonly #onRequest: ((entry: RequestLogEntry) => void) | undefined;
  readonly #onError: (error: unknown) => void;

  constructor(onRequest?: (entry: RequestLogEntry) => void, onError: (error: unknown) => void = () => {}) {
    this.#onRequest = onRequest;
    this.#onError = onError;
  }

  record(entry: RequestLogEntry): void {
    entry.path = redactSecrets(entry.path);
    this.#entries.push(entry);
    if (this.#entries.length > REQUEST_LOG_LIMIT) this.#entries.shift();
    if (this.#onRequest) {
      try {
        this.#onRequest(entry);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  /** The most recent requests, oldest first (at most `REQUEST_LOG_LIMIT`): copies. */
  get entries(): readonly RequestLogEntry[] {
    return this.#entries.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.#entries = [];
  }
}
