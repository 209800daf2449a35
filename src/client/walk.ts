// Whether a walk through every page of a list saw one list. Pages are offsets (page/per_page), so
// a contact deleted or added between two requests shifts the rest: one is skipped or comes twice.
// Every "read all pages" path checks its walk here, and reads again from the first page with
// `walkUntilConsistent`, so none reports a short list as the whole.
import { BadRequestError, ContactsError, InconsistentListError } from './errors.js';

/** Walks from the first page made by `walkUntilConsistent` before it gives up, by default. */
export const WALK_ATTEMPTS = 3;

/** What the check needs of a page. */
export interface WalkedPage {
  page: number;
  total: number;
  data: readonly { id: string }[];
}

/**
 * The check of one walk: the `total` of every page must be the first page's, no contact may come
 * twice, and a walk from page 1 must end with as many contacts as that total. It keeps the ids
 * it has seen (not the contacts). Pages may come in any order.
 */
export class WalkCheck {
  readonly #ids = new Set<string>();
  readonly #whole: boolean;
  #total: number | undefined;

  /** `whole`: the walk starts at page 1, so its end is checked against the total. */
  constructor(options: { whole: boolean } = { whole: true }) {
    this.#whole = options.whole;
  }

  /** Contacts seen so far (each once). */
  get seen(): number {
    return this.#ids.size;
  }

  /** Takes in a page; throws InconsistentListError when its total differs or a contact repeats. */
  page(page: WalkedPage): void {
    if (this.#total === undefined) this.#total = page.total;
    const expected = this.#total;
    if (page.total !== expected) {
      throw new InconsistentListError({
        code: 'total_changed',
        page: page.page,
        expected,
        found: page.total,
      });
    }
    for (const contact of page.data) {
      if (this.#ids.has(contact.id)) {
        throw new InconsistentListError({ code: 'repeated_id', page: page.page, expected, id: contact.id });
      }
      this.#ids.add(contact.id);
    }
  }

  /**
   * The error for a page the walk was told of that the service now says is out of range, or
   * `error` itself when it is another failure.
   */
  gone(page: number, error: unknown): unknown {
    if (!isPageOutOfRange(error)) return error;
    return new InconsistentListError({ code: 'page_gone', page, expected: this.#total ?? 0 });
  }

  /** At the end of the walk: a walk from page 1 must have seen as many contacts as the total. */
  end(): void {
    if (!this.#whole || this.#total === undefined || this.#ids.size === this.#total) return;
    throw new InconsistentListError({ code: 'count_mismatch', expected: this.#total, found: this.#ids.size });
  }
}

/** The service's answer to a page past the last one (contract: 400 "Page number out of range"). */
export function isPageOutOfRange(error: unknown): boolean {
  return error instanceof BadRequestError && /out of range/i.test(error.message);
}

export interface WalkUntilConsistentOptions {
  /** Walks in all, the first included. Default `WALK_ATTEMPTS`. */
  attempts?: number;
  /** Told before each new walk, with what the last one found. */
  onRetry?: (error: InconsistentListError, attempt: number) => void;
}

/**
 * Runs `walk` (a whole walk from the first page, which must start its result afresh each time)
 * again while it throws InconsistentListError, up to `attempts` walks; then throws the last
 * error, its `attempts` saying how many walks were made. Any other error is thrown at once.
 */
export async function walkUntilConsistent<T>(
  walk: (attempt: number) => Promise<T>,
  options: WalkUntilConsistentOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? WALK_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new ContactsError(`attempts must be a whole number of at least 1, got ${attempts}`);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await walk(attempt);
    } catch (error) {
      if (!(error instanceof InconsistentListError)) throw error;
      if (attempt >= attempts) {
        throw new InconsistentListError({
          code: error.code,
          page: error.page,
          expected: error.expected,
          found: error.found,
          id: error.id,
          attempts: attempt,
        });
      }
      options.onRetry?.(error, attempt + 1);
    }
  }
}
