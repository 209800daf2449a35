// The exit codes scripts depend on: each number keeps its meaning, and the README lists them.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';

describe('ExitCode', () => {
  it('keeps the numbers scripts depend on, each distinct', () => {
    expect(ExitCode).toEqual({
      OK: 0,
      FAILURE: 1,
      USAGE: 2,
      AUTH: 3,
      NOT_FOUND: 4,
      CONFLICT: 5,
      SERVICE: 6,
      NETWORK: 7,
      PARTIAL: 8,
      INTERRUPTED: 130,
    });
    expect(new Set(Object.values(ExitCode)).size).toBe(Object.keys(ExitCode).length);
  });

  it('are each documented', async () => {
    const docs = [
      await readFile(new URL('../../README.md', import.meta.url), 'utf8'),
      await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8').catch(() => ''),
    ].join('\n');
    for (const code of Object.values(ExitCode))
      expect(docs, String(code)).toMatch(new RegExp(`\\b${code}\\b`));
  });
});
