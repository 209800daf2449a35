// The CLI's own errors: what a command raises on purpose, its message fit for the user (exit.ts
// turns any thrown value into lines for stderr and an exit code).

import type { APIError, AuthenticationError, InconsistentListError } from '../client/errors.js';
import type { ApiKeySource } from '../config/resolve.js';
import { API_KEY_ENV, API_KEY_FILE_ENV, DEFAULT_PROFILE } from '../config/settings.js';
import { ContactsError } from '../core/error.js';
import { ExitCode } from './exit-codes.js';

export { ExitCode } from './exit-codes.js';

export interface CliErrorOptions {
  exitCode?: number;
  /** One line telling the user what to do next. */
  hint?: string;
  cause?: unknown;
  /** The command has said everything already: only the exit code is left (an import's 8 or 130). */
  silent?: boolean;
}

/** An error the CLI raises on purpose: its message is already fit for the user. */
export class CliError extends ContactsError {
  readonly exitCode: number;
  readonly hint: string | undefined;
  readonly silent: boolean;
  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? ExitCode.FAILURE;
    this.hint = options.hint;
    this.silent = options.silent ?? false;
  }
}

/** Bad arguments, options or configuration. */
export class UsageError extends CliError {
  constructor(message: string, options: Omit<CliErrorOptions, 'exitCode'> = {}) {
    super(message, { ...options, exitCode: ExitCode.USAGE });
  }
}

/** No API key, or one that cannot be right. */
export class CredentialsError extends CliError {
  constructor(message: string, options: Omit<CliErrorOptions, 'exitCode'> = {}) {
    super(message, { ...options, exitCode: ExitCode.AUTH });
  }
}

/** The user pressed Ctrl-C (at a prompt, or during a command that listens for SIGINT). */
export class InterruptedError extends CliError {
  constructor(message = 'Interrupted', options: Omit<CliErrorOptions, 'exitCode'> = {}) {
    super(message, { ...options, exitCode: ExitCode.INTERRUPTED });
  }
}

/** Where the key of a run came from, as its settings resolved it: what a refused key's hint names. */
export interface KeyOrigin {
  source: Exclude<ApiKeySource, 'none'>;
  /** The file CONTACTS_API_KEY_FILE names, for `key-file`. */
  file: string | undefined;
  profile: string;
  configPath: string;
}

/**
 * The service refused the key (401), worded by where the key came from: a refused key in
 * CONTACTS_API_KEY is fixed there, not by logging in again.
 */
export class KeyRefusedError extends CliError {
  override readonly cause: AuthenticationError;
  readonly origin: KeyOrigin;
  constructor(cause: AuthenticationError, origin: KeyOrigin) {
    super(`The service refused the API key from ${keyOriginName(origin)}: ${apiErrorMessage(cause)}`, {
      exitCode: ExitCode.AUTH,
      hint: refusedKeyHint(origin),
      cause,
    });
    this.cause = cause;
    this.origin = origin;
  }
}

function keyOriginName(origin: KeyOrigin): string {
  if (origin.source === 'env') return API_KEY_ENV;
  if (origin.source === 'key-file') return `${API_KEY_FILE_ENV} (${origin.file})`;
  return `profile "${origin.profile}" in ${origin.configPath}`;
}

function refusedKeyHint(origin: KeyOrigin): string {
  const login = `contacts${origin.profile === DEFAULT_PROFILE ? '' : ` --profile ${origin.profile}`} auth login`;
  if (origin.source === 'env') {
    return `${API_KEY_ENV} holds a key the service refused: set it to a valid key, or unset it to use the profile's (\`${login}\` stores one).`;
  }
  if (origin.source === 'key-file') {
    return `${API_KEY_FILE_ENV} names a file whose key the service refused: put a valid key on its first line, or unset ${API_KEY_FILE_ENV} to use the profile's.`;
  }
  return `Run \`${login}\` to store a valid key (profile "${origin.profile}").`;
}

export const LIST_CHANGED_HINT =
  'Contacts were added or deleted while the list was read (an import or a delete running?), or the service repeated a page.';

/**
 * A walk of every page that did not see one list, worded for where its rows went: a file (not
 * written: `out`), or stdout, whose rows cannot be taken back and are not the whole list.
 */
export function listChangedError(error: InconsistentListError, out: string | undefined): CliError {
  if (out !== undefined) {
    return new CliError(`${error.message}; ${out} was not written`, {
      exitCode: ExitCode.SERVICE,
      hint: `${LIST_CHANGED_HINT} Run it again once the directory holds still.`,
      cause: error,
    });
  }
  return new CliError(`${error.message}; what was written is not the whole list`, {
    exitCode: ExitCode.SERVICE,
    hint: `${LIST_CHANGED_HINT} Run it again, or use \`contacts export --out FILE\`, which reads again until the list holds still.`,
    cause: error,
  });
}

/** A resume refused by its checkpoint: the way on that discards it. */
export const CHECKPOINT_MISMATCH_HINT =
  'To start over from the first row instead, run the same command with --restart in place of --resume (the checkpoint is discarded).';

/** The service's words on an error, with its status and request id, for a message. */
export function apiErrorMessage(error: APIError): string {
  // The client's message leads with the status ("404 Contact not found"); people read it last.
  const text = error.message.replace(new RegExp(`^${error.status}\\s+`), '');
  // The request id is what support asks for: in the message, not only under --debug.
  return `${text} (HTTP ${error.status}${error.requestId ? `, request ${error.requestId}` : ''})`;
}
