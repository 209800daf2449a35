// A page of contacts that knows how to fetch the next one; iterating it walks every page.
import type { Contact } from '../api/contact.js';
import { BadRequestError } from './errors.js';

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
   * This page and every page after it, fetched one at a time as they are consumed. A page that
   * disappears under the walk (contacts deleted meanwhile, so the service says the page is out
   * of range) ends it.
   */
  async *pages(): AsyncGenerator<ContactPage> {
    let current: ContactPage | null = this;
    while (current) {
      yield current;
      try {
        current = await current.getNextPage();
      } catch (err) {
        if (err instanceof BadRequestError && /out of range/i.test(err.message)) return;
        throw err;
      }
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Contact> {
    for await (const page of this.pages()) yield* page.data;
  }
}
