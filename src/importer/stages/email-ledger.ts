// Which email each external_id of the file holds, row after row, in file order: a row that would
// give another external_id's email to its own contact is a conflict the service would answer with
// 409 (refusing a whole batch with it), so it is caught here, naming the line that holds the email.
// An email its holder gives up (a later row of the same external_id with another email, or none)
// is free again from that row on.
//
// Bounded, so that a file of millions of rows keeps its memory flat: past `maxEntries`
// external_ids, the one that took its email longest ago is forgotten with its email. A forgotten
// entry can only hide a conflict (the service then refuses that row itself), never invent one.

/**
 * External_ids (with their emails) remembered by default. Each is a few hundred bytes of strings
 * and map entries that stay live, and V8 lets the heap grow to a multiple of what is live (four
 * times, at an import's rate: bench/README.md has the measurement), so the bound is kept small; a
 * conflict further apart is the service's 409, isolated like any other.
 */
const DEFAULT_MAX_ENTRIES = 8192;

export type EmailClaim =
  /** The row may go; it must not overlap in flight with other rows on these lanes. */
  | { ok: true; emailLanes: string[] }
  /** Another external_id holds the email, since this line (of the record with this title, if any). */
  | { ok: false; heldByLine: number; heldByTitle?: string };

export interface EmailLedgerOptions {
  /** External_ids (with their emails) remembered at most. */
  maxEntries?: number;
}

export class EmailLedger {
  /** Lower-cased email -> the line of the row that took it. */
  readonly #emails = new Map<string, number>();
  /** Lower-cased email -> the title of the row that took it, for rows that have one (vCards). */
  readonly #titles = new Map<string, string>();
  /** External_id -> the lower-cased email it holds, oldest claim first. */
  readonly #keys = new Map<string, string>();
  readonly #max: number;
  /**
   * The external_ids oldest claim first, from where the last eviction stopped: a Map's iterator
   * keeps its place as entries come and go, where a new one would walk past every entry deleted
   * since the map last compacted, at each eviction.
   */
  #oldest = this.#keys.keys();
  #forgotten = 0;

  constructor(options: EmailLedgerOptions = {}) {
    this.#max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  /** Entries given up for room: conflicts that far apart are left to the service. */
  get forgotten(): number {
    return this.#forgotten;
  }

  /**
   * The lane of an email (lower-cased): rows that give it up or take it stay in file order. An
   * external_id's lane is the external_id itself, so one equal to an email shares its lane, which
   * only keeps those rows in file order too.
   */
  static emailLane(email: string): string {
    return email;
  }

  /**
   * A row of `key` that sets its email to `email` (undefined: leaves it as it is; null: clears
   * it): a conflict, or the email lanes it touches (the email it gives up and the one it takes).
   * A conflicting row changes nothing: the service would refuse it whole.
   */
  claim(key: string, email: string | null | undefined, line: number, title?: string): EmailClaim {
    if (email === undefined) return { ok: true, emailLanes: [] };
    const held = this.#keys.get(key);
    const lanes = held === undefined ? [] : [EmailLedger.emailLane(held)];
    if (email === null) {
      if (held !== undefined) this.#release(key, held);
      return { ok: true, emailLanes: lanes };
    }
    const wanted = email.toLowerCase();
    if (held === wanted) return { ok: true, emailLanes: lanes };
    const holder = this.#emails.get(wanted);
    if (holder !== undefined) {
      const heldByTitle = this.#titles.get(wanted);
      return heldByTitle === undefined
        ? { ok: false, heldByLine: holder }
        : { ok: false, heldByLine: holder, heldByTitle };
    }
    if (held !== undefined) this.#release(key, held);
    this.#take(key, wanted, line, title);
    lanes.push(EmailLedger.emailLane(wanted));
    return { ok: true, emailLanes: lanes };
  }

  /**
   * A row that landed in an earlier run (`--resume`): its contact holds its email whatever this
   * ledger thought, so it is recorded without a check.
   */
  hold(key: string, email: string | null | undefined, line: number, title?: string): void {
    if (email === undefined) return;
    const held = this.#keys.get(key);
    if (held !== undefined) this.#release(key, held);
    if (email === null) return;
    const wanted = email.toLowerCase();
    // Another external_id was thought to hold it: its claim is dropped rather than kept as a wrong
    // owner (that external_id may lose this email's entry again later: a conflict hidden, never one made up).
    this.#emails.delete(wanted);
    this.#titles.delete(wanted);
    this.#take(key, wanted, line, title);
  }

  #take(key: string, email: string, line: number, title: string | undefined): void {
    while (this.#keys.size >= this.#max) {
      let next = this.#oldest.next();
      if (next.done) {
        this.#oldest = this.#keys.keys();
        next = this.#oldest.next();
      }
      this.#release(next.value as string, this.#keys.get(next.value as string) as string);
      this.#forgotten++;
    }
    this.#keys.set(key, email);
    this.#emails.set(email, line);
    if (title !== undefined) this.#titles.set(email, title);
  }

  #release(key: string, email: string): void {
    this.#keys.delete(key);
    this.#emails.delete(email);
    this.#titles.delete(email);
  }
}
