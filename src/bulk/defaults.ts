// The bulk commands' defaults (import, undo, delete --from), alone in a module without imports:
// the CLI's help reads them without loading the scheduler.

/** Requests in flight at most, by default; the scheduler halves it while the service asks for less. */
export const DEFAULT_CONCURRENCY = 8;
/** Requests in flight at most that a caller may ask for. */
export const MAX_CONCURRENCY = 256;
/**
 * Retries per request (5xx, 429, connection failures) before a bulk run stops: more than a single
 * call's, as a long run would rather wait out a bad minute than stop half way.
 */
export const DEFAULT_RETRIES = 10;
