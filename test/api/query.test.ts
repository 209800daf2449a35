// The contact list's query parameters, as the service reads them (text from the URL).
import { describe, expect, it } from 'vitest';
import { toIssues } from '../../src/api/envelope.js';
import { ListQuerySchema } from '../../src/api/query.js';

describe('ListQuerySchema', () => {
  it('reads page and per_page from text, with their defaults', () => {
    expect(ListQuerySchema.parse({ page: '3', per_page: '50' })).toEqual({ page: 3, per_page: 50 });
    expect(ListQuerySchema.parse({ page: '2' })).toEqual({ page: 2, per_page: 100 });
  });

  it('refuses what is not a whole number, naming the parameter', () => {
    for (const bad of ['1.5', '-1', 'ten', '', ' 2']) {
      const result = ListQuerySchema.safeParse({ page: bad });
      expect(result.success, bad).toBe(false);
      expect(toIssues(result.error!)[0]).toEqual({ field: 'page', message: 'Expected a whole number' });
    }
  });

  it('refuses page 0 and a per_page outside 10 to 1000', () => {
    expect(ListQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(ListQuerySchema.safeParse({ per_page: '9' }).success).toBe(false);
    expect(ListQuerySchema.safeParse({ per_page: '1001' }).success).toBe(false);
    expect(ListQuerySchema.parse({ per_page: '1000' }).per_page).toBe(1000);
  });
});
