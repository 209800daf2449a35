// Which rows may be sent now. Each row names its lanes (its external_id, and the emails it gives
// up or takes); rows that share a lane go one after another in file order, never in one request
// and never in flight together; rows that share none go in any order, in batches. A pure queue:
// the sender pushes rows as they are planned, takes batches of ready ones, and says when each is
// done (landed or rejected), which may make the next row on its lanes ready.

export interface Laned {
  /** Lane ids: one for the external_id, one for each email it gives up or takes. */
  readonly lanes: readonly string[];
  /** Bytes the row adds to a request body. */
  readonly bytes: number;
}

export class LaneQueue<T extends Laned> {
  /**
   * Per lane, the rows on it in file order: the first is in flight or ready, the rest wait. A lane
   * of one row (almost every lane) holds the row itself, not an array of it.
   */
  #lanes = new Map<string, T | T[]>();
  #ready: T[] = [];
  #readyHead = 0;
  #readyBytes = 0;
  #waiting = 0;
  #taken = 0;

  /** Rows that may be taken now. */
  get ready(): number {
    return this.#ready.length - this.#readyHead;
  }

  get readyBytes(): number {
    return this.#readyBytes;
  }

  /** Rows waiting for an earlier row on one of their lanes. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Rows taken and not yet done. */
  get taken(): number {
    return this.#taken;
  }

  push(row: T): void {
    let first = true;
    for (const lane of row.lanes) {
      const held = this.#lanes.get(lane);
      if (held === undefined) this.#lanes.set(lane, row);
      else if (Array.isArray(held)) {
        if (held.at(-1) !== row) held.push(row);
        if (held[0] !== row) first = false;
      } else if (held !== row) {
        this.#lanes.set(lane, [held, row]);
        first = false;
      }
    }
    if (first) this.#makeReady(row);
    else this.#waiting++;
  }

  /**
   * Up to `maxRows` ready rows in the order they became ready, stopping before `maxBytes` would be
   * passed (one row at least, whatever its size).
   */
  take(maxRows: number, maxBytes: number): T[] {
    const out: T[] = [];
    let bytes = 0;
    while (out.length < maxRows && this.#readyHead < this.#ready.length) {
      const row = this.#ready[this.#readyHead]!;
      if (out.length > 0 && bytes + row.bytes > maxBytes) break;
      this.#ready[this.#readyHead++] = undefined as unknown as T;
      bytes += row.bytes;
      out.push(row);
    }
    this.#readyBytes -= bytes;
    this.#taken += out.length;
    if (this.#readyHead > 1024 && this.#readyHead * 2 > this.#ready.length) {
      this.#ready = this.#ready.slice(this.#readyHead);
      this.#readyHead = 0;
    }
    return out;
  }

  /** A taken row has its outcome: the rows behind it on its lanes move up. */
  done(row: T): void {
    this.#taken--;
    for (const lane of row.lanes) {
      const held = this.#lanes.get(lane);
      if (held === row) {
        this.#lanes.delete(lane);
        continue;
      }
      if (!Array.isArray(held) || held[0] !== row) continue;
      held.shift();
      const next = held[0]!;
      if (held.length === 1) this.#lanes.set(lane, next);
      if (next.lanes.every((l) => this.#head(l) === next)) {
        this.#waiting--;
        this.#makeReady(next);
      }
    }
  }

  /** Drops every row not taken (an import stopped by Ctrl-C); returns how many. */
  clear(): number {
    const dropped = this.ready + this.#waiting;
    const notSent = new Set(this.#ready.slice(this.#readyHead));
    this.#ready = [];
    this.#readyHead = 0;
    this.#readyBytes = 0;
    this.#waiting = 0;
    for (const [lane, held] of this.#lanes) {
      // A taken row stays at the head of its lanes until it is done; the rest go.
      const head = Array.isArray(held) ? held[0]! : held;
      if (notSent.has(head)) this.#lanes.delete(lane);
      else if (held !== head) this.#lanes.set(lane, head);
    }
    return dropped;
  }

  /** The row at the head of a lane. */
  #head(lane: string): T | undefined {
    const held = this.#lanes.get(lane);
    return Array.isArray(held) ? held[0] : held;
  }

  #makeReady(row: T): void {
    this.#ready.push(row);
    this.#readyBytes += row.bytes;
  }
}
