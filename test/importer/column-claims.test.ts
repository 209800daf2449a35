// The state a mapping is resolved in: the first claim of a target wins, overrides first.
import { describe, expect, it } from 'vitest';
import { ColumnClaims } from '../../src/importer/column-claims.js';
import { MappingError } from '../../src/importer/errors.js';

const email = { kind: 'field', field: 'email' } as const;
const name = { kind: 'field', field: 'name' } as const;

describe('ColumnClaims', () => {
  it('gives a target to the first column that claims it, and decides that column', () => {
    const claims = new ColumnClaims(3, []);
    claims.claim(0, name);
    claims.claim(1, name);
    expect(claims.columns).toEqual([[name], [], []]);
    expect([claims.isDecided(0), claims.isDecided(1)]).toEqual([true, false]);
    expect(claims.fills('name')).toBe(true);
  });

  it('lets several columns fill an ordered target, in the order they claim it', () => {
    const claims = new ColumnClaims(3, []);
    claims.claim(2, email);
    claims.claim(0, email);
    claims.claim(2, email);
    expect(claims.ordered.email).toEqual([2, 0]);
    expect(claims.fills('email')).toBe(true);
  });

  it("keeps an override's ordered list its own, refuses a target overridden twice, and ignores a column overridden to nothing", () => {
    const claims = new ColumnClaims(4, [
      { header: 'B', targets: [email] },
      { header: 'C', targets: [] },
    ]);
    claims.override(1, [email]);
    claims.override(2, []);
    claims.claim(0, email);
    expect(claims.ordered.email).toEqual([1]);
    expect(claims.overridden('email')).toBe(true);
    expect([claims.isDecided(2), claims.isIgnored(2)]).toEqual([true, true]);
    claims.override(3, [name]);
    expect(() => claims.override(0, [name])).toThrow(MappingError);
  });

  it('finds the column that fills external_id', () => {
    const claims = new ColumnClaims(2, []);
    expect(claims.keyColumn()).toBe(-1);
    claims.claim(1, { kind: 'field', field: 'external_id' });
    expect(claims.keyColumn()).toBe(1);
  });
});
