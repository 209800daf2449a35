// A count with its noun, for every message that prints one: `1 contact`, `2 contacts`.

/** `n noun`, with `nouns` (default: noun + s) unless n is 1. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}
