// How many requests an import keeps in flight: up to the configured concurrency, halved when
// the service says "slow down" (429), grown back one step per window of successes (AIMD).

export class AdaptiveLimiter {
  readonly max: number;
  #limit: number;
  #active = 0;
  #successes = 0;
  #waiting: (() => void)[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${max}`);
    this.max = max;
    this.#limit = max;
  }

  get limit(): number {
    return this.#limit;
  }

  get active(): number {
    return this.#active;
  }

  /** Resolves when a slot is free; the caller must `release()` it. */
  acquire(): Promise<void> {
    if (this.#active < this.#limit) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    this.#active--;
    this.#wake();
  }

  /** A request went through: after `limit` of them in a row, allow one more in flight. */
  succeeded(): void {
    if (this.#limit >= this.max) return;
    if (++this.#successes >= this.#limit) {
      this.#successes = 0;
      this.#limit++;
      this.#wake();
    }
  }

  /** The service is rate limiting: halve what is in flight (never below one). */
  throttled(): void {
    this.#successes = 0;
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
  }

  #wake(): void {
    while (this.#active < this.#limit && this.#waiting.length > 0) {
      this.#active++;
      this.#waiting.shift()!();
    }
  }
}
