// One error hierarchy for everything the client can throw; subclasses chosen by HTTP status.
import type { Issue } from '../api/envelope.js';
import { REQUEST_ID_HEADER } from '../api/headers.js';
import { CHATBOT_NOT_FOUND, MAX_CONTACTS_REACHED } from '../api/messages.js';
import { ContactsError } from '../core/error.js';

export { ContactsError };

export type Headers = Record<string, string | string[] | undefined>;

/** The service answered with a non-2xx status. */
export class APIError extends ContactsError {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  /** Field-level problems of a validation error (`issues` in the error body). */
  readonly issues: Issue[];
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    message: string;
    headers?: Headers;
    body?: unknown;
    issues?: Issue[];
    method: string;
    url: string;
  }) {
    super(init.message);
    this.status = init.status;
    this.headers = init.headers ?? {};
    this.body = init.body;
    this.issues = init.issues ?? [];
    this.method = init.method;
    this.url = init.url;
  }

  /** The service's id for this request (`x-request-id`): quote it to support. */
  get requestId(): string | undefined {
    const raw = this.headers[REQUEST_ID_HEADER];
    return Array.isArray(raw) ? raw[0] : raw;
  }
}

export class BadRequestError extends APIError {}
/** 400 "Maximum contacts limit reached": the write would create a contact past the agent's quota. */
export class ContactLimitError extends BadRequestError {}
export class AuthenticationError extends APIError {}
export class PermissionDeniedError extends APIError {}
export class NotFoundError extends APIError {}
/** 404 "Chatbot not found": the agent itself does not exist (not the contact or attribute). */
export class AgentNotFoundError extends NotFoundError {}
export class ConflictError extends APIError {}
export class PayloadTooLargeError extends APIError {}
export class UnsupportedMediaTypeError extends APIError {}
export class RateLimitError extends APIError {
  /** Seconds the server asked us to wait (`Retry-After`), when it said. */
  get retryAfterSeconds(): number | undefined {
    const raw = this.headers['retry-after'];
    const n = Number(Array.isArray(raw) ? raw[0] : raw);
    return Number.isFinite(n) ? n : undefined;
  }
}
export class InternalServerError extends APIError {}

/** The request never got an answer: refused, reset, DNS, TLS. Keeps the low-level `cause`. */
export class APIConnectionError extends ContactsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A proxy setting that cannot be used (not a URL, or a scheme other than http and https): the
 * user's configuration, naming the variable it came from, not a failure to reach anything.
 */
export class ProxyConfigError extends ContactsError {
  /** The variable (or client option) that holds the value. */
  readonly variable: string;
  constructor(message: string, variable: string) {
    super(message);
    this.variable = variable;
  }
}

/**
 * The proxy, not the service, said no: 407 (it wants credentials) or 403 (it does not allow the
 * host), to a CONNECT or a forwarded request. Not a network blip: never retried.
 */
export class ProxyRefusedError extends ContactsError {
  readonly status: number;
  /** The proxy's URL, credentials redacted. */
  readonly proxy: string;
  constructor(message: string, init: { status: number; proxy: string; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.proxy = init.proxy;
  }
}

/** A path for `request()` that cannot be sent below the base URL (`/../admin`, a space). */
export class RequestPathError extends ContactsError {
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}

/** No answer within the timeout. */
export class APITimeoutError extends APIConnectionError {}

/** The caller aborted the request through its AbortSignal. */
export class APIUserAbortError extends ContactsError {
  constructor(message = 'Request was aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The service answered 2xx, but the body breaks the contract. */
export class ResponseValidationError extends ContactsError {
  readonly status: number;
  readonly issues: Issue[];
  readonly body: unknown;
  /** The service's `x-request-id` of the answer, to quote to support. */
  readonly requestId: string | undefined;
  constructor(init: {
    message: string;
    status: number;
    issues: Issue[];
    body: unknown;
    requestId?: string | undefined;
  }) {
    super(init.message);
    this.status = init.status;
    this.issues = init.issues;
    this.body = init.body;
    this.requestId = init.requestId;
  }
}

const BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  429: RateLimitError,
};

/**
 * Production's messages that name a more precise error than the status alone (contract
 * revision 2): the agent missing rather than a contact, the quota rather than a bad field.
 */
const BY_MESSAGE: Record<number, [message: string, ErrorClass: typeof APIError][]> = {
  400: [[MAX_CONTACTS_REACHED, ContactLimitError]],
  404: [[CHATBOT_NOT_FOUND, AgentNotFoundError]],
};

/** The APIError subclass for an HTTP status and, where it tells more, the service's message. */
export function errorClassFor(status: number, message?: string): typeof APIError {
  const precise = message === undefined ? undefined : BY_MESSAGE[status]?.find(([m]) => m === message);
  return precise?.[1] ?? BY_STATUS[status] ?? (status >= 500 ? InternalServerError : APIError);
}

/**
 * - `total_changed`: a page gave another `total` than the walk's first page;
 * - `page_gone`: a page the walk was told of is past the end now (the list shrank);
 * - `repeated_id`: a contact came a second time (pages moved, or the server repeated one);
 * - `count_mismatch`: the walk ended with another number of contacts than `total` said.
 */
export type InconsistentListCode = 'total_changed' | 'page_gone' | 'repeated_id' | 'count_mismatch';

/**
 * A walk through every page of a list did not see one list: contacts were added or deleted
 * meanwhile (offset pages shift, so some would be skipped or come twice), or the server repeated
 * or dropped a page. What the walk yielded is not the whole list. Read it again from the first
 * page (`walkUntilConsistent`).
 */
export class InconsistentListError extends ContactsError {
  readonly code: InconsistentListCode;
  /** The page that showed it (none for `count_mismatch`, seen at the end). */
  readonly page: number | undefined;
  /** The `total` the walk's first page gave. */
  readonly expected: number;
  /** The other `total` (`total_changed`), or the contacts the walk counted (`count_mismatch`). */
  readonly found: number | undefined;
  /** The contact's `id` that came twice (`repeated_id`). */
  readonly id: string | undefined;
  /** Walks from the first page made before giving up: 1 unless the list was read again. */
  readonly attempts: number;

  constructor(init: {
    code: InconsistentListCode;
    expected: number;
    page?: number | undefined;
    found?: number | undefined;
    id?: string | undefined;
    attempts?: number;
  }) {
    const attempts = init.attempts ?? 1;
    const what = {
      total_changed: `page ${init.page} counts ${init.found} contacts, the first page ${init.expected}`,
      page_gone: `page ${init.page} is past the end now (the first page counted ${init.expected} contacts)`,
      repeated_id: `contact ${init.id} came twice (again on page ${init.page})`,
      count_mismatch: `the pages held ${init.found} contacts, not the ${init.expected} the first page counted`,
    }[init.code];
    super(
      `The list of contacts changed while it was read: ${what}${attempts > 1 ? ` (read ${attempts} times)` : ''}`,
    );
    this.code = init.code;
    this.page = init.page;
    this.expected = init.expected;
    this.found = init.found;
    this.id = init.id;
    this.attempts = attempts;
  }
}
