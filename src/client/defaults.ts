// The client's defaults, alone in a module without imports: the settings table and the CLI's help
// read them without loading the client.

/** Retries of a failed request (429, 5xx, connection failures) by default. */
export const DEFAULT_MAX_RETRIES = 2;
/** How long one attempt may take by default, to the last byte of the answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;
