// Reading what an agent's directory holds for a set of external_ids, in as few requests as the
// service allows: listed whole in pages of a thousand when that takes fewer requests than asking
// for each id, else asked id by id, several at a time. The dry run plans with it, an import
// records its undo with it, an undo reads the contacts it would change with it.
import type { Contact } from '../api/contact.js';
import { PER_PAGE_MAX } from '../api/limits.js';
import { isDotSegment } from '../api/operations.js';
import type { ContactsClient } from '../client/client.js';
import { AgentNotFoundError, NotFoundError } from '../client/errors.js';
import type { RequestOptions } from '../client/resources/core.js';
import { WalkCheck, walkUntilConsistent } from '../client/walk.js';
import { runPaced } from './paced-run.js';

/** Reads by id in flight at once: as many as an import sends. */
export const READS_IN_FLIGHT = 8;

type Page = Awaited<ReturnType<ContactsClient['contacts']['list']>>;

export interface DirectoryReaderOptions {
  client: ContactsClient;
  agentId: string;
  maxRetries: number;
}

export class DirectoryReader {
  readonly #options: DirectoryReaderOptions;
  get client(): ContactsClient {
    return this.#options.client;
  }
  get agentId(): string {
    return this.#options.agentId;
  }
  get maxRetries(): number {
    return this.#options.maxRetries;
  }
  /** The contacts the directory holds, as its first page says. */
  readonly total: number;
  /** Requests a listing of the whole directory takes. */
  readonly pages: number;
  /** The first page `open()` read, until the first listing uses it. */
  #first: Page | undefined;

  private constructor(options: DirectoryReaderOptions, first: Page) {
    this.#options = options;
    this.#first = first;
    this.total = first.total;
    this.pages = Math.max(1, first.totalPages);
  }

  /** Reads the directory's first page (a thousand contacts): its size, and the first of them. */
  static async open(options: DirectoryReaderOptions): Promise<DirectoryReader> {
    const first = await options.client.contacts.list({
      agentId: options.agentId,
      perPage: PER_PAGE_MAX,
      page: 1,
      maxRetries: options.maxRetries,
    });
    return new DirectoryReader(options, first);
  }

  /**
   * Whether listing the directory whole is cheaper than asking for `ids` external_ids one by
   * one (undefined: not known, and the directory is listed only when one page holds it).
   */
  listingIsCheaper(ids: number | undefined): boolean {
    return this.pages <= 1 || (ids !== undefined && this.pages <= ids);
  }

  /**
   * Every contact of the directory, a page at a time: the pages read `READS_IN_FLIGHT` at once
   * under the bulk scheduler, in no set order (the first listing takes the first page `open()`
   * read; another reads it again). A directory that changes under the listing (a page with another
   * total, gone past the end, a contact twice, or another count in all) throws
   * InconsistentListError after `onPage` has seen part of it: run the listing again from a fresh
   * start with `walkUntilConsistent`.
   */
  async list(onPage: (contacts: readonly Contact[]) => void): Promise<void> {
    const first = this.#first ?? (await this.#page(1, { maxRetries: this.#options.maxRetries }));
    this.#first = undefined;
    const check = new WalkCheck();
    check.page(first);
    onPage(first.data);
    const rest = Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) => i + 2);
    await runPaced(
      rest,
      async (page, request) => {
        let next: Page;
        try {
          next = await this.#page(page, request);
        } catch (error) {
          throw check.gone(page, error);
        }
        check.page(next);
        onPage(next.data);
      },
      { concurrency: READS_IN_FLIGHT, maxRetries: this.#options.maxRetries },
    );
    check.end();
  }

  #page(page: number, request: Omit<RequestOptions, 'agentId'>): Promise<Page> {
    return this.#options.client.contacts.list({
      ...request,
      agentId: this.#options.agentId,
      perPage: PER_PAGE_MAX,
      page,
    });
  }

  /**
   * The contact each external_id names now (null: none), asked `READS_IN_FLIGHT` at once, paced.
   * An external_id no path can carry (`.`, `..`) is looked for in a listing of the directory,
   * read again for it.
   */
  async fetch(ids: readonly string[]): Promise<Map<string, Contact | null>> {
    const found = new Map<string, Contact | null>();
    const unaddressable = new Set(ids.filter((id) => isDotSegment(encodeURIComponent(id))));
    if (unaddressable.size > 0) {
      // Read now, page after page: the first page this reader opened with may be out of date.
      const { client, agentId, maxRetries } = this.#options;
      await walkUntilConsistent(async () => {
        for (const id of unaddressable) found.set(id, null);
        for await (const c of client.contacts.listAll({ agentId, perPage: PER_PAGE_MAX, maxRetries })) {
          if (unaddressable.has(c.external_id)) found.set(c.external_id, c);
        }
      });
    }
    await runPaced(
      unaddressable.size > 0 ? ids.filter((id) => !unaddressable.has(id)) : ids,
      async (id, request) => {
        try {
          const c = await this.#options.client.contacts.get(id, {
            ...request,
            agentId: this.#options.agentId,
          });
          // The service resolves :id as an external_id first, then as its own id.
          found.set(id, c.external_id === id ? c : null);
        } catch (error) {
          if (error instanceof NotFoundError && !(error instanceof AgentNotFoundError)) found.set(id, null);
          else throw error;
        }
      },
      { concurrency: READS_IN_FLIGHT, maxRetries: this.#options.maxRetries },
    );
    return found;
  }
}
