// Turns a response into a typed payload or a typed error, checked against the contract.
import type { AnswerCheck } from '../api/answer-check.js';
import type { Issue } from '../api/envelope.js';
import { REQUEST_ID_HEADER } from '../api/headers.js';
import { redactDeep, redactHeaders, redactSecrets } from '../core/redact.js';
import { ANSWERS } from './answers.js';
import { type APIError, errorClassFor, type Headers, ResponseValidationError } from './errors.js';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Checks a 2xx body against the contract; a server that breaks it gets a clear error. */
export function parseBody<T>(res: RawResponse, check: AnswerCheck<T>, what: string): T {
  const json = parseJson(res.text);
  if (!json.ok) {
    throw new ResponseValidationError({
      message: `The service answered ${res.status} with a body that is not JSON (expected ${what})`,
      status: res.status,
      issues: [],
      body: res.text.slice(0, 500),
      requestId: requestIdOf(res.headers),
    });
  }
  const result = check(json.value);
  if (!result.ok) {
    const { issues } = result;
    const detail = issues
      .slice(0, 3)
      .map((i) => `${i.field}: ${i.message}`)
      .join('; ');
    throw new ResponseValidationError({
      message: `The service's response breaks the contract (expected ${what}): ${detail}`,
      status: res.status,
      issues,
      body: json.value,
      requestId: requestIdOf(res.headers),
    });
  }
  return result.value;
}

function requestIdOf(headers: Headers): string | undefined {
  const raw = headers[REQUEST_ID_HEADER];
  return Array.isArray(raw) ? raw[0] : raw;
}

/** The typed error for a non-2xx response, its message taken from the error body when there is one. */
export function toAPIError(
  res: RawResponse,
  method: string,
  url: string,
  secrets: readonly (string | undefined)[] = [],
): APIError {
  const json = parseJson(res.text);
  const parsed = json.ok ? ANSWERS.errorBody(json.value) : undefined;
  const serverMessage = parsed?.ok ? parsed.value.message : undefined;
  const issues: Issue[] = parsed?.ok ? (parsed.value.issues ?? []) : [];
  const message = redactSecrets(`${res.status} ${serverMessage ?? statusText(res.status)}`, secrets);
  const ErrorClass = errorClassFor(res.status, serverMessage);
  return new ErrorClass({
    status: res.status,
    message,
    headers: redactHeaders(res.headers, secrets),
    body: redactDeep(json.ok ? json.value : res.text.slice(0, 500), secrets),
    issues: redactDeep(issues, secrets) as Issue[],
    method,
    url,
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
const statusText = (status: number) => STATUS_TEXT[status] ?? 'HTTP error';
