// What a resource needs from the client: the agent to address, the request core, the parser.
import type { AnswerCheck } from '../../api/answer-check.js';
import type { RawResponse } from '../response.js';
import type { AttemptEvent, RequestSpec, RetryEvent } from '../transport.js';

/** Per-call options every method takes. */
export interface RequestOptions {
  /** The agent whose directory is addressed; defaults to the client's `agentId`. */
  agentId?: string;
  signal?: AbortSignal;
  /** How long each attempt of this call may take, to the last byte of the answer. */
  timeoutMs?: number;
  maxRetries?: number;
  /** Called before each retry of this call (after the client's own `onRetry`). */
  onRetry?: (event: RetryEvent) => void;
  /** Awaited before each attempt of this call, the first included (to pace calls to a rate limit). */
  beforeAttempt?: (attempt: number) => Promise<void> | void;
  /** Told as each attempt of this call ends: status (0 without an answer), headers, latency. */
  onAttempt?: (event: AttemptEvent) => void;
}

export interface ClientCore {
  agentId(options: RequestOptions): string;
  request(spec: RequestSpec): Promise<RawResponse>;
  parse<T>(res: RawResponse, check: AnswerCheck<T>, what: string): T;
}
