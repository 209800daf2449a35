// When the next request may leave, so that an import keeps to the service's rate limit instead
// of learning it from 429s. A pure object: every call is given the time.
//
// - The service says its limit (`X-RateLimit-Limit/Remaining/Reset`, or the IETF draft's
//   `RateLimit-*`): the requests left in the window are spread evenly over the time left in it,
//   counting the ones already sent that the service may not have counted yet.
// - It says nothing, but answers 429: a client-side token bucket whose rate is cut to 0.7 of the
//   rate measured when throttled and grows back along a cubic curve, as the AWS SDKs' adaptive
//   retry mode does (CUBIC's shape: quick to return near the last good rate, careful past it).
// - `Retry-After` on a 429 holds every request until it has passed (a 503's is the client's
//   business: it retries that one request after the wait).
import type { Headers } from '../../client/errors.js';
import { retryAfterMs } from '../../client/retry.js';

/** The AWS SDKs' constants: how far a throttle cuts the rate, and how fast it grows back. */
const BETA = 0.7;
const SCALE = 0.4;
const MIN_RATE = 0.5;
/** A Reset value below this is seconds from now (IETF draft); above, a Unix time (GitHub's form). */
const EPOCH_SECONDS = 1e9;

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

/** A longer `Retry-After` is taken as this (as the client caps it): a bad header must not stall an import. */
const MAX_HOLD_MS = 60_000;
/** How often to look again while the answer that opens a new window is awaited. */
const PROBE_POLL_MS = 50;

export class RatePacer {
  #nextTicket = 1;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #holdUntil = 0;
  #throttles = 0;

  // The service's window, as its answers describe it.
  #window: RateLimitInfo | undefined;
  /** The ticket whose answer set `#window.remaining`: requests sent after it come off it. */
  #knownTicket = 0;
  /**
   * After a window ends, one request goes alone and its answer says how the new window stands
   * (its length may differ from what the last one had left): `wanted` until it leaves, then its ticket.
   */
  #probe: 'none' | 'wanted' | number = 'none';

  // The adaptive bucket, once throttled by a service that sends no rate-limit headers.
  #rate: number | undefined;
  #tokens = 0;
  #refilledAt = 0;
  #lastMaxRate = 0;
  #throttledAt = 0;
  #measuredRate = 0;
  #bucketStart = 0;
  #bucketCount = 0;

  /** 429s seen. */
  get throttles(): number {
    return this.#throttles;
  }

  /** What the service last said of its limit. */
  get window(): Readonly<RateLimitInfo> | undefined {
    return this.#window;
  }

  /** The adaptive rate (requests a second) once throttled without headers. */
  get adaptiveRate(): number | undefined {
    return this.#rate;
  }

  /** Milliseconds until the next request may leave (0: now). */
  delay(now: number): number {
    let wait = Math.max(0, this.#holdUntil - now);
    const window = this.#window;
    if (window) {
      if (now >= window.resetAt && this.#probe === 'none') this.#probe = 'wanted';
      if (this.#probe !== 'none') {
        if (this.#probe !== 'wanted') wait = Math.max(wait, PROBE_POLL_MS);
      } else {
        const budget = window.remaining - (this.#nextTicket - 1 - this.#knownTicket);
        if (budget <= 0) wait = Math.max(wait, window.resetAt - now);
        else {
          // What is left of the budget, spread over what is left of the window: no burst.
          const gap = (window.resetAt - now) / budget;
          wait = Math.max(wait, this.#lastSentAt + gap - now);
        }
      }
    } else if (this.#rate !== undefined) {
      this.#refill(now);
      if (this.#tokens < 1) wait = Math.max(wait, ((1 - this.#tokens) / this.#rate) * 1000);
    }
    return Math.max(0, Math.ceil(wait));
  }

  /** A request leaves now: the ticket to pass with its answer. */
  sent(now: number): number {
    const ticket = this.#nextTicket++;
    this.#lastSentAt = now;
    if (this.#probe === 'wanted') this.#probe = ticket;
    this.#measure(now);
    if (this.#rate !== undefined) {
      this.#refill(now);
      this.#tokens -= 1;
    }
    return ticket;
  }

  /** The answer to a request (status 0: none came), with its headers. */
  answered(ticket: number, status: number, headers: Headers, now: number): void {
    const info = readRateLimit(headers, now);
    if (info !== undefined) this.#learn(ticket, info);
    // A probe whose answer did not open a new window (none said, or still the old one: the
    // service's clock behind ours) is wanted again; left waiting, it would hold every request.
    if (ticket === this.#probe) {
      this.#probe = 'wanted';
      // Not at once: the service's window has not rolled over yet, and may have nothing left.
      const wait = info?.remaining === 0 ? 4 * PROBE_POLL_MS : PROBE_POLL_MS;
      this.#holdUntil = Math.max(this.#holdUntil, now + wait);
    }
    if (status === 429) {
      this.#throttles++;
      // Every request waits, not only the refused one: they all count against the same limit.
      const asked = retryAfterMs(headers, now);
      if (asked !== undefined)
        this.#holdUntil = Math.max(this.#holdUntil, now + Math.min(asked, MAX_HOLD_MS));
      if (this.#window) {
        // The service counted more than its headers let us see: nothing more this window.
        if (!info) this.#window.remaining = 0;
        this.#knownTicket = Math.max(this.#knownTicket, ticket);
      } else this.#throttle(now);
    } else if (status > 0 && status < 500 && this.#rate !== undefined) {
      this.#grow(now);
    }
  }

  /** Takes what an answer says of the window; true when it was news. */
  #learn(ticket: number, info: RateLimitInfo): boolean {
    const current = this.#window;
    this.#rate = undefined;
    if (!current || info.resetAt > current.resetAt + 500) {
      this.#window = { ...info };
      this.#knownTicket = ticket;
      this.#probe = 'none';
      return true;
    }
    // About the same window, from a later request: it knows more of what was counted.
    if (ticket > this.#knownTicket && info.resetAt >= current.resetAt - 500) {
      current.remaining = info.remaining;
      current.limit = info.limit;
      this.#knownTicket = ticket;
      return true;
    }
    return false;
  }

  #measure(now: number): void {
    // Requests a second over half-second buckets, smoothed: the rate a throttle cuts from.
    const bucket = Math.floor(now / 500) * 500;
    this.#bucketCount++;
    if (bucket > this.#bucketStart) {
      const rate = (this.#bucketCount * 1000) / Math.max(500, bucket - this.#bucketStart);
      this.#measuredRate = this.#bucketStart === 0 ? rate : rate * 0.8 + this.#measuredRate * 0.2;
      this.#bucketCount = 0;
      this.#bucketStart = bucket;
    }
  }

  #refill(now: number): void {
    if (this.#rate === undefined) return;
    const capacity = Math.max(1, this.#rate);
    this.#tokens = Math.min(capacity, this.#tokens + ((now - this.#refilledAt) / 1000) * this.#rate);
    this.#refilledAt = now;
  }

  #throttle(now: number): void {
    const measured = Math.max(MIN_RATE, this.#measuredRate);
    const base = this.#rate === undefined ? measured : Math.min(measured, this.#rate);
    this.#refill(now);
    this.#lastMaxRate = base;
    this.#throttledAt = now;
    this.#rate = Math.max(MIN_RATE, base * BETA);
    this.#tokens = Math.min(this.#tokens, 0);
    this.#refilledAt = now;
  }

  #grow(now: number): void {
    const k = Math.cbrt((this.#lastMaxRate * (1 - BETA)) / SCALE);
    const t = (now - this.#throttledAt) / 1000;
    const cubic = SCALE * (t - k) ** 3 + this.#lastMaxRate;
    this.#refill(now);
    this.#rate = Math.max(MIN_RATE, Math.min(cubic, 2 * Math.max(this.#measuredRate, MIN_RATE)));
  }
}
