// A simulated link for the concurrency controller and the rate pacer: virtual time, a network
// delay each way, a server that handles one request at a time (so a queue builds when it is
// full), and optionally a fixed-window rate limit like the mock's (with or without its headers).
import type { Headers } from '../../../src/client/errors.js';
import { ConcurrencyController } from '../../../src/importer/stages/concurrency.js';
import { RatePacer } from '../../../src/importer/stages/pacer.js';

export interface LinkOptions {
  /** Round-trip network time (half each way). */
  rttMs: number;
  /** Server time per request; requests queue behind each other. */
  serviceMs: number;
  rateLimit?: { limit: number; windowMs: number; headers: boolean; retryAfter?: boolean };
  /** The controller's cap. */
  max?: number;
  durationMs: number;
  /** Use the pacer (default true). */
  pace?: boolean;
}

export interface LinkResult {
  ok: number;
  throttled: number;
  sent: number;
  /** Answered requests a second over the second half of the run (after convergence). */
  steadyRate: number;
  /** Mean latency of answered requests in the second half, over the floor. */
  latencyRatio: number;
  /** Each send's time, for checks on holds. */
  sends: number[];
  limits: number[];
  controller: ConcurrencyController;
  pacer: RatePacer;
}

type Event = { at: number; run: () => void };

export function simulate(options: LinkOptions): LinkResult {
  const controller = new ConcurrencyController({ max: options.max ?? 64 });
  const pacer = new RatePacer();
  const pace = options.pace ?? true;
  const events: Event[] = [];
  const schedule = (at: number, run: () => void) => {
    let i = events.length;
    while (i > 0 && events[i - 1]!.at > at) i--;
    events.splice(i, 0, { at, run });
  };
  let now = 0;
  let serverFree = 0;
  let windowStart = -1;
  let used = 0;
  let wakeAt = Number.POSITIVE_INFINITY;
  const result: LinkResult = {
    ok: 0,
    throttled: 0,
    sent: 0,
    steadyRate: 0,
    latencyRatio: 0,
    sends: [],
    limits: [],
    controller,
    pacer,
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
    while (controller.canSend) {
      const wait = pace ? pacer.delay(now + 2e12) : 0;
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
      controller.acquire();
      const ticket = controller.sent();
      const paceTicket = pacer.sent(now + 2e12);
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
          pacer.answered(paceTicket, status, headers, now + 2e12);
          controller.sample({ ticket, outcome: status === 429 ? 'throttled' : 'ok', latencyMs });
          controller.release();
          result.limits.push(controller.limit);
          if (status === 429) result.throttled++;
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
        schedule(done + options.rttMs / 2, () => answer(200));
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
