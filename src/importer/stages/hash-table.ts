// A compact map from 64-bit hashes to a few 32-bit words, in one typed array (open addressing,
// linear probing, deletion by backward shift): some 12 to 16 bytes an entry where a Map of strings
// costs ten times that. The importer keeps one entry per email and external_id of a file in it.

/** Two 32-bit halves of a 64-bit hash of `text`, seeded: MurmurHash3's mixing over UTF-16 units. */
export function hash64(text: string, seed: number): [number, number] {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x85ebca6b ^ Math.imul(seed, 0xcc9e2d51);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0xcc9e2d51);
    a = (a << 15) | (a >>> 17);
    b = Math.imul(b ^ c, 0x1b873593);
    b = (b << 13) | (b >>> 19);
    b = Math.imul(b, 5) + 0xe6546b64;
  }
  a ^= text.length;
  b ^= a;
  return [fmix(a) >>> 0, fmix(b ^ Math.imul(a, 0x27d4eb2d)) >>> 0];
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The hash as one number below 2^53: a cheap Map key where a rare collision costs nothing. */
export function hashNumber([hi, lo]: readonly [number, number]): number {
  return hi * 2 ** 21 + (lo >>> 11);
}

export class HashTable64 {
  readonly #stride: number;
  #slots: Uint32Array;
  #mask: number;
  #size = 0;
  readonly #maxCapacity: number;

  /** `width` 32-bit words of payload an entry; the table never grows past `maxCapacity` slots. */
  constructor(width: number, maxCapacity = 1 << 22) {
    this.#stride = width + 2;
    this.#maxCapacity = maxCapacity;
    this.#slots = new Uint32Array(1024 * this.#stride);
    this.#mask = 1023;
  }

  get size(): number {
    return this.#size;
  }

  /** True when one more entry would load the table past 3/4 at its largest. */
  get full(): boolean {
    return this.#size + 1 > (this.#maxCapacity * 3) / 4;
  }

  /** The slot holding the hash, or -1. */
  find(hi: number, lo: number): number {
    const s = this.#slots;
    const [h, l] = key(hi, lo);
    for (let i = start(h, l, this.#mask); ; i = (i + 1) & this.#mask) {
      const at = i * this.#stride;
      const sh = s[at]!;
      const sl = s[at + 1]!;
      if (sh === 0 && sl === 0) return -1;
      if (sh === h && sl === l) return i;
    }
  }

  /** The slot for the hash, added when missing (the caller checks `full` first). */
  insert(hi: number, lo: number): number {
    if ((this.#size + 1) * 4 > (this.#mask + 1) * 3) this.#grow();
    const s = this.#slots;
    const [h, l] = key(hi, lo);
    for (let i = start(h, l, this.#mask); ; i = (i + 1) & this.#mask) {
      const at = i * this.#stride;
      if (s[at] === 0 && s[at + 1] === 0) {
        s[at] = h;
        s[at + 1] = l;
        this.#size++;
        return i;
      }
      if (s[at] === h && s[at + 1] === l) return i;
    }
  }

  get(slot: number, word: number): number {
    return this.#slots[slot * this.#stride + 2 + word]!;
  }

  set(slot: number, word: number, value: number): void {
    this.#slots[slot * this.#stride + 2 + word] = value;
  }

  /** The hash stored in a slot (as given to `insert`, but for the reserved zero). */
  hashAt(slot: number): [number, number] {
    const at = slot * this.#stride;
    return [this.#slots[at]!, this.#slots[at + 1]!];
  }

  /** Any occupied slot from `from` on (wrapping), or -1 when empty: to pick an entry to evict. */
  occupiedFrom(from: number): number {
    if (this.#size === 0) return -1;
    const s = this.#slots;
    for (let n = 0, i = from & this.#mask; n <= this.#mask; n++, i = (i + 1) & this.#mask) {
      const at = i * this.#stride;
      if (s[at] !== 0 || s[at + 1] !== 0) return i;
    }
    return -1;
  }

  /** Empties a slot, moving later entries of its run back so that every lookup still finds them. */
  remove(slot: number): void {
    const s = this.#slots;
    const stride = this.#stride;
    const mask = this.#mask;
    let hole = slot;
    for (let i = (slot + 1) & mask; ; i = (i + 1) & mask) {
      const at = i * stride;
      if (s[at] === 0 && s[at + 1] === 0) break;
      const home = start(s[at]!, s[at + 1]!, mask);
      // The entry may fill the hole unless its home lies cyclically in (hole, i].
      const between = hole <= i ? home > hole && home <= i : home > hole || home <= i;
      if (!between) {
        s.copyWithin(hole * stride, at, at + stride);
        hole = i;
      }
    }
    s.fill(0, hole * stride, hole * stride + stride);
    this.#size--;
  }

  #grow(): void {
    const capacity = (this.#mask + 1) * 2;
    if (capacity > this.#maxCapacity) return;
    const old = this.#slots;
    const stride = this.#stride;
    this.#slots = new Uint32Array(capacity * stride);
    this.#mask = capacity - 1;
    for (let at = 0; at < old.length; at += stride) {
      const h = old[at]!;
      const l = old[at + 1]!;
      if (h === 0 && l === 0) continue;
      let i = start(h, l, this.#mask);
      while (this.#slots[i * stride] !== 0 || this.#slots[i * stride + 1] !== 0) i = (i + 1) & this.#mask;
      this.#slots.set(old.subarray(at, at + stride), i * stride);
    }
  }
}

/** The all-zero hash marks an empty slot, so it is stored as another. */
function key(hi: number, lo: number): [number, number] {
  return hi === 0 && lo === 0 ? [0, 1] : [hi >>> 0, lo >>> 0];
}

function start(hi: number, lo: number, mask: number): number {
  return (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
}
