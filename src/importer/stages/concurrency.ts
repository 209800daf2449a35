// How many requests an import keeps in flight, found from the link itself, the way TCP finds a
// congestion window: start small, grow while answers come back near the latency floor, shrink when
// latency rises (a queue is building somewhere) and halve on 429 or back off on 5xx. A pure object
// fed one sample per answered attempt; no clock, no I/O, so it is tested on a simulated link.
//
// The shape follows Netflix's concurrency-limits: a slow start like TCP's (one more slot per good
// answer, so the limit doubles every round trip), then Gradient2's update,
// `limit * clamp(floor * tolerance / rtt, 0.5, 1) + sqrt(limit)`, smoothed, which holds the limit
// where the link is full but its queue short. As in Vegas and Gradient2, the limit does not grow
// while fewer than half its slots are used: a slow reader is not a fast link.

export type SampleOutcome =
  /** Answered (2xx, or a 4xx about the rows): the latency says how loaded the link is. */
  | 'ok'
  /** 429: the service asks for fewer requests. */
  | 'throttled'
  /** 5xx, a timeout or a dropped connection: the service or the path is struggling. */
  | 'overloaded';

export interface Sample {
  /** The ticket `sent()` gave when the attempt left. */
  ticket: number;
  outcome: SampleOutcome;
  latencyMs: number;
  /**
   * Whether the request was of the usual size (a full batch): only those say anything about the
   * latency floor, since a 20-row tail batch answers faster than a 1000-row one.
   */
  representative?: boolean;
}

export interface ControllerOptions {
  /** The cap (`--concurrency`). */
  max: number;
  /** Where to start; default 2 (at most `max`). */
  initial?: number;
  /** How far above the floor latency may rise before it counts as queueing. Default 1.5. */
  tolerance?: number;
  /** Share of each new estimate taken (Gradient2's smoothing). Default 0.2. */
  smoothing?: number;
}

export class ConcurrencyController {
  readonly max: number;
  readonly #tolerance: number;
  readonly #smoothing: number;
  #estimate: number;
  #slowStart = true;
  #inFlight = 0;
  #floorMs = Number.POSITIVE_INFINITY;
  #lastMs = 0;
  #nextTicket = 1;
  /** Signals about attempts sent before the last decrease do not decrease again (once a round). */
  #recoveryTicket = 0;
  /** In flight when each ticket left: was the limit used enough for its answer to justify growth? */
  #busyAtSend = new Map<number, number>();

  constructor(options: ControllerOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${options.max}`);
    }
    this.max = options.max;
    this.#estimate = Math.min(options.max, Math.max(1, options.initial ?? 2));
    this.#tolerance = options.tolerance ?? 1.5;
    this.#smoothing = options.smoothing ?? 0.2;
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return Math.max(1, Math.min(this.max, Math.floor(this.#estimate)));
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** The lowest latency of a usual request seen so far (undefined before the first). */
  get floorMs(): number | undefined {
    return Number.isFinite(this.#floorMs) ? this.#floorMs : undefined;
  }

  /** The latest usual request's latency over the floor: 1 means no queue at all. */
  get latencyRatio(): number | undefined {
    return Number.isFinite(this.#floorMs) && this.#lastMs > 0 ? this.#lastMs / this.#floorMs : undefined;
  }

  get canSend(): boolean {
    return this.#inFlight < this.limit;
  }

  /** A request takes a slot; `release()` gives it back when it is done (with all its retries). */
  acquire(): void {
    this.#inFlight++;
  }

  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** An attempt leaves now: the ticket to pass with its sample. */
  sent(): number {
    const ticket = this.#nextTicket++;
    this.#busyAtSend.set(ticket, this.#inFlight);
    return ticket;
  }

  /** What one attempt's answer (or failure) says about the link. */
  sample({ ticket, outcome, latencyMs, representative = true }: Sample): void {
    const busy = this.#busyAtSend.get(ticket) ?? this.#inFlight;
    this.#busyAtSend.delete(ticket);
    if (outcome !== 'ok') {
      if (ticket < this.#recoveryTicket) return;
      this.#slowStart = false;
      this.#estimate = Math.max(1, this.#estimate * (outcome === 'throttled' ? 0.5 : 0.7));
      this.#recoveryTicket = this.#nextTicket;
      return;
    }
    if (!representative || !(latencyMs > 0)) return;
    this.#lastMs = latencyMs;
    if (latencyMs < this.#floorMs) this.#floorMs = latencyMs;
    // Vegas and Gradient2 alike: no growth while the limit is not being used.
    const used = busy * 2 >= this.limit;
    const ratio = latencyMs / this.#floorMs;
    if (this.#slowStart) {
      if (ratio <= this.#tolerance) {
        if (used) this.#estimate = Math.min(this.max, this.#estimate + 1);
        return;
      }
      this.#slowStart = false;
    }
    const gradient = Math.max(0.5, Math.min(1, (this.#floorMs * this.#tolerance) / latencyMs));
    const target = this.#estimate * gradient + Math.sqrt(this.#estimate);
    if (target > this.#estimate && !used) return;
    const next = this.#estimate * (1 - this.#smoothing) + target * this.#smoothing;
    this.#estimate = Math.max(1, Math.min(this.max, next));
  }
}
