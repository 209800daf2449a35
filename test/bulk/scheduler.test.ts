// The bulk commands' scheduler, on a simulated link (virtual time) and on its own: it keeps to a
// rate limit its headers state (the mock's 10 a second, production's 100 per 10 s), honours
// Retry-After, halves what it keeps in flight when the service asks for less, and grows back.
import { describe, expect, it } from 'vitest';
import { readRateLimit, Scheduler } from '../../src/bulk/scheduler.js';
import { simulate } from './simulated-link.js';

const T0 = 1_700_000_000_000;

describe('the scheduler on a simulated link', () => {
  it('keeps `max` requests in flight on a link without limits', () => {
    const run = simulate({ rttMs: 100, serviceMs: 0, max: 8, durationMs: 20_000 });
    expect(run.scheduler.limit).toBe(8);
    // 8 in flight over 100 ms: 80 requests a second.
    expect(run.steadyRate).toBeGreaterThan(0.95 * 80);
  });

  it('keeps to a limit its headers state: 10 a second (the mock), almost no 429', () => {
    const run = simulate({
      rttMs: 80,
      serviceMs: 5,
      rateLimit: { limit: 10, windowMs: 1000, headers: true },
      durationMs: 60_000,
    });
    expect(run.steadyRate).toBeGreaterThan(0.9 * 10);
    expect(run.steadyRate).toBeLessThanOrEqual(10.01);
    expect(run.throttled / run.sent).toBeLessThan(0.02);
  });

  for (const rttMs of [50, 300]) {
    it(`keeps to production's 100 requests per 10 s at ${rttMs} ms, spread rather than in bursts`, () => {
      const run = simulate({
        rttMs,
        serviceMs: 5,
        rateLimit: { limit: 100, windowMs: 10_000, headers: true },
        durationMs: 120_000,
      });
      expect(run.steadyRate).toBeGreaterThan(0.9 * 10);
      expect(run.throttled).toBeLessThanOrEqual(2);
      // No second of a steady window carries much more than its share.
      const perSecond = new Map<number, number>();
      for (const t of run.sends.filter((s) => s >= 30_000)) {
        const second = Math.floor(t / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      }
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(15);
    });
  }

  it('without rate-limit headers, keeps going on Retry-After and halving, 429s a minority', () => {
    // Neither production nor the mock leaves its limit unsaid: this is the fallback, which learns
    // the limit only from the 429s at the end of each window (about a quarter of the requests).
    const run = simulate({
      rttMs: 80,
      serviceMs: 5,
      rateLimit: { limit: 20, windowMs: 1000, headers: false },
      durationMs: 120_000,
    });
    expect(run.steadyRate).toBeGreaterThan(0.6 * 20);
    expect(run.throttled / run.sent).toBeLessThan(0.35);
  });

  it('halves on 503s and grows back between them', () => {
    const run = simulate({ rttMs: 100, serviceMs: 0, max: 16, durationMs: 60_000, unavailableEvery: 200 });
    expect(run.unavailable).toBeGreaterThan(0);
    expect(Math.min(...run.limits)).toBeLessThanOrEqual(8);
    expect(run.scheduler.limit).toBeGreaterThan(8);
  });
});

describe('the scheduler', () => {
  /** A scheduler with every slot taken, grown to `max` by its slow start. */
  const filled = (max: number) => {
    const s = new Scheduler({ max });
    for (let i = 0; i < max; i++) s.acquire();
    while (s.limit < max) s.answered(s.sent(T0), 200, {}, T0);
    return s;
  };

  it('starts at 2 and grows by one a good answer until the service first asks for less', () => {
    const s = new Scheduler({ max: 64 });
    expect(s.limit).toBe(2);
    for (let i = 0; i < 64; i++) s.acquire();
    for (let i = 0; i < 10; i++) s.answered(s.sent(T0), 200, {}, T0);
    expect(s.limit).toBe(12);
    s.answered(s.sent(T0), 429, {}, T0);
    expect(s.limit).toBe(6);
    // From here on, one more for each `limit` good answers.
    for (let i = 0; i < 5; i++) s.answered(s.sent(T0), 200, {}, T0);
    expect(s.limit).toBe(6);
    s.answered(s.sent(T0), 200, {}, T0);
    expect(s.limit).toBe(7);
  });

  it('halves on a 429, a 502-504 or no answer, once per round of requests', () => {
    const s = filled(16);
    const tickets = Array.from({ length: 8 }, () => s.sent(T0));
    s.answered(tickets[0]!, 429, {}, T0);
    expect(s.limit).toBe(8);
    // Answers to attempts sent before the cut say nothing new.
    s.answered(tickets[1]!, 503, {}, T0);
    expect(s.limit).toBe(8);
    s.answered(s.sent(T0), 503, {}, T0);
    expect(s.limit).toBe(4);
    s.answered(s.sent(T0), 0, {}, T0);
    expect(s.limit).toBe(2);
    // A 500 is a fault of the service's own, not a sign of load.
    s.answered(s.sent(T0), 500, {}, T0);
    expect(s.limit).toBe(2);
    expect(s.throttles).toBe(1);
  });

  it('grows by one after `limit` answers in a row while its slots are in use', () => {
    const s = filled(8);
    s.answered(s.sent(T0), 429, {}, T0);
    expect(s.limit).toBe(4);
    for (let i = 0; i < 3; i++) s.answered(s.sent(T0), 200, {}, T0);
    expect(s.limit).toBe(4);
    s.answered(s.sent(T0), 200, {}, T0);
    expect(s.limit).toBe(5);
  });

  it('does not grow while its slots are not in use (a slow reader is not a fast link)', () => {
    const s = new Scheduler({ max: 8 });
    s.acquire();
    for (let i = 0; i < 100; i++) s.answered(s.sent(T0), 200, {}, T0);
    expect(s.limit).toBe(2);
    expect(s.canStart).toBe(true);
  });

  it('honours Retry-After: nothing leaves before it has passed', () => {
    const s = new Scheduler({ max: 4 });
    s.answered(s.sent(T0), 429, { 'retry-after': '3' }, T0 + 50);
    expect(s.delay(T0 + 50)).toBe(3000);
    expect(s.delay(T0 + 2000)).toBe(1050);
    // And a 503's Retry-After is left to the client's retry of that one request.
    const other = new Scheduler({ max: 4 });
    other.answered(other.sent(T0), 503, { 'retry-after': '3' }, T0);
    expect(other.delay(T0)).toBe(0);
  });

  it('waits for the next window when the budget is spent, then probes it with one request', () => {
    const s = new Scheduler({ max: 4 });
    const reset = (T0 + 1000) / 1000;
    const limit = (remaining: number, resetS: number) => ({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetS),
    });
    s.answered(s.sent(T0), 200, limit(1, reset), T0 + 10);
    // One left for the rest of the window: spread, it leaves a window's share after the first.
    expect(s.delay(T0 + 10)).toBe(980);
    s.sent(T0 + 990);
    // None left: the next waits for the window to end.
    expect(s.delay(T0 + 995)).toBe(5);
    // The window is over: one request goes, and the rest wait for its answer.
    expect(s.delay(T0 + 1000)).toBe(0);
    const probe = s.sent(T0 + 1000);
    expect(s.delay(T0 + 1001)).toBeGreaterThan(0);
    s.answered(probe, 200, limit(1, reset + 1), T0 + 1050);
    // The new window's one remaining request, spread over what is left of it.
    expect(s.delay(T0 + 1050)).toBe(900);
  });

  it('is not held for good by a probe whose answer still describes the old window (a clock ahead of the service)', () => {
    const s = new Scheduler({ max: 4 });
    const limit = (remaining: number, resetMs: number) => ({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetMs / 1000),
    });
    s.answered(s.sent(T0), 200, limit(4, T0 + 1000), T0 + 10);
    // Our clock says the window is over; the service's does not yet.
    expect(s.delay(T0 + 1000)).toBe(0);
    const probe = s.sent(T0 + 1000);
    s.answered(probe, 200, limit(3, T0 + 1000), T0 + 1040);
    // Probed again shortly (not at once: the service's window has not rolled over yet).
    expect(s.delay(T0 + 1040)).toBe(50);
    expect(s.delay(T0 + 1090)).toBe(0);
    const next = s.sent(T0 + 1090);
    s.answered(next, 200, limit(4, T0 + 2000), T0 + 1150);
    // The new window, learned: its budget spread over it.
    expect(s.delay(T0 + 1150)).toBeLessThan(300);
    expect(s.window).toMatchObject({ remaining: 4, resetAt: T0 + 2000 });
  });

  it('reads the reset as a Unix time or as seconds from now', () => {
    expect(
      readRateLimit(
        { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1700000010' },
        T0,
      ),
    ).toEqual({ limit: 100, remaining: 7, resetAt: 1_700_000_010_000 });
    expect(
      readRateLimit({ 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '4' }, T0)
        ?.resetAt,
    ).toBe(T0 + 4000);
    expect(readRateLimit({ 'x-ratelimit-limit': '100' }, T0)).toBeUndefined();
  });
});
