// A simulated link for the bulk commands' scheduler: virtual time, a network delay each way, a
// server that handles one request at a time (so a queue builds when it is full), optionally a
// fixed-window rate limit like the mock's (with or without its headers) and a share of 503s.
import { Scheduler } from '../../src/bulk/scheduler.js';
import type { Headers } from '../../src/client/errors.js';

export interface LinkOptions {
  /** Round-trip network time (half each way). */
  rttMs: number;
  /** Server time per request; requests queue behind each other. */
  serviceMs: number;
  rateLimit?: { limit: number; windowMs: number; headers: boolean; retryAfter?: boolean };
  /** The scheduler's cap. */
  max?: number;
  durationMs: number;
  /** Every n-th request the server answers 503 (a service under strain). */
  unavailableEvery?: number;
  /** Keep to the scheduler's pace (default true); off, only its limit on requests in flight. */
  pace?: boolean;
}

export interface LinkResult {
  ok: number;
  throttled: number;
  unavailable: number;
  sent: number;
  /** Answered requests a second over the second half of the run (after convergence). */
  steadyRate: number;
  /** Mean latency of answered requests in the second half, over the floor. */
  latencyRatio: number;
  /** Each send's time, for checks on holds. */
  sends: number[];
  limits: number[];
  scheduler: Scheduler;
}

type Event = { at: number; run: () => void };

export function simulate(options: LinkOptions): LinkResult {
  const scheduler = new Scheduler({ max: options.max ?? 8 });
  const pace = options.pace ?? true;
  const events: Event[] = [];
  const schedule = (at: number, run: () => void) => {
    let i = events.length;
    while (i > 0 && events[i - 1]!.at > at) i--;
    events.splice(i, 0, { at, run });
  };
  let now = 0;
  let serverFree = 0;
  let served = 0;
  let windowStart = -1;
  let used = 0;
  let wakeAt = Number.POSITIVE_INFINITY;
  const result: LinkResult = {
    ok: 0,
    throttled: 0,
    unavailable: 0,
    sent: 0,
    steadyRate: 0,
    latencyRatio: 0,
    sends: [],
    limits: [],
    scheduler,
  };
  const half = options.durationMs / 2;
  let steadyOk = 0;
  let steadyLatency = 0;
  const minLatency = options.rttMs + options.serviceMs;

  const limitHeaders = (allowed: boolean, at: number): Headers => {
    const rl = options.rateLimit!;
    const resetAt = windowStart + rl.windowMs;
    const headers: Headers = {};
    if (rl.headers) {
      headers['x-ratelimit-limit'] = String(rl.limit);
      headers['x-ratelimit-remaining'] = String(Math.max(0, rl.limit - used));
      headers['x-ratelimit-reset'] = String((resetAt + 2e12) / 1000);
    }
    if (!allowed && rl.retryAfter !== false)
      headers['retry-after'] = String(Math.max(1, Math.ceil((resetAt - at) / 1000)));
    return headers;
  };

  const trySend = () => {
    while (scheduler.canStart) {
      const wait = pace ? scheduler.delay(now + 2e12) : 0;
      if (wait > 0) {
        if (now + wait < wakeAt) {
          wakeAt = now + wait;
          schedule(wakeAt, () => {
            wakeAt = Number.POSITIVE_INFINITY;
            trySend();
          });
        }
        return;
      }
      scheduler.acquire();
      const ticket = scheduler.sent(now + 2e12);
      const sentAt = now;
      result.sent++;
      result.sends.push(now);
      schedule(now + options.rttMs / 2, () => {
        // At the server: the rate limit counts the request as it arrives.
        let allowed = true;
        let headers: Headers = {};
        const rl = options.rateLimit;
        if (rl) {
          const start = Math.floor(now / rl.windowMs) * rl.windowMs;
          if (start !== windowStart) {
            windowStart = start;
            used = 0;
          }
          allowed = used < rl.limit;
          if (allowed) used++;
          headers = limitHeaders(allowed, now);
        }
        const answer = (status: number) => {
          const latencyMs = now - sentAt;
          scheduler.answered(ticket, status, headers, now + 2e12);
          scheduler.release();
          result.limits.push(scheduler.limit);
          if (status === 429) result.throttled++;
          else if (status === 503) result.unavailable++;
          else {
            result.ok++;
            if (sentAt >= half) {
              steadyOk++;
              steadyLatency += latencyMs;
            }
          }
          trySend();
        };
        if (!allowed) {
          schedule(now + options.rttMs / 2, () => answer(429));
          return;
        }
        const done = Math.max(now, serverFree) + options.serviceMs;
        serverFree = done;
        served++;
        const failing = options.unavailableEvery !== undefined && served % options.unavailableEvery === 0;
        schedule(done + options.rttMs / 2, () => answer(failing ? 503 : 200));
      });
    }
  };

  trySend();
  while (events.length > 0) {
    const event = events.shift()!;
    if (event.at > options.durationMs) break;
    now = event.at;
    event.run();
  }
  result.steadyRate = (steadyOk * 1000) / half;
  result.latencyRatio = steadyOk ? steadyLatency / steadyOk / minLatency : 0;
  return result;
}
