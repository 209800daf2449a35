// Fault injection for the mock server: latency, failures drawn from a seeded PRNG (so a run can
// be replayed), and a fixed-window rate limit with the usual headers (or, to test a client
// against a service that sends none, only Retry-After on its 429s).

import { setTimeout as delay } from 'node:timers/promises';

/** What a failing request turns into. */
export type FaultKind =
  /** 500 with an error body. */
  | 'error-500'
  /** 503 with an error body and `Retry-After`. */
  | 'error-503'
  /** The connection is dropped before the request is handled. */
  | 'reset'
  /** The request is handled (a write commits), then the connection is dropped unanswered. */
  | 'lost';

export const FAULT_KINDS: readonly FaultKind[] = ['error-500', 'error-503', 'reset', 'lost'];

export interface FaultOptions {
  /** Delay before each request is handled. */
  latencyMs?: number;
  /** Share of requests, 0 to 1, that fail with one of the `FaultKind`s. */
  failRate?: number;
  /** Seed of the PRNG that picks failures; the same seed replays the same sequence. */
  seed?: number;
  /** Requests allowed per window (a fixed window, one second by default); the rest get 429. */
  rateLimit?: number;
  /** The rate limit's window in milliseconds, a whole number of seconds (production: 100 per 10 s). */
  rateWindowMs?: number;
  /**
   * Send the X-RateLimit-* headers (default true). Off, a 429 says only Retry-After, as many
   * services do: a client must find the limit from the 429s alone.
   */
  rateLimitHeaders?: boolean;
  /** Clock in milliseconds, for tests. */
  now?: () => number;
  /** Waits `ms` (the latency), rejecting when `signal` aborts; for tests. Default: a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The X-RateLimit-* headers, plus Retry-After when refused. */
  headers: Record<string, string>;
}

export interface FaultInjector {
  readonly seed: number;
  readonly latencyMs: number;
  /** Waits out the latency; rejects when `signal` aborts. */
  waitLatency(signal: AbortSignal): Promise<unknown>;
  /** Counts the request against the window; null when no rate limit is set. */
  checkRateLimit(): RateLimitDecision | null;
  /** The fault for the next request, or null to answer it normally. */
  nextFault(): FaultKind | null;
  /** Back to the state just after creation: the PRNG reseeded, the window emptied. */
  reset(): void;
}

/** mulberry32: a tiny, fast 32-bit PRNG; good enough to pick faults, and reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Throws a RangeError naming the first option out of range. */
export function checkFaultOptions(options: FaultOptions): void {
  const { latencyMs, failRate, seed, rateLimit, rateWindowMs } = options;
  if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0)) {
    throw new RangeError(`latencyMs must be a number >= 0 (got ${latencyMs})`);
  }
  if (failRate !== undefined && !(failRate >= 0 && failRate <= 1)) {
    throw new RangeError(`failRate must be between 0 and 1 (got ${failRate})`);
  }
  if (seed !== undefined && !Number.isInteger(seed))
    throw new RangeError(`seed must be an integer (got ${seed})`);
  if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit >= 1)) {
    throw new RangeError(`rateLimit must be a whole number >= 1 (got ${rateLimit})`);
  }
  if (rateWindowMs !== undefined && !(Number.isInteger(rateWindowMs / 1000) && rateWindowMs >= 1000)) {
    throw new RangeError(
      `rateWindowMs must be a whole number of seconds, at least one (got ${rateWindowMs})`,
    );
  }
}

export function createFaultInjector(options: FaultOptions): FaultInjector {
  checkFaultOptions(options);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
  const failRate = options.failRate ?? 0;
  const limit = options.rateLimit;
  const windowMs = options.rateWindowMs ?? 1000;
  const withHeaders = options.rateLimitHeaders ?? true;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  let random = mulberry32(seed);
  let windowStart = Number.NEGATIVE_INFINITY;
  let used = 0;

  return {
    seed,
    latencyMs: options.latencyMs ?? 0,
    waitLatency(signal) {
      return sleep(this.latencyMs, signal);
    },
    checkRateLimit() {
      if (limit === undefined) return null;
      const t = now();
      // Windows sit on whole wall-clock seconds, so X-RateLimit-Reset is an exact Unix second.
      const start = Math.floor(t / windowMs) * windowMs;
      if (start !== windowStart) {
        windowStart = start;
        used = 0;
      }
      const allowed = used < limit;
      if (allowed) used += 1;
      const resetAt = windowStart + windowMs;
      const headers: Record<string, string> = withHeaders
        ? {
            'x-ratelimit-limit': String(limit),
            'x-ratelimit-remaining': String(Math.max(0, limit - used)),
            'x-ratelimit-reset': String(resetAt / 1000),
          }
        : {};
      if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((resetAt - t) / 1000)));
      return { allowed, headers };
    },
    nextFault() {
      if (failRate === 0) return null;
      if (random() >= failRate) return null;
      return FAULT_KINDS[Math.floor(random() * FAULT_KINDS.length)]!;
    },
    reset() {
      random = mulberry32(seed);
      windowStart = Number.NEGATIVE_INFINITY;
      used = 0;
    },
  };
}
