// How deep a parsed JSON value nests, checked without recursion.
import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from '../../src/api/json-depth.js';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? { k: value } : [value];
  return value;
};

describe('jsonDepthExceeds', () => {
  it('counts objects and arrays as levels, and scalars as none', () => {
    expect(jsonDepthExceeds('text', 0)).toBe(false);
    expect(jsonDepthExceeds(null, 0)).toBe(false);
    expect(jsonDepthExceeds({}, 0)).toBe(true);
    expect(jsonDepthExceeds({}, 1)).toBe(false);
    expect(jsonDepthExceeds(nested(3), 3)).toBe(false);
    expect(jsonDepthExceeds(nested(4), 3)).toBe(true);
  });

  it('finds the deep branch among shallow ones', () => {
    expect(jsonDepthExceeds({ a: 1, b: [1, 2], c: { d: { e: [] } } }, 3)).toBe(true);
    expect(jsonDepthExceeds({ a: 1, b: [1, 2], c: { d: { e: 1 } } }, 3)).toBe(false);
  });

  it('walks a value nested far past the call stack without overflowing it', () => {
    const deep = nested(200_000);
    expect(jsonDepthExceeds(deep, 64)).toBe(true);
    expect(jsonDepthExceeds(deep, 200_000)).toBe(false);
  });
});
