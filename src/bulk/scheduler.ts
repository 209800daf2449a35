// The one scheduler of the bulk commands (import, delete --from): how many requests may be in
// flight, and when the next may leave. A pure object fed one sample per attempt (its status and
// headers, with the time); no clock and no I/O, so it is tested on a simulated link.
//
// - In flight: AIMD with a slow start, as TCP does it (and Netflix's concurrency-limits). From 2,
//   one more for each good answer (doubling each round trip) until the service first asks for
//   less: a 429, a 502, 503 or 504, or no answer at all (a service or path under strain). Each of
//   those halves the limit, once per round of requests; then each `limit` good answers in a row
//   add one back. Up to `max`, and growing only while the limit is in use.
// - Pace: a service that states its limit (`X-RateLimit-Limit/Remaining/Reset`, or the IETF
//   draft's `RateLimit-*`) has the requests left in its window spread evenly over the time left
//   in it, counting those sent that it may not have counted yet. The first request goes alone,
//   and so does the first once a window is over: its answer says how the window stands.
// - `Retry-After` on a 429 holds every request until it has passed, since they all count against
//   the same limit (a 503's is the client's business: it retries that one request after the wait).
import type { Headers } from '../client/errors.js';
import { retryAfterMs } from '../client/retry.js';

/** A Reset value below this is seconds from now (IETF draft); above, a Unix time (GitHub's form). */
const EPOCH_SECONDS = 1e9;
/** A longer `Retry-After` is taken as this (as the client caps it): a bad header must not stall a run. */
const MAX_HOLD_MS = 60_000;
/** How often to look again while the answer that opens a new window is awaited. */
const PROBE_POLL_MS = 50;

export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** Local time (ms) when the window ends. */
  resetAt: number;
}

/** The rate-limit headers of an answer, if it has them. */
export function readRateLimit(headers: Headers, now: number): RateLimitInfo | undefined {
  const pick = (name: string) => {
    const raw = headers[`x-ratelimit-${name}`] ?? headers[`ratelimit-${name}`];
    const value = Number(Array.isArray(raw) ? raw[0] : raw);
    return raw === undefined || !Number.isFinite(value) ? undefined : value;
  };
  const limit = pick('limit');
  const remaining = pick('remaining');
  const reset = pick('reset');
  if (limit === undefined || remaining === undefined || reset === undefined || limit < 1) return undefined;
  const resetAt = reset > EPOCH_SECONDS ? reset * 1000 : now + reset * 1000;
  return { limit, remaining: Math.max(0, Math.min(limit, remaining)), resetAt };
}

/** Whether an answer asks for less load: a 429, a gateway's 502/503/504, or none at all (0). */
function asksForLess(status: number): boolean {
  return status === 429 || status === 0 || status === 502 || status === 503 || status === 504;
}

export interface SchedulerOptions {
  /** Requests in flight at most (`--concurrency`). */
  max: number;
}

export class Scheduler {
  readonly max: number;
  #limit: number;
  #slowStart = true;
  #inFlight = 0;
  /** Answers in a row that asked for nothing less, toward the next step up. */
  #good = 0;
  #throttles = 0;
  #nextTicket = 1;
  /** Answers to attempts sent before the last cut do not cut again: once a round. */
  #recoveryTicket = 0;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #holdUntil = 0;
  /** The service's window, as its answers describe it. */
  #window: RateLimitInfo | undefined;
  /** The ticket whose answer set `#window.remaining`: attempts sent after it come off it. */
  #knownTicket = 0;
  /** The request that goes alone (the first, the first of a window): `wanted` until it leaves, then its ticket. */
  #probe: 'none' | 'wanted' | number = 'wanted';

  constructor(options: SchedulerOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${options.max}`);
    }
    this.max = options.max;
    this.#limit = Math.min(options.max, 2);
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return this.#limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** 429s seen. */
  get throttles(): number {
    return this.#throttles;
  }

  /** What the service last said of its limit. */
  get window(): Readonly<RateLimitInfo> | undefined {
    return this.#window;
  }

  /** Whether another request may take a slot now. */
  get canStart(): boolean {
    return this.#inFlight < this.#limit;
  }

  /** A request takes a slot; `release()` gives it back when it is done (with all its retries). */
  acquire(): void {
    this.#inFlight++;
  }

  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** Milliseconds until the next attempt may leave (0: now). */
  delay(now: number): number {
    let wait = Math.max(0, this.#holdUntil - now);
    const window = this.#window;
    if (window && now >= window.resetAt && this.#probe === 'none') this.#probe = 'wanted';
    if (this.#probe !== 'none') {
      if (this.#probe !== 'wanted') wait = Math.max(wait, PROBE_POLL_MS);
    } else if (window) {
      const budget = window.remaining - (this.#nextTicket - 1 - this.#knownTicket);
      if (budget <= 0) wait = Math.max(wait, window.resetAt - now);
      // What is left of the budget, spread over what is left of the window: no burst.
      else wait = Math.max(wait, this.#lastSentAt + (window.resetAt - now) / budget - now);
    }
    return Math.max(0, Math.ceil(wait));
  }

  /** An attempt leaves now: the ticket to pass with its answer. */
  sent(now: number): number {
    const ticket = this.#nextTicket++;
    this.#lastSentAt = now;
    if (this.#probe === 'wanted') this.#probe = ticket;
    return ticket;
  }

  /** The answer to an attempt (status 0: none came), with its headers. */
  answered(ticket: number, status: number, headers: Headers, now: number): void {
    const info = readRateLimit(headers, now);
    if (info !== undefined) this.#learn(ticket, info);
    if (ticket === this.#probe) {
      if (!this.#window) {
        // The first answer states no limit: there is no window to learn.
        this.#probe = 'none';
      } else {
        // A probe whose answer did not open a new window (none said, or still the old one: the
        // service's clock behind ours) is wanted again; left waiting, it would hold every request.
        // Not at once: the service's window has not rolled over yet, and may have nothing left.
        this.#probe = 'wanted';
        const wait = info?.remaining === 0 ? 4 * PROBE_POLL_MS : PROBE_POLL_MS;
        this.#holdUntil = Math.max(this.#holdUntil, now + wait);
      }
    }
    if (status === 429) {
      this.#throttles++;
      const asked = retryAfterMs(headers, now);
      if (asked !== undefined)
        this.#holdUntil = Math.max(this.#holdUntil, now + Math.min(asked, MAX_HOLD_MS));
      if (this.#window) {
        // The service counted more than its headers let us see: nothing more this window.
        if (!info) this.#window.remaining = 0;
        this.#knownTicket = Math.max(this.#knownTicket, ticket);
      }
    }
    if (asksForLess(status)) {
      this.#good = 0;
      if (ticket < this.#recoveryTicket) return;
      this.#slowStart = false;
      this.#limit = Math.max(1, Math.floor(this.#limit / 2));
      this.#recoveryTicket = this.#nextTicket;
      return;
    }
    // No growth while the limit is not in use: a slow reader is not a fast link.
    if (this.#limit >= this.max || this.#inFlight < this.#limit) return;
    if (this.#slowStart) this.#limit++;
    else if (++this.#good >= this.#limit) {
      this.#good = 0;
      this.#limit++;
    }
  }

  /** Takes what an answer says of the window. */
  #learn(ticket: number, info: RateLimitInfo): void {
    const current = this.#window;
    if (!current || info.resetAt > current.resetAt + 500) {
      this.#window = { ...info };
      this.#knownTicket = ticket;
      this.#probe = 'none';
    } else if (ticket > this.#knownTicket && info.resetAt >= current.resetAt - 500) {
      // About the same window, from a later request: it knows more of what was counted.
      current.remaining = info.remaining;
      current.limit = info.limit;
      this.#knownTicket = ticket;
    }
  }
}
