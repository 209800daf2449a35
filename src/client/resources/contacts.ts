// `client.contacts`: every contact endpoint, each method one call over the request core.
import type { ContactInput, ContactPatch } from '../../api/contact.js';
import { MAX_BATCH_SIZE } from '../../api/limits.js';
import { endpoint } from '../../api/operations.js';
import type { Contact } from '../../api/records.js';
import { ANSWERS } from '../answers.js';
import { ContactsError } from '../errors.js';
import { JsonText, toJsonText } from '../json-text.js';
import { ContactPage } from '../pagination.js';
import type { ClientCore, RequestOptions } from './core.js';

export interface ListParams extends RequestOptions {
  page?: number;
  perPage?: number;
}

export interface UpsertResult {
  contact: Contact;
  /** True when this call created the contact, false when it updated an existing one. */
  created: boolean;
}

export class Contacts {
  constructor(private readonly core: ClientCore) {}

  /** One page of the agent's contacts, oldest first. The page is also an async iterable of every contact. */
  async list(params: ListParams = {}): Promise<ContactPage> {
    const agentId = this.core.agentId(params);
    const res = await this.core.request({
      ...params,
      ...endpoint('listContacts', { agentId }),
      query: { page: params.page, per_page: params.perPage },
    });
    const body = this.core.parse(res, ANSWERS.list, 'a page of contacts');
    const next = (page: number) => this.list({ ...params, agentId, page });
    if (Array.isArray(body)) {
      // A server without the envelope: one page holding everything it sent.
      const info = { page: params.page ?? 1, perPage: body.length, total: body.length, totalPages: 1 };
      return new ContactPage(body, info, next);
    }
    const info = {
      page: body.pages.page,
      perPage: body.pages.per_page,
      total: body.total,
      totalPages: body.pages.total_pages,
    };
    return new ContactPage(body.data, info, next);
  }

  /**
   * Every contact of the agent, page after page, as they are fetched. Throws
   * InconsistentListError when the list changes under the walk (see `ContactPage.pages()`).
   */
  async *listAll(params: Omit<ListParams, 'page'> = {}): AsyncGenerator<Contact> {
    for await (const page of this.pages(params)) yield* page.data;
  }

  /** Every page of the agent's contacts, fetched as they are consumed; checked as `listAll()`. */
  async *pages(params: Omit<ListParams, 'page'> = {}): AsyncGenerator<ContactPage> {
    yield* (await this.list({ ...params, page: 1 })).pages();
  }

  /** One contact, by its `external_id` or the service's own id. */
  async get(id: string, options: RequestOptions = {}): Promise<Contact> {
    const res = await this.core.request({
      ...options,
      ...endpoint('getContact', { agentId: this.core.agentId(options), id }),
    });
    return this.core.parse(res, ANSWERS.contact, 'a contact');
  }

  /** Creates the contact, or updates the one with the same `external_id` (as JSON text too). */
  async upsert(input: ContactInput | JsonText, options: RequestOptions = {}): Promise<UpsertResult> {
    const res = await this.core.request({
      ...options,
      ...endpoint('upsertContact', { agentId: this.core.agentId(options) }),
      body: input,
    });
    return { contact: this.core.parse(res, ANSWERS.contact, 'a contact'), created: res.status === 201 };
  }

  /**
   * The batch form: 1 to 1000 contacts in one request, all or nothing. Returns them in request
   * order. Contacts may be given as JSON text already serialised.
   */
  async upsertMany(
    inputs: readonly (ContactInput | JsonText)[],
    options: RequestOptions = {},
  ): Promise<Contact[]> {
    if (inputs.length < 1 || inputs.length > MAX_BATCH_SIZE) {
      throw new ContactsError(`upsertMany takes 1 to ${MAX_BATCH_SIZE} contacts, got ${inputs.length}`);
    }
    const body = inputs.some((i) => i instanceof JsonText)
      ? new JsonText(
          `{"users":[${inputs.map((i) => (i instanceof JsonText ? i.text : toJsonText(i))).join(',')}]}`,
        )
      : { users: inputs };
    const res = await this.core.request({
      ...options,
      ...endpoint('upsertContact', { agentId: this.core.agentId(options) }),
      body,
    });
    return this.core.parse(res, ANSWERS.contacts, 'a list of contacts');
  }

  /** Changes only the given fields; `null` clears one, custom attributes merge key by key. */
  async update(id: string, patch: ContactPatch, options: RequestOptions = {}): Promise<Contact> {
    const res = await this.core.request({
      ...options,
      ...endpoint('updateContact', { agentId: this.core.agentId(options), id }),
      body: patch,
    });
    return this.core.parse(res, ANSWERS.contact, 'a contact');
  }

  /** Deletes the contact; returns it as it was, or null when the service answers 204. */
  async delete(id: string, options: RequestOptions = {}): Promise<Contact | null> {
    const res = await this.core.request({
      ...options,
      ...endpoint('deleteContact', { agentId: this.core.agentId(options), id }),
    });
    if (res.status === 204 || res.text.trim() === '') return null;
    return this.core.parse(res, ANSWERS.contact, 'the deleted contact');
  }
}
