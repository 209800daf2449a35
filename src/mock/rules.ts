// The contract's write rules, apart from how records are kept: checking a body, merging it over
// the stored record, the batch's all-or-nothing plan, the quotas, and attribute definitions. The
// store applies them, given a way to look records up (`ContactLookup`).
import type * as z from 'zod';
import {
  AttributeCreateSchema,
  type AttributeDefinition,
  AttributeUpdateSchema,
  type AttributeValue,
  type Contact,
  type ContactInputParsed,
  type ContactPatchParsed,
  EMAIL_EXISTS,
  EXTERNAL_ID_EXISTS,
  INVALID_BODY,
  MAX_CONTACTS_REACHED,
  RESERVED_ATTRIBUTE_NAMES,
  RESERVED_FIELD_NAME,
  toIssues,
} from '../api/index.js';
import { badRequest, conflict } from './errors.js';

/**
 * Attribute definitions one agent may hold, archived ones included. The spec sets no limit;
 * without one, a loop could define them by the ten thousand, and every client that checks
 * `--attr` names downloads the whole list.
 */
export const MAX_ATTRIBUTES = 1000;

/** The fields a write decides; ids and timestamps come from the store. */
export type ContactFields = Pick<
  Contact,
  'external_id' | 'name' | 'email' | 'phonenumber' | 'custom_attributes' | 'stripe_accounts'
>;

export const EMPTY_ACCOUNTS: Contact['stripe_accounts'] = Object.freeze(
  [],
) as unknown as Contact['stripe_accounts'];
const EMPTY_ATTRIBUTES: Readonly<Record<string, AttributeValue>> = Object.freeze({});

/** Emails are unique per agent compared case-insensitively: the key they are indexed by. */
export const emailKey = (email: string | null) => (email === null ? undefined : email.toLowerCase());

/** Whether two addresses have one key; the same address (the common update) makes no key. */
export const sameEmailKey = (a: string | null, b: string | null) => a === b || emailKey(a) === emailKey(b);

/** The body checked against a schema, or the contract's 400 naming every bad field. */
export function parseOrThrow<T>(schema: z.ZodType<T, unknown>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest(INVALID_BODY, toIssues(result.error));
  return result.data;
}

/** Frozen copies of Stripe accounts, with only the keys they hold (`[]` shared when none). */
export function freezeAccounts(
  accounts: readonly { label: string; stripe_id?: string | null; stripe_email?: string | null }[],
): Contact['stripe_accounts'] {
  if (accounts.length === 0) return EMPTY_ACCOUNTS;
  return Object.freeze(
    accounts.map((a) =>
      Object.freeze({
        label: a.label,
        ...(a.stripe_id == null ? {} : { stripe_id: a.stripe_id }),
        ...(a.stripe_email == null ? {} : { stripe_email: a.stripe_email }),
      }),
    ),
  ) as unknown as Contact['stripe_accounts'];
}

/**
 * The fields after applying input over a previous record: absent keeps, null clears,
 * custom attributes merge key by key, and a given Stripe account list replaces the stored one.
 */
export function mergeFields(
  prev: ContactFields | undefined,
  input: ContactPatchParsed,
  externalId: string,
): ContactFields {
  // Stored attribute objects are frozen, so an untouched one is shared rather than copied.
  let attrs = prev?.custom_attributes ?? EMPTY_ATTRIBUTES;
  const given = input.custom_attributes;
  if (given) {
    const merged: Record<string, AttributeValue> = { ...attrs };
    for (const key of Object.keys(given)) {
      const value = given[key]!;
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    attrs = merged;
  }
  return {
    external_id: externalId,
    name: input.name !== undefined ? input.name : (prev?.name ?? null),
    email: input.email !== undefined ? input.email : (prev?.email ?? null),
    phonenumber: input.phonenumber !== undefined ? input.phonenumber : (prev?.phonenumber ?? null),
    custom_attributes: attrs,
    // Given, the list replaces the stored one as a whole; null or [] clears it (prod).
    stripe_accounts:
      input.stripe_accounts === undefined
        ? (prev?.stripe_accounts ?? EMPTY_ACCOUNTS)
        : freezeAccounts(input.stripe_accounts ?? []),
  };
}

function sameAccounts(a: Contact['stripe_accounts'], b: Contact['stripe_accounts']): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Whether a write changes nothing (then the record, its `updated_at` included, stays as it was). */
export function sameFields(a: ContactFields, b: ContactFields): boolean {
  if (a.external_id !== b.external_id || a.name !== b.name || a.email !== b.email) return false;
  if (a.phonenumber !== b.phonenumber) return false;
  if (!sameAccounts(a.stripe_accounts, b.stripe_accounts)) return false;
  const attrsA = a.custom_attributes;
  const attrsB = b.custom_attributes;
  if (attrsA === attrsB) return true;
  // Own keys only, counted without making key arrays.
  let n = 0;
  for (const k in attrsA) {
    if (!Object.hasOwn(attrsA, k)) continue;
    if (!Object.hasOwn(attrsB, k) || attrsA[k] !== attrsB[k]) return false;
    n++;
  }
  for (const k in attrsB) if (Object.hasOwn(attrsB, k)) n--;
  return n === 0;
}

/** How a rule sees an agent's stored contacts, whatever keeps them. */
export interface ContactLookup {
  /** How many contacts the agent holds. */
  count(): number;
  byExternalId(externalId: string): Contact | undefined;
  /** The external_id of the contact holding this email (lowercased), if any. */
  emailOwner(emailKey: string): string | undefined;
}

/** Throws the quota's 400 when `creates` more contacts would take the agent past `max`. */
export function checkQuota(lookup: ContactLookup, creates: number, max: number): void {
  // Without a quota nothing is counted: a store may pay for a count.
  if (creates > 0 && max !== Number.POSITIVE_INFINITY && lookup.count() + creates > max) {
    throw badRequest(MAX_CONTACTS_REACHED);
  }
}

/** Throws 409 when the merged email belongs to another contact of the agent. */
export function checkEmail(
  lookup: ContactLookup,
  prev: ContactFields | undefined,
  next: ContactFields,
): void {
  // No address, or one with the key it had: nothing to look up.
  if (next.email === null || sameEmailKey(next.email, prev?.email ?? null)) return;
  const owner = lookup.emailOwner(emailKey(next.email)!);
  if (owner !== undefined && owner !== prev?.external_id) throw conflict(EMAIL_EXISTS);
}

/**
 * An upsert decided against the agent's records: the record it replaces (if any) and the
 * fields to write. Throws the quota's 400 or the email's 409.
 */
export function planUpsert(
  lookup: ContactLookup,
  input: ContactInputParsed,
  maxContacts: number,
): { prev: Contact | undefined; fields: ContactFields } {
  const prev = lookup.byExternalId(input.external_id);
  checkQuota(lookup, prev ? 0 : 1, maxContacts);
  const fields = mergeFields(prev, input, input.external_id);
  checkEmail(lookup, prev, fields);
  return { prev, fields };
}

/** A PATCH of `prev` decided: the fields to write. Throws 409 for a taken external_id or email. */
export function planPatch(lookup: ContactLookup, prev: Contact, patch: ContactPatchParsed): ContactFields {
  const externalId = patch.external_id ?? prev.external_id;
  if (externalId !== prev.external_id && lookup.byExternalId(externalId)) throw conflict(EXTERNAL_ID_EXISTS);
  const fields = mergeFields(prev, patch, externalId);
  checkEmail(lookup, prev, fields);
  return fields;
}

/**
 * The record a write stores, frozen: under `id` (the replaced record's own, or a new one), with
 * the replaced record's `created_at`, and `updated_at` now (Unix seconds from a millisecond clock).
 */
export function stampContact(
  prev: Contact | undefined,
  fields: ContactFields,
  id: string,
  nowMs: number,
): Contact {
  const now = Math.floor(nowMs / 1000);
  return Object.freeze({
    id,
    external_id: fields.external_id,
    name: fields.name,
    email: fields.email,
    phonenumber: fields.phonenumber,
    // A shared empty object, the stored record's own, or a parsed body's copy: never the caller's.
    custom_attributes: Object.freeze(fields.custom_attributes),
    stripe_accounts: fields.stripe_accounts,
    created_at: prev?.created_at ?? now,
    updated_at: now,
  });
}

/**
 * The batch form, all or nothing: every item merged over an overlay of the batch's own effects,
 * so conflicts between items are caught too; a conflict names each item (`users.N.email`), and
 * the quota counts the contacts the batch would create. Throws when any item cannot be written,
 * so the caller writes only after this passes; returns the stored record each external_id had
 * before the batch (absent: a new contact), looked up once.
 */
export function checkBatch(
  lookup: ContactLookup,
  users: readonly ContactInputParsed[],
  maxContacts: number,
): Map<string, Contact | undefined> {
  const stored = new Map<string, Contact | undefined>();
  const staged = new Map<string, ContactFields>();
  const emailOwners = new Map<string, string | null>(); // lowercased email -> external_id, null = freed
  const issues: { field: string; message: string }[] = [];
  // The contacts it would create: each external_id looked up once, at its first item.
  let creates = 0;
  users.forEach((item, i) => {
    let prev = staged.get(item.external_id);
    if (prev === undefined) {
      const found = lookup.byExternalId(item.external_id);
      stored.set(item.external_id, found);
      prev = found;
      if (found === undefined) creates++;
    }
    const next = mergeFields(prev, item, item.external_id);
    const before = emailKey(prev?.email ?? null);
    const after = emailKey(next.email);
    if (after !== before) {
      if (after !== undefined) {
        const owner = emailOwners.has(after) ? emailOwners.get(after) : lookup.emailOwner(after);
        if (owner != null && owner !== item.external_id) {
          issues.push({ field: `users.${i}.email`, message: EMAIL_EXISTS });
        }
        emailOwners.set(after, item.external_id);
      }
      if (before !== undefined) emailOwners.set(before, null);
    }
    staged.set(item.external_id, next);
  });
  if (issues.length > 0) throw conflict(EMAIL_EXISTS, issues);
  checkQuota(lookup, creates, maxContacts);
  return stored;
}

/** A new definition from a `POST .../custom-attributes` body (reserved names refused first). */
export function newDefinition(body: unknown): AttributeDefinition {
  const name = typeof body === 'object' && body !== null ? (body as { name?: unknown }).name : undefined;
  if (typeof name === 'string' && RESERVED_ATTRIBUTE_NAMES.has(name)) {
    throw badRequest(RESERVED_FIELD_NAME, [{ field: 'name', message: RESERVED_FIELD_NAME }]);
  }
  const input = parseOrThrow(AttributeCreateSchema, body);
  return Object.freeze({
    name: input.name,
    type: input.type,
    label: input.label ?? input.name,
    description: input.description ?? null,
    archived: false,
  });
}

/** A definition after a `PUT .../custom-attributes/:name` body: the type is the one thing that never changes. */
export function updatedDefinition(prev: AttributeDefinition, body: unknown): AttributeDefinition {
  let changes = body;
  // A PUT that repeats the current type is harmless; any other type is the one change refused.
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'type' in body) {
    const { type, ...rest } = body as Record<string, unknown>;
    if (type !== prev.type) {
      throw badRequest('The type of a custom attribute cannot change', [
        { field: 'type', message: `The type of a custom attribute cannot change (it is ${prev.type})` },
      ]);
    }
    changes = rest;
  }
  const update = parseOrThrow(AttributeUpdateSchema, changes);
  return Object.freeze({
    ...prev,
    label: update.label ?? prev.label,
    description: update.description !== undefined ? update.description : prev.description,
    archived: update.archived ?? prev.archived,
  });
}
