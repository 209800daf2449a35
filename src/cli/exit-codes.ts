// The exit codes of `contacts`, in a module of their own so the entry point reads them cheaply.

/**
 * Exit codes of the `contacts` command. Documented in the README; scripts depend on them,
 * so a number never changes meaning.
 */
export const ExitCode = {
  /** Success. */
  OK: 0,
  /** Anything not covered below: a bug, an unexpected local failure. */
  FAILURE: 1,
  /** Bad arguments, options or configuration values, or input the service rejected as invalid (400, 413). */
  USAGE: 2,
  /** No API key, or the service rejected it (401, 403). */
  AUTH: 3,
  /** The agent, contact or attribute does not exist (404). */
  NOT_FOUND: 4,
  /** The write conflicts with existing data, e.g. an email already in use (409). */
  CONFLICT: 5,
  /** The service failed: 5xx, still rate limited after retries (429), or an answer that breaks the contract. */
  SERVICE: 6,
  /** The service could not be reached: refused, reset, DNS, TLS, timeout. */
  NETWORK: 7,
  /** An import finished, but some rows were rejected (see its report). */
  PARTIAL: 8,
  /**
   * Interrupted by Ctrl-C (SIGINT), as shells report it: 128 + 2. Also an import that a full disk
   * (or a file size limit) stopped: unfinished as an interrupted one is, and resumed the same way.
   */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
