// When to try a request again, and how long to wait first: exponential backoff with jitter,
// `Retry-After` honoured up to a cap. Every operation of this API is safe to repeat.
import { DEFAULT_MAX_RETRIES } from './defaults.js';
import type { Headers } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** A longer `Retry-After` is capped to this, so a bad header cannot stall a script for hours. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: DEFAULT_MAX_RETRIES,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Milliseconds the server asked for in `Retry-After` (seconds or an HTTP date), if any. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const pick = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const ms = Number(pick('retry-after-ms'));
  if (pick('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = pick('retry-after');
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (0 for the first retry). Full-range jitter in the
 * upper quarter keeps concurrent clients from retrying in lockstep.
 */
export function backoffDelayMs(
  policy: RetryPolicy,
  retry: number,
  headers: Headers | undefined,
  random: () => number = Math.random,
): number {
  const asked = headers ? retryAfterMs(headers) : undefined;
  if (asked !== undefined) return Math.min(asked, policy.maxRetryAfterMs);
  const exp = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return Math.round(exp * (1 - random() * 0.25));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
