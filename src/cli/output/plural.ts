// A count with its noun, for every message that prints one: `1 contact`, `2 contacts`.

/** `n noun`, with `nouns` (default: noun + s) unless n is 1. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

/** `1000` -> `1,000`: a count as help and messages print it (without loading the locale's data). */
export function withCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
