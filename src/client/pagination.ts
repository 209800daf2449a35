// A page of contacts that knows how to fetch the next one; iterating it walks every page.
import type { Contact } from '../api/contact.js';
import { WalkCheck } from './walk.js';

export interface PageInfo {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}

export class ContactPage implements AsyncIterable<Contact> {
  readonly data: Contact[];
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
  readonly totalPages: number;
  readonly #fetchPage: (page: number) => Promise<ContactPage>;

  constructor(data: Contact[], info: PageInfo, fetchPage: (page: number) => Promise<ContactPage>) {
    this.data = data;
    this.page = info.page;
    this.perPage = info.perPage;
    this.total = info.total;
    this.totalPages = info.totalPages;
    this.#fetchPage = fetchPage;
  }

  hasNextPage(): boolean {
    return this.page < this.totalPages && this.data.length > 0;
  }

  async getNextPage(): Promise<ContactPage | null> {
    return this.hasNextPage() ? this.#fetchPage(this.page + 1) : null;
  }

  /**
   * This page and every page after it, fetched one at a time as they are consumed. A walk that
   * does not see one list (contacts added or deleted meanwhile shift the pages, or the server
   * repeats one) throws InconsistentListError when it shows: a page with another `total`, a
   * contact a second time, a page gone past the end, or (from page 1) another number of
   * contacts in all than `total`. What was yielded before is then not the whole list.
   */
  async *pages(): AsyncGenerator<ContactPage> {
    const check = new WalkCheck({ whole: this.page === 1 });
    let current: ContactPage | null = this;
    while (current) {
      check.page(current);
      yield current;
      const next = current.page + 1;
      try {
        current = await current.getNextPage();
      } catch (error) {
        throw check.gone(next, error);
      }
    }
    check.end();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Contact> {
    for await (const page of this.pages()) yield* page.data;
  }
}
