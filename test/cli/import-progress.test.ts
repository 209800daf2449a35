import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/cli/commands/import.js';

const event = (
  over: Partial<Record<'created' | 'updated' | 'rejected' | 'skipped', number>>,
  total?: number,
) => ({
  type: 'progress' as const,
  total,
  concurrency: 8,
  stats: { read: 0, created: 0, updated: 0, rejected: 0, skipped: 0, startedAt: 1_000, ...over },
});

describe('import progress line', () => {
  it('shows rows done of the total, the rate and the rejects', () => {
    expect(progressLine(event({ created: 300, updated: 150, rejected: 50 }, 2000), false, 3_000)).toBe(
      '500 of 2000 (25%) rows done, 250 rows/s, 50 rejected',
    );
  });

  it('counts rows an earlier run landed as done, but not in the rate', () => {
    expect(progressLine(event({ created: 100, skipped: 900 }, 1000), false, 2_000)).toBe(
      '1000 of 1000 (100%) rows done, 100 rows/s, 0 rejected',
    );
  });

  it('has no total for stdin, and says "checked" in a dry run', () => {
    expect(progressLine(event({ updated: 10 }), true, 2_000)).toBe('10 rows checked, 10 rows/s, 0 rejected');
  });
});
