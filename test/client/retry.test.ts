import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  retryAfterMs,
  sleep,
} from '../../src/client/retry.js';

describe('retry policy', () => {
  it('retries 408, 429 and 5xx only', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 413, 415].some(isRetryableStatus)).toBe(false);
  });

  it('backs off exponentially with jitter in the upper quarter, capped', () => {
    const p = { ...DEFAULT_RETRY_POLICY, initialDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelayMs(p, 0, undefined, () => 0)).toBe(100);
    expect(backoffDelayMs(p, 2, undefined, () => 0)).toBe(400);
    expect(backoffDelayMs(p, 2, undefined, () => 0.999)).toBe(300);
    expect(backoffDelayMs(p, 10, undefined, () => 0)).toBe(1000);
  });

  it('honours Retry-After in seconds, as a date, and retry-after-ms, capped', () => {
    expect(retryAfterMs({ 'retry-after': '3' })).toBe(3000);
    expect(retryAfterMs({ 'retry-after-ms': '250' })).toBe(250);
    expect(retryAfterMs({ 'retry-after': new Date(10_000).toUTCString() }, 4_000)).toBe(6_000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(backoffDelayMs(DEFAULT_RETRY_POLICY, 0, { 'retry-after': '2' })).toBe(2000);
    expect(
      backoffDelayMs({ ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 5000 }, 0, { 'retry-after': '3600' }),
    ).toBe(5000);
  });

  it('sleep rejects at once when its signal aborts', async () => {
    const ctl = new AbortController();
    const pending = sleep(60_000, ctl.signal);
    ctl.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
