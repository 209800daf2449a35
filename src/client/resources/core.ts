// What a resource needs from the client: the agent to address, the request core, the parser.
import type * as z from 'zod';
import type { RawResponse } from '../response.js';
import type { RequestSpec, RetryEvent } from '../transport.js';

/** Per-call options every method takes. */
export interface RequestOptions {
  /** The agent whose directory is addressed; defaults to the client's `agentId`. */
  agentId?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** Called before each retry of this call (after the client's own `onRetry`). */
  onRetry?: (event: RetryEvent) => void;
}

export interface ClientCore {
  agentId(options: RequestOptions): string;
  request(spec: RequestSpec): Promise<RawResponse>;
  parse<S extends z.ZodType>(res: RawResponse, schema: S, what: string): z.output<S>;
}
