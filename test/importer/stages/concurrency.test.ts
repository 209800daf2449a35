// The concurrency controller and the rate pacer on a simulated link (virtual time): they find the
// link's capacity from small beginnings, back off on 429 and rising latency, keep to a rate limit
// they are told of, learn one they are not told of, and honour Retry-After.
import { describe, expect, it } from 'vitest';
import { ConcurrencyController } from '../../../src/importer/stages/concurrency.js';
import { RatePacer, readRateLimit } from '../../../src/importer/stages/pacer.js';
import { simulate } from './simulated-link.js';

describe('the concurrency controller on a simulated link', () => {
  it('starts small and grows to the cap while latency stays at its floor', () => {
    const run = simulate({ rttMs: 100, serviceMs: 0, max: 32, durationMs: 20_000 });
    expect(run.limits[0]).toBeLessThanOrEqual(3);
    expect(run.controller.limit).toBe(32);
    // 32 in flight over 100 ms: 320 requests a second.
    expect(run.steadyRate).toBeGreaterThan(0.9 * 320);
    expect(run.latencyRatio).toBeLessThan(1.1);
  });

  it('converges where the server is full, without a long queue (80 ms away, 25 ms a request)', () => {
    const run = simulate({ rttMs: 80, serviceMs: 25, max: 256, durationMs: 60_000 });
    // The server does 40 requests a second at most.
    expect(run.steadyRate).toBeGreaterThan(0.9 * 40);
    // Little's law: 40/s over about 105 ms needs about 4; far more only queues.
    expect(run.controller.limit).toBeLessThan(24);
    expect(run.latencyRatio).toBeLessThan(3);
  });

  it('keeps a loopback server busy with a handful in flight (0 ms away, 25 ms a request)', () => {
    const run = simulate({ rttMs: 0.2, serviceMs: 25, max: 256, durationMs: 30_000 });
    expect(run.steadyRate).toBeGreaterThan(0.95 * 40);
    expect(run.controller.limit).toBeLessThan(12);
  });

  it('halves on a 429, once per round trip', () => {
    const c = new ConcurrencyController({ max: 64, initial: 16 });
    const tickets = Array.from({ length: 8 }, () => c.sent());
    c.sample({ ticket: tickets[0]!, outcome: 'throttled', latencyMs: 10 });
    expect(c.limit).toBe(8);
    // Answers to requests sent before the cut say nothing new.
    c.sample({ ticket: tickets[1]!, outcome: 'throttled', latencyMs: 10 });
    expect(c.limit).toBe(8);
    c.sample({ ticket: c.sent(), outcome: 'throttled', latencyMs: 10 });
    expect(c.limit).toBe(4);
    c.sample({ ticket: c.sent(), outcome: 'overloaded', latencyMs: 10 });
    expect(c.limit).toBe(2);
  });

  it('shrinks when latency rises well above its floor', () => {
    const c = new ConcurrencyController({ max: 64, initial: 32 });
    const fill = () => {
      for (let i = 0; i < 32; i++) c.acquire();
    };
    fill();
    c.sample({ ticket: c.sent(), outcome: 'ok', latencyMs: 100 });
    for (let i = 0; i < 40; i++) c.sample({ ticket: c.sent(), outcome: 'ok', latencyMs: 400 });
    expect(c.limit).toBeLessThan(20);
  });

  it('does not grow while its slots are not used (a slow reader is not a fast link)', () => {
    const c = new ConcurrencyController({ max: 64, initial: 8 });
    for (let i = 0; i < 100; i++) {
      c.acquire();
      c.sample({ ticket: c.sent(), outcome: 'ok', latencyMs: 50 });
      c.release();
    }
    expect(c.limit).toBe(8);
  });

  it('ignores the latency of requests smaller than usual', () => {
    const c = new ConcurrencyController({ max: 64, initial: 4 });
    c.sample({ ticket: c.sent(), outcome: 'ok', latencyMs: 100 });
    c.sample({ ticket: c.sent(), outcome: 'ok', latencyMs: 5, representative: false });
    expect(c.floorMs).toBe(100);
  });
});

describe('the rate pacer', () => {
  it('keeps to a limit its headers state: 10 a second, almost no 429', () => {
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

  it("keeps to production's 100 requests per 10 s, spread rather than in bursts", () => {
    const run = simulate({
      rttMs: 150,
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

  it('learns a limit it is not told of from 429s, and stays near it', () => {
    const run = simulate({
      rttMs: 80,
      serviceMs: 5,
      rateLimit: { limit: 20, windowMs: 1000, headers: false },
      durationMs: 120_000,
    });
    expect(run.steadyRate).toBeGreaterThan(0.6 * 20);
    expect(run.throttled / run.sent).toBeLessThan(0.1);
  });

  it('honours Retry-After: nothing leaves before it has passed', () => {
    const pacer = new RatePacer();
    const t0 = 1_700_000_000_000;
    const ticket = pacer.sent(t0);
    pacer.answered(ticket, 429, { 'retry-after': '3' }, t0 + 50);
    expect(pacer.delay(t0 + 50)).toBe(3000);
    expect(pacer.delay(t0 + 2000)).toBe(1050);
    expect(pacer.throttles).toBe(1);
    // And a 503's Retry-After is left to the client's retry of that one request.
    const other = new RatePacer();
    other.answered(other.sent(t0), 503, { 'retry-after': '3' }, t0);
    expect(other.delay(t0)).toBe(0);
  });

  it('waits for the next window when the budget is spent, then probes it with one request', () => {
    const pacer = new RatePacer();
    const t0 = 1_700_000_000_000;
    const reset = (t0 + 1000) / 1000;
    const a = pacer.sent(t0);
    pacer.answered(
      a,
      200,
      { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(reset) },
      t0 + 10,
    );
    // One left for the rest of the window: spread, it leaves a window's share after the first.
    expect(pacer.delay(t0 + 10)).toBe(980);
    pacer.sent(t0 + 990);
    // None left: the next waits for the window to end.
    expect(pacer.delay(t0 + 995)).toBe(5);
    // The window is over: one request goes, and the rest wait for its answer.
    expect(pacer.delay(t0 + 1000)).toBe(0);
    const probe = pacer.sent(t0 + 1000);
    expect(pacer.delay(t0 + 1001)).toBeGreaterThan(0);
    pacer.answered(
      probe,
      200,
      { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(reset + 1) },
      t0 + 1050,
    );
    // The new window's one remaining request, spread over what is left of it.
    expect(pacer.delay(t0 + 1050)).toBe(900);
  });

  it('is not held for good by a probe whose answer still describes the old window (a clock ahead of the service)', () => {
    const pacer = new RatePacer();
    const t0 = 1_700_000_000_000;
    const headers = (remaining: number, resetMs: number) => ({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetMs / 1000),
    });
    pacer.answered(pacer.sent(t0), 200, headers(4, t0 + 1000), t0 + 10);
    // Our clock says the window is over; the service's does not yet.
    expect(pacer.delay(t0 + 1000)).toBe(0);
    const probe = pacer.sent(t0 + 1000);
    pacer.answered(probe, 200, headers(3, t0 + 1000), t0 + 1040);
    // Probed again shortly (not at once: the service's window has not rolled over yet).
    expect(pacer.delay(t0 + 1040)).toBe(50);
    expect(pacer.delay(t0 + 1090)).toBe(0);
    const next = pacer.sent(t0 + 1090);
    pacer.answered(next, 200, headers(4, t0 + 2000), t0 + 1150);
    // The new window, learned: its budget spread over it.
    expect(pacer.delay(t0 + 1150)).toBeLessThan(300);
    expect(pacer.window).toMatchObject({ remaining: 4, resetAt: t0 + 2000 });
  });

  it('reads the reset as a Unix time or as seconds from now', () => {
    const now = 1_700_000_000_000;
    expect(
      readRateLimit(
        { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1700000010' },
        now,
      ),
    ).toEqual({
      limit: 100,
      remaining: 7,
      resetAt: 1_700_000_010_000,
    });
    expect(
      readRateLimit({ 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '4' }, now)
        ?.resetAt,
    ).toBe(now + 4000);
    expect(readRateLimit({ 'x-ratelimit-limit': '100' }, now)).toBeUndefined();
  });
});
