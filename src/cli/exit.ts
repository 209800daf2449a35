// The one place that turns any thrown value into lines for stderr and an exit code: main.ts
// loads it when a command fails, prints the lines and exits; nothing else decides an exit code.

import { PathParamError } from '../api/operations.js';
import {
  AgentNotFoundError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ContactLimitError,
  InconsistentListError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ProxyConfigError,
  ProxyRefusedError,
  RateLimitError,
  RequestPathError,
  ResponseValidationError,
} from '../client/errors.js';
import { ConfigError } from '../config/errors.js';
import { API_KEY_ENV } from '../config/settings.js';
import { redactSecrets } from '../core/redact.js';
import {
  CheckpointMismatchError,
  ImportError,
  OutputWriteError,
  UnfinishedImportError,
} from '../importer/errors.js';
import { MockDataFileError, SeedError } from '../mock/errors.js';
import { OutputPathError } from '../util/output-path.js';
import { commanderExitCode, isCommanderError } from './commander-exit.js';
import {
  apiErrorMessage,
  CHECKPOINT_MISMATCH_HINT,
  CliError,
  KeyRefusedError,
  LIST_CHANGED_HINT,
} from './errors.js';
import { ExitCode } from './exit-codes.js';

export interface ToExitOptions {
  /** Add request details, causes and stacks. */
  debug?: boolean;
  /** Literal secrets to redact besides anything shaped like a key (e.g. the key in use). */
  secrets?: readonly (string | undefined)[];
}

export interface ExitPlan {
  code: number;
  /** Lines for stderr, already redacted; empty when someone else has printed the message. */
  lines: string[];
}

interface Described {
  code: number;
  message: string;
  details?: string[];
  hint?: string;
}

/** Without the run's settings (a library caller of toExit), where the key came from is not known. */
const LOGIN_HINT = `Run \`contacts auth login\`, or set ${API_KEY_ENV}.`;

/** Maps any thrown value to what the user sees and the exit code. */
export function toExit(error: unknown, options: ToExitOptions = {}): ExitPlan {
  if (isCommanderError(error)) return { code: commanderExitCode(error), lines: [] };
  if (isBrokenPipe(error)) return { code: ExitCode.OK, lines: [] };
  if (error instanceof CliError && error.silent && !options.debug) return { code: error.exitCode, lines: [] };

  const described = describe(error);
  const lines = [`error: ${described.message}`, ...(described.details ?? [])];
  if (described.hint) lines.push(`hint: ${described.hint}`);
  if (options.debug) lines.push(...debugLines(error));
  return {
    code: described.code,
    lines: lines.flatMap((l) => redactSecrets(l, options.secrets).split('\n')),
  };
}

function describe(error: unknown): Described {
  if (error instanceof CliError) {
    return { code: error.exitCode, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  if (error instanceof ConfigError) {
    return {
      code: error.kind === 'credentials' ? ExitCode.AUTH : ExitCode.USAGE,
      message: error.message,
      ...(error.hint ? { hint: error.hint } : {}),
    };
  }
  if (error instanceof RequestPathError) {
    return { code: ExitCode.USAGE, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  if (error instanceof PathParamError) {
    return {
      code: ExitCode.USAGE,
      message: error.message,
      hint:
        error.param === 'id'
          ? 'Address the contact by its id (ct_..., as `contacts list` shows it) instead of its external_id.'
          : `No ${error.param === 'agentId' ? 'agent' : 'attribute'} can be addressed by "." or "..".`,
    };
  }
  if (error instanceof ProxyConfigError) {
    return {
      code: ExitCode.USAGE,
      message: error.message,
      hint: `Fix ${error.variable} (a proxy is http://host:port or https://host:port, with user:password@ if it wants them), or unset it.`,
    };
  }
  if (error instanceof ProxyRefusedError) {
    return {
      code: ExitCode.NETWORK,
      message: error.message,
      hint:
        error.status === 407
          ? `Give the proxy ${error.proxy} its credentials (http://user:password@host:port in HTTPS_PROXY or HTTP_PROXY), or name the service's host in NO_PROXY to go direct.`
          : `Ask whoever runs the proxy ${error.proxy} to allow the service's host, or name it in NO_PROXY to go direct.`,
    };
  }
  if (error instanceof APIError) return describeApiError(error);
  if (error instanceof InconsistentListError) {
    return {
      code: ExitCode.SERVICE,
      message: error.message,
      hint: `${LIST_CHANGED_HINT} Run it again once the directory holds still.`,
    };
  }
  if (error instanceof ResponseValidationError) {
    return {
      code: ExitCode.SERVICE,
      message: `${error.message} (HTTP ${error.status}${error.requestId ? `, request ${error.requestId}` : ''}): the service's answer does not match the API contract`,
      details: issueLines(error.issues),
      hint: 'Check that --base-url points at the Contacts API; run with --debug to see the answer.',
    };
  }
  // Timeout first: it is a kind of connection error with its own advice.
  if (error instanceof APITimeoutError) {
    return {
      code: ExitCode.NETWORK,
      message: withCause(error.message, error.cause),
      hint: 'The service did not answer in full within --timeout (each attempt, to its last byte); try again, raise --timeout, or check your connection.',
    };
  }
  if (error instanceof APIConnectionError) {
    return {
      code: ExitCode.NETWORK,
      message: withCause(error.message, error.cause),
      hint: 'Check the base URL (--base-url, CONTACTS_BASE_URL) and your network connection.',
    };
  }
  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return { code: ExitCode.INTERRUPTED, message: 'Interrupted' };
  }
  if (error instanceof UnfinishedImportError) {
    return {
      code: ExitCode.USAGE,
      message: error.message,
      hint:
        'Run the same command with --resume to send only the rows that have not landed, ' +
        "or with --restart to start over from the first row (discarding the unfinished import's checkpoint).",
    };
  }
  if (error instanceof CheckpointMismatchError) {
    return { code: ExitCode.USAGE, message: error.message, hint: CHECKPOINT_MISMATCH_HINT };
  }
  // A path the user named (or one beside the input) that no output may be written to.
  if (error instanceof OutputPathError) return { code: ExitCode.USAGE, message: error.message };
  // Before anything was sent (the import itself ends as an interrupted one: commands/import.ts).
  if (error instanceof OutputWriteError) return { code: ExitCode.FAILURE, message: error.message };
  // The user's file or options, not a bug: a bad --map, an unreadable or malformed input.
  if (error instanceof ImportError) return { code: ExitCode.USAGE, message: error.message };
  if (error instanceof MockDataFileError) {
    return {
      code: ExitCode.USAGE,
      message: error.message,
      hint: error.hint ?? 'Move the file aside (or delete it to start over), or name another file.',
    };
  }
  if (error instanceof SeedError) return { code: ExitCode.USAGE, message: error.message };
  const fsProblem = describeFsError(error);
  if (fsProblem) return fsProblem;
  const listenProblem = describeListenError(error);
  if (listenProblem) return listenProblem;
  if (error instanceof Error) {
    return {
      code: ExitCode.FAILURE,
      message: error.message || error.name,
      hint: 'This looks like a bug; run again with --debug and report the output.',
    };
  }
  return { code: ExitCode.FAILURE, message: `Unexpected failure: ${String(error)}` };
}

/** An API error's message as printed: the status last, with the request id support asks for. */

function describeApiError(error: APIError): Described {
  const message = apiErrorMessage(error);
  if (error instanceof ContactLimitError) {
    return {
      code: ExitCode.USAGE,
      message,
      hint: "The agent holds as many contacts as its plan allows: delete some, or raise the plan's limit.",
    };
  }
  if (error instanceof BadRequestError) {
    return { code: ExitCode.USAGE, message, details: issueLines(error.issues) };
  }
  if (error instanceof AuthenticationError) {
    return { code: ExitCode.AUTH, message, hint: `The API key was not accepted. ${LOGIN_HINT}` };
  }
  if (error instanceof PermissionDeniedError) {
    return { code: ExitCode.AUTH, message, hint: 'The API key is not allowed to do this.' };
  }
  if (error instanceof NotFoundError) return { code: ExitCode.NOT_FOUND, message, hint: notFoundHint(error) };
  if (error instanceof ConflictError) return { code: ExitCode.CONFLICT, message };
  if (error instanceof PayloadTooLargeError) {
    return { code: ExitCode.USAGE, message, hint: 'Send fewer or smaller contacts per request.' };
  }
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterSeconds;
    return {
      code: ExitCode.SERVICE,
      message,
      hint:
        wait === undefined
          ? 'The service is rate limiting requests; try again later.'
          : `The service is rate limiting requests; try again in ${wait} s.`,
    };
  }
  if (error instanceof InternalServerError || error.status >= 500) {
    return { code: ExitCode.SERVICE, message, hint: 'The service failed; try again later.' };
  }
  return { code: ExitCode.FAILURE, message, details: issueLines(error.issues) };
}

/** What to check, by what was not found: the agent, an attribute, or a contact. */
function notFoundHint(error: APIError): string {
  if (error instanceof AgentNotFoundError) {
    return 'Check the agent id (--agent, CONTACTS_AGENT or the profile): the service has no such agent.';
  }
  const path = error.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? '';
  if (/\/custom-attributes\/[^/]+$/.test(path)) {
    return 'Check the attribute name: `contacts attrs list` shows those defined for the agent.';
  }
  if (/\/contacts\/[^/]+$/.test(path)) {
    if (error.method === 'DELETE') {
      return "Check the contact's external_id (or the service's id) and the agent: `contacts list` shows them; with --missing-ok a contact already gone is not an error.";
    }
    return "Check the contact's external_id (or the service's id) and the agent: `contacts list` shows them.";
  }
  return 'Check the agent id and the base URL.';
}

function issueLines(issues: readonly { field: string; message: string }[]): string[] {
  return issues.map((i) => `  ${i.field}: ${i.message}`);
}

function withCause(message: string, cause: unknown): string {
  const reason =
    cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : undefined;
  return reason && !message.includes(reason) ? `${message} (${reason})` : message;
}

const MISSING_PATH_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/** A file the user named cannot be opened: their input is wrong, not the program. */
function describeFsError(error: unknown): Described | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  if (!code || !path) return undefined;
  if (MISSING_PATH_CODES.has(code)) {
    return {
      code: ExitCode.USAGE,
      message: `${code === 'EISDIR' ? 'Is a directory' : 'No such file'}: ${path}`,
    };
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return { code: ExitCode.FAILURE, message: `Permission denied: ${path}` };
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return { code: ExitCode.FAILURE, message: `No space left on the device (or quota) for ${path}` };
  }
  if (code === 'EROFS') return { code: ExitCode.FAILURE, message: `Read-only file system: ${path}` };
  return undefined;
}

/** `serve` could not listen: the address is taken or not this machine's. */
function describeListenError(error: unknown): Described | undefined {
  const e = error as NodeJS.ErrnoException & { port?: number; address?: string };
  if (!(error instanceof Error) || e.syscall !== 'listen') return undefined;
  const where = `${e.address ?? ''}${e.port === undefined ? '' : `:${e.port}`}`;
  if (e.code === 'EADDRINUSE') {
    return {
      code: ExitCode.USAGE,
      message: `Port ${e.port ?? ''} is already in use${where ? ` (${where})` : ''}`,
      hint: 'Stop what is using it, or pick another with --port (0 picks a free one).',
    };
  }
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') {
    return {
      code: ExitCode.USAGE,
      message: `Cannot listen on ${where}: ${e.code === 'EACCES' ? 'permission denied (ports below 1024 need root)' : 'not an address of this machine'}`,
      hint: 'Use --host 127.0.0.1 and a port above 1023.',
    };
  }
  return undefined;
}

function debugLines(error: unknown): string[] {
  const lines: string[] = [];
  const api = error instanceof KeyRefusedError ? error.cause : error;
  if (api instanceof APIError) {
    lines.push(`request: ${api.method} ${api.url}`);
    if (api.requestId) lines.push(`request id: ${api.requestId}`);
    if (api.body !== undefined) lines.push(`body: ${safeJson(api.body)}`);
  }
  if (error instanceof ResponseValidationError) {
    if (error.requestId) lines.push(`request id: ${error.requestId}`);
    lines.push(`body: ${safeJson(error.body)}`);
  }
  let current: unknown = error;
  // Bounded: a cause cycle must not hang the error path.
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    if (current instanceof Error)
      lines.push(`${depth === 0 ? '' : 'caused by: '}${current.stack ?? current.message}`);
    else lines.push(`caused by: ${String(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** `contacts list | head` closes stdout early; that is the reader's choice, not a failure. */
function isBrokenPipe(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EPIPE';
}
