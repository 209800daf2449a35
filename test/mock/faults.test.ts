// Fault injection: seeded failures that replay, the lost-response fault, latency, rate limiting.
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/api/index.js';
import { checkFaultOptions, createFaultInjector, type FaultKind } from '../../src/mock/faults.js';
import type { MockServer } from '../../src/mock/server.js';
import { heldSleep } from '../helpers/held-sleep.js';
import { AGENT, api, startTestMock } from '../helpers/mock.js';

/** A seed whose first failure, at fail rate 1, is `kind`. */
function seedFor(kind: FaultKind): number {
  for (let seed = 1; seed < 10_000; seed++) {
    if (createFaultInjector({ failRate: 1, seed }).nextFault() === kind) return seed;
  }
  throw new Error(`no seed gives ${kind}`);
}

/** What a client sees for each of `count` upserts, sent one after the other. */
async function outcomes(server: MockServer, count: number): Promise<(number | 'dropped')[]> {
  const client = api(server.url);
  const seen: (number | 'dropped')[] = [];
  for (let i = 0; i < count; i++) {
    try {
      seen.push((await client.post(paths.contacts(AGENT), { external_id: `u${i}` })).status);
    } catch {
      seen.push('dropped');
    }
  }
  return seen;
}

describe('createFaultInjector', () => {
  it('replays the same faults for the same seed, and others for another seed', () => {
    const draw = (seed: number) => {
      const f = createFaultInjector({ failRate: 0.5, seed });
      return Array.from({ length: 200 }, () => f.nextFault());
    };
    const a = draw(42);
    expect(draw(42)).toEqual(a);
    expect(draw(43)).not.toEqual(a);
    // Roughly the asked share fails, and every kind shows up.
    const failed = a.filter((k) => k !== null);
    expect(failed.length).toBeGreaterThan(60);
    expect(failed.length).toBeLessThan(140);
    expect(new Set(failed)).toEqual(new Set(['error-500', 'error-503', 'reset', 'lost']));
  });

  it('fails nothing at rate 0 and everything at rate 1; reset() replays from the seed', () => {
    const never = createFaultInjector({ failRate: 0, seed: 1 });
    expect(Array.from({ length: 50 }, () => never.nextFault()).every((k) => k === null)).toBe(true);
    const always = createFaultInjector({ failRate: 1, seed: 9 });
    const first = Array.from({ length: 20 }, () => always.nextFault());
    expect(first.every((k) => k !== null)).toBe(true);
    always.reset();
    expect(Array.from({ length: 20 }, () => always.nextFault())).toEqual(first);
  });

  it('rejects options out of range', () => {
    expect(() => checkFaultOptions({ failRate: 1.5 })).toThrow(RangeError);
    expect(() => checkFaultOptions({ latencyMs: -1 })).toThrow(/latencyMs/);
    expect(() => checkFaultOptions({ rateLimit: 0 })).toThrow(/rateLimit/);
    expect(() => checkFaultOptions({ seed: 1.5 })).toThrow(/seed/);
    expect(() => checkFaultOptions({ failRate: 0.2, latencyMs: 0, rateLimit: 5, seed: 7 })).not.toThrow();
  });
});

describe('failures over HTTP', () => {
  it('give the same sequence of outcomes for the same seed', async () => {
    const faults = { failRate: 0.4, seed: 1234 };
    const first = await outcomes(await startTestMock({ faults }), 40);
    const second = await outcomes(await startTestMock({ faults }), 40);
    expect(second).toEqual(first);
    expect(new Set(first)).toEqual(new Set([201, 500, 503, 'dropped']));
  });

  it('commits the write of a lost response, though the client sees a dropped connection', async () => {
    const server = await startTestMock({ faults: { failRate: 1, seed: seedFor('lost') } });
    await expect(api(server.url).post(paths.contacts(AGENT), { external_id: 'ghost' })).rejects.toThrow();
    expect(server.store.findContact(AGENT, 'ghost')).toBeDefined();
    expect(server.requests[0]).toMatchObject({ status: 0, fault: 'lost' });
  });

  it('writes nothing on a connection reset', async () => {
    const server = await startTestMock({ faults: { failRate: 1, seed: seedFor('reset') } });
    await expect(api(server.url).post(paths.contacts(AGENT), { external_id: 'never' })).rejects.toThrow();
    expect(server.store.findContact(AGENT, 'never')).toBeUndefined();
  });

  it('answers injected 500 and 503 with an error body (503 with Retry-After) and writes nothing', async () => {
    const s500 = await startTestMock({ faults: { failRate: 1, seed: seedFor('error-500') } });
    const r500 = await api(s500.url).post(paths.contacts(AGENT), { external_id: 'a' });
    expect(r500.status).toBe(500);
    expect(typeof r500.body.message).toBe('string');
    const s503 = await startTestMock({ faults: { failRate: 1, seed: seedFor('error-503') } });
    const r503 = await api(s503.url).post(paths.contacts(AGENT), { external_id: 'a' });
    expect(r503.status).toBe(503);
    expect(r503.headers.get('retry-after')).toBe('1');
    expect(s500.store.findContact(AGENT, 'a') ?? s503.store.findContact(AGENT, 'a')).toBeUndefined();
  });

  it('leaves /health out of faults', async () => {
    const server = await startTestMock({ faults: { failRate: 1, seed: 5, rateLimit: 1 } });
    const client = api(server.url, null);
    for (let i = 0; i < 5; i++) {
      const res = await client.get('/health');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('delays answers by latencyMs', async () => {
    const latency = heldSleep();
    const server = await startTestMock({ faults: { latencyMs: 60, sleep: latency.sleep } });
    let answered = false;
    const pending = api(server.url)
      .get(paths.contacts(AGENT))
      .finally(() => {
        answered = true;
      });
    // Held in the latency: neither answered nor handled (a request is logged once handled).
    expect(await latency.asked).toBe(60);
    expect(answered).toBe(false);
    expect(server.requests).toEqual([]);
    latency.release();
    expect((await pending).status).toBe(200);
    expect(server.requests).toMatchObject([{ method: 'GET', status: 200 }]);
  });

  it('closes promptly with a delayed request still pending', async () => {
    let arrived: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    // The rate limiter reads the clock as each request arrives: that tells the test it is held.
    const clock = () => {
      arrived();
      return Date.now();
    };
    const server = await startTestMock({ faults: { latencyMs: 60_000, rateLimit: 100, now: clock } });
    const pending = api(server.url).post(paths.contacts(AGENT), { external_id: 'late' });
    await held;
    await server.close();
    await expect(pending).rejects.toThrow();
    expect(server.store.findContact(AGENT, 'late')).toBeUndefined();
  });
});

describe('rate limiting', () => {
  it('allows N per one-second window with X-RateLimit-* headers, then 429 with Retry-After', async () => {
    let now = 1_700_000_000_250;
    const server = await startTestMock({ faults: { rateLimit: 3, now: () => now } });
    const client = api(server.url);
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await client.get(paths.contacts(AGENT));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-reset')).toBe('1700000001');
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await client.post(paths.contacts(AGENT), { external_id: 'over' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Rate limit exceeded' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(server.store.findContact(AGENT, 'over')).toBeUndefined();

    now += 1000;
    const next = await client.get(paths.contacts(AGENT));
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});
