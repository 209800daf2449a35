// Which email each external_id of the file holds, row after row, in file order: a row that would
// give another external_id's email to its own contact is a conflict the service would answer with
// 409 (refusing a whole batch with it), so it is caught here, naming the line that holds the email.
// An email its holder gives up (a later row of the same external_id with another email, or none)
// is free again from that row on.
//
// Bounded: entries are 64-bit hashes in compact tables (about 28 bytes a contact, 14 MiB at most
// by default: 393,216 contacts with an email), and past that entries give way, picked across the table. A forgotten entry can only hide a conflict (the
// service then refuses that row itself), never invent one: an external_id and the email it holds
// are always forgotten together.
import { HashTable64, hash64, hashNumber } from './hash-table.js';

const KEY_SEED = 0x6b657973;
const EMAIL_SEED = 0x656d6169;
/** 3/4 of 2^19 slots: a 6 MiB table of emails and an 8 MiB one of external_ids at most. */
const DEFAULT_MAX_ENTRIES = 393_216;

export type EmailClaim =
  /** The row may go; it must not overlap in flight with other rows on these lanes. */
  | { ok: true; emailLanes: number[] }
  /** Another external_id holds the email, since this line. */
  | { ok: false; heldByLine: number };

export interface EmailLedgerOptions {
  /** External_ids (with their emails) remembered at most. Default 393,216: 14 MiB of tables. */
  maxEntries?: number;
}

export class EmailLedger {
  /** email hash -> [line of the row that took it]. */
  readonly #emails: HashTable64;
  /** external_id hash -> [email hash hi, lo]. */
  readonly #keys: HashTable64;
  #evictFrom = 0;
  #forgotten = 0;

  constructor(options: EmailLedgerOptions = {}) {
    const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    // Tables hold up to 3/4 of their (power of two) capacity.
    let capacity = 1024;
    while ((capacity * 3) / 4 < max) capacity *= 2;
    this.#emails = new HashTable64(1, capacity);
    this.#keys = new HashTable64(2, capacity);
  }

  /** Entries given up for room: conflicts that far apart are left to the service. */
  get forgotten(): number {
    return this.#forgotten;
  }

  /** The lane of an email: rows that give it up or take it stay in file order. */
  static emailLane(email: string): number {
    return hashNumber(hash64(email.toLowerCase(), EMAIL_SEED));
  }

  /**
   * A row of `key` that sets its email to `email` (undefined: leaves it as it is; null: clears
   * it): a conflict, or the email lanes it touches (the email it gives up and the one it takes).
   * A conflicting row changes nothing: the service would refuse it whole.
   */
  claim(key: string, email: string | null | undefined, line: number): EmailClaim {
    if (email === undefined) return { ok: true, emailLanes: [] };
    const [kh, kl] = hash64(key, KEY_SEED);
    const keySlot = this.#keys.find(kh, kl);
    const held: [number, number] | undefined =
      keySlot < 0 ? undefined : [this.#keys.get(keySlot, 0), this.#keys.get(keySlot, 1)];
    const lanes: number[] = held ? [hashNumber(held)] : [];
    if (email === null) {
      if (held) this.#release(keySlot, held);
      return { ok: true, emailLanes: lanes };
    }
    const [eh, el] = hash64(email.toLowerCase(), EMAIL_SEED);
    if (held && held[0] === eh && held[1] === el) return { ok: true, emailLanes: lanes };
    const holder = this.#emails.find(eh, el);
    if (holder >= 0) return { ok: false, heldByLine: this.#emails.get(holder, 0) };
    if (held) this.#release(keySlot, held);
    this.#take(kh, kl, eh, el, line);
    lanes.push(hashNumber([eh, el]));
    return { ok: true, emailLanes: lanes };
  }

  /**
   * A row that landed in an earlier run (`--resume`): its contact holds its email whatever this
   * ledger thought, so it is recorded without a check.
   */
  hold(key: string, email: string | null | undefined, line: number): void {
    if (email === undefined) return;
    const [kh, kl] = hash64(key, KEY_SEED);
    const keySlot = this.#keys.find(kh, kl);
    if (keySlot >= 0) this.#release(keySlot, [this.#keys.get(keySlot, 0), this.#keys.get(keySlot, 1)]);
    if (email === null) return;
    const [eh, el] = hash64(email.toLowerCase(), EMAIL_SEED);
    const holder = this.#emails.find(eh, el);
    // Another external_id was thought to hold it: forget both rather than keep a wrong owner.
    if (holder >= 0) this.#emails.remove(holder);
    this.#take(kh, kl, eh, el, line);
  }

  #take(kh: number, kl: number, eh: number, el: number, line: number): void {
    while (this.#keys.full || this.#emails.full) this.#evict();
    const keySlot = this.#keys.insert(kh, kl);
    this.#keys.set(keySlot, 0, eh);
    this.#keys.set(keySlot, 1, el);
    this.#emails.set(this.#emails.insert(eh, el), 0, Math.min(line, 0xffffffff));
  }

  #release(keySlot: number, [eh, el]: [number, number]): void {
    this.#keys.remove(keySlot);
    const slot = this.#emails.find(eh, el);
    if (slot >= 0) this.#emails.remove(slot);
  }

  /**
   * Forgets one external_id and its email, from a slot spread over the table: a sweep in slot
   * order would empty one stretch and pack the rest, where linear probing then crawls.
   */
  #evict(): void {
    this.#evictFrom = (this.#evictFrom + 0x9e3779b1) >>> 0;
    const slot = this.#keys.occupiedFrom(this.#evictFrom);
    if (slot < 0) return;
    this.#release(slot, [this.#keys.get(slot, 0), this.#keys.get(slot, 1)]);
    this.#forgotten++;
  }
}
