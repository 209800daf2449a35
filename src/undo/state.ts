// A contact's state as an import changes it and an undo restores it: the fields an upsert writes
// (name, email, phone, stripe accounts, attributes), compared field by field. The dry run plans
// with it, an import records it before and after, an undo compares and restores it.
import type { AttributeValue } from '../api/attribute.js';
import type { Contact, ContactInputParsed, ContactPatch } from '../api/contact.js';

export interface ContactState {
  name: string | null;
  email: string | null;
  phonenumber: string | null;
  stripe_accounts: unknown[];
  /** A null value is no value: it is left out. */
  custom_attributes: Record<string, AttributeValue>;
}

/** `field` is name, email, phonenumber, stripe_accounts or custom_attributes.<name>: [was, is]. */
export type FieldChanges = Record<string, [unknown, unknown]>;

const ATTRIBUTE = 'custom_attributes.';

const EMPTY: ContactState = {
  name: null,
  email: null,
  phonenumber: null,
  stripe_accounts: [],
  custom_attributes: {},
};

export function stateOf(contact: Contact): ContactState {
  const attributes: Record<string, AttributeValue> = {};
  for (const [name, value] of Object.entries(contact.custom_attributes ?? {}))
    if (value !== null) attributes[name] = value;
  return {
    name: contact.name ?? null,
    email: contact.email ?? null,
    phonenumber: contact.phonenumber ?? null,
    // As an input takes them: a service that answers `stripe_email: null` is not sent it back.
    stripe_accounts: (contact.stripe_accounts ?? []).map((a) => {
      const account = a as { label: string; stripe_id?: string | null; stripe_email?: string | null };
      return {
        label: account.label,
        ...(account.stripe_id == null ? {} : { stripe_id: account.stripe_id }),
        ...(account.stripe_email == null ? {} : { stripe_email: account.stripe_email }),
      };
    }),
    custom_attributes: attributes,
  };
}

/**
 * What an upsert of `input` makes of `before` (null: no such contact): absent fields keep their
 * values, attributes merge key by key, null clears, stripe accounts are replaced whole.
 */
export function applyInput(before: ContactState | null, input: ContactInputParsed): ContactState {
  const after: ContactState = before
    ? { ...before, custom_attributes: { ...before.custom_attributes } }
    : { ...EMPTY, custom_attributes: {} };
  for (const field of ['name', 'email', 'phonenumber'] as const) {
    const next = input[field];
    if (next !== undefined) after[field] = next;
  }
  if (input.stripe_accounts !== undefined) after.stripe_accounts = input.stripe_accounts ?? [];
  for (const [name, value] of Object.entries(input.custom_attributes ?? {})) {
    if (value === null) delete after.custom_attributes[name];
    else after.custom_attributes[name] = value;
  }
  return after;
}

/** The fields whose values differ between `a` and `b` (null: no contact, every field empty). */
export function fieldChanges(a: ContactState | null, b: ContactState | null): FieldChanges {
  const from = a ?? EMPTY;
  const to = b ?? EMPTY;
  const changes: FieldChanges = {};
  for (const field of ['name', 'email', 'phonenumber'] as const) {
    if (from[field] !== to[field]) changes[field] = [from[field], to[field]];
  }
  if (canonical(from.stripe_accounts) !== canonical(to.stripe_accounts))
    changes.stripe_accounts = [from.stripe_accounts, to.stripe_accounts];
  const names = new Set([...Object.keys(from.custom_attributes), ...Object.keys(to.custom_attributes)]);
  for (const name of [...names].sort()) {
    // Own values only: `constructor` is an attribute name like any other.
    const was = Object.hasOwn(from.custom_attributes, name) ? from.custom_attributes[name] : null;
    const is = Object.hasOwn(to.custom_attributes, name) ? to.custom_attributes[name] : null;
    if (canonical(was) !== canonical(is)) changes[`${ATTRIBUTE}${name}`] = [was, is];
  }
  return changes;
}

/** The PATCH that sets each changed field to its second value (null clears it). */
export function patchOf(changes: FieldChanges): ContactPatch {
  const patch: Record<string, unknown> = {};
  const attributes: Record<string, AttributeValue | null> = {};
  for (const [field, [, value]] of Object.entries(changes)) {
    if (field.startsWith(ATTRIBUTE))
      attributes[field.slice(ATTRIBUTE.length)] = value as AttributeValue | null;
    else patch[field] = value;
  }
  if (Object.keys(attributes).length > 0) patch.custom_attributes = attributes;
  return patch as ContactPatch;
}

/**
 * `canonical(state)`, written directly: the record keeps one for every contact an import writes.
 * A state of another shape (or an attribute named like an array index, which an object orders
 * first) takes `canonical` itself.
 */
export function stateText(state: ContactState): string {
  const { custom_attributes: attributes, email, name, phonenumber, stripe_accounts: accounts } = state;
  if (
    email === undefined ||
    name === undefined ||
    phonenumber === undefined ||
    !Array.isArray(accounts) ||
    attributes === null ||
    typeof attributes !== 'object' ||
    Array.isArray(attributes) ||
    Object.keys(state).length !== 5
  )
    return canonical(state);
  const names = Object.keys(attributes).sort();
  let text = '{"custom_attributes":{';
  let first = true;
  for (const key of names) {
    if (INDEX_RE.test(key)) return canonical(state);
    const value: unknown = attributes[key];
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${value !== null && typeof value === 'object' ? canonical(value) : JSON.stringify(value)}`;
    first = false;
  }
  return (
    `${text}},"email":${JSON.stringify(email)},"name":${JSON.stringify(name)},` +
    `"phonenumber":${JSON.stringify(phonenumber)},"stripe_accounts":${accounts.length === 0 ? '[]' : canonical(accounts)}}`
  );
}

/** A key an object orders before the others, as an array index. */
const INDEX_RE = /^(?:0|[1-9]\d*)$/;

/** JSON with object keys sorted: one text for one value, whatever order the service wrote. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
