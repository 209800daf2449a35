// The request log kept as a ring of columns: what it gives back is what was recorded, oldest
// first, the last REQUEST_LOG_LIMIT of it, with faults and ignored fields, keys redacted.
import { describe, expect, it } from 'vitest';
import { REQUEST_LOG_LIMIT, RequestLog, type RequestLogEntry } from '../../src/mock/request-log.js';

const entry = (n: number, extra: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  method: n % 2 ? 'POST' : 'GET',
  path: `/api/v1/chatbots/a/contacts/${n % 3}`,
  status: [200, 201, 0, 429, 503][n % 5]!,
  durationMs: (n % 97) / 10,
  requestId: `req_${n}`,
  ...extra,
});

describe('the request log', () => {
  it('gives back the last REQUEST_LOG_LIMIT entries as recorded, oldest first, across many turns of the ring', () => {
    const seen: RequestLogEntry[] = [];
    const log = new RequestLog((e) => seen.push(e));
    const all: RequestLogEntry[] = [];
    for (let n = 0; n < 2 * REQUEST_LOG_LIMIT + 345; n++) {
      const extra =
        n % 7 === 0 ? { fault: 'lost' as const } : n % 11 === 0 ? { ignored: ['x', `y${n}`] } : {};
      const e = entry(n, extra);
      all.push({ ...e });
      log.record(e);
      if (n === 3) expect(log.entries).toEqual(all);
    }
    expect(seen).toEqual(all);
    const entries = log.entries;
    expect(entries).toHaveLength(REQUEST_LOG_LIMIT);
    expect(entries).toEqual(all.slice(-REQUEST_LOG_LIMIT));
    // The same keys in the same order as a recorded entry: the JSON of GET /__mock/requests.
    expect(JSON.stringify(entries)).toBe(JSON.stringify(all.slice(-REQUEST_LOG_LIMIT)));
  });

  it('keeps exactly REQUEST_LOG_LIMIT at the limit, empties on clear and starts over', () => {
    const log = new RequestLog();
    for (let n = 0; n < REQUEST_LOG_LIMIT; n++) log.record(entry(n));
    expect(log.entries).toHaveLength(REQUEST_LOG_LIMIT);
    expect(log.entries[0]!.requestId).toBe('req_0');
    log.clear();
    expect(log.entries).toEqual([]);
    log.record(entry(5, { ignored: [] }));
    expect(log.entries).toEqual([entry(5, { ignored: [] })]);
  });

  it('redacts a key in a path, in what it keeps and in what it tells', () => {
    const told: string[] = [];
    const log = new RequestLog((e) => told.push(e.path));
    log.record(entry(1, { path: '/api/v1/chatbots/bk_live_abcdefghijklmnop/contacts' }));
    expect(log.entries[0]!.path).not.toContain('abcdefghijklmnop');
    // What follows a key runs to the next space or quote: the rest of the path goes with it.
    expect(log.entries[0]!.path).toBe('/api/v1/chatbots/bk_...[REDACTED]');
    expect(told[0]).toBe(log.entries[0]!.path);
  });
});
