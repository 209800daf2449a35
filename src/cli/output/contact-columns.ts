// The columns `contacts list` can draw, how each gives way on a narrow terminal, and --columns.
import type { Contact } from '../../api/contact.js';
import { didYouMean } from '../../util/suggest.js';
import { UsageError } from '../errors.js';
import { cell, isoTime } from './cells.js';
import type { TableColumn } from './table.js';

export interface ContactColumn extends TableColumn {
  value(contact: Contact): unknown;
}

/** Custom attribute columns are `attr.<name>`, as in CSV. */
const ATTR_PREFIX = 'attr.';

/** `main (cus_123), billing (ada@example.com)`: a Stripe account list in one cell. */
export function stripeSummary(accounts: Contact['stripe_accounts'] | undefined): string {
  return (accounts ?? [])
    .map((a) => `${a.label} (${[a.stripe_id, a.stripe_email].filter(Boolean).join(', ')})`)
    .join(', ');
}

/** `plan=pro, seats=3`: the custom attributes with a value, sorted by name. */
function attributeSummary(attributes: Contact['custom_attributes']): string {
  return Object.keys(attributes)
    .sort()
    .filter((k) => attributes[k] !== null)
    .map((k) => `${k}=${cell(attributes[k])}`)
    .join(', ');
}

// Identifiers and times are never cut (`whole`); on a narrow terminal the times, the Stripe
// accounts and the attributes are left out first, then the name; never an id, an email or a
// phone number.
const COLUMNS = {
  id: { header: 'id', fit: 'whole', value: (c) => c.id },
  external_id: { header: 'external_id', fit: 'whole', value: (c) => c.external_id },
  name: { header: 'name', fit: 'text', drop: 'last', value: (c) => c.name },
  email: { header: 'email', fit: 'whole', value: (c) => c.email },
  phonenumber: { header: 'phonenumber', fit: 'whole', value: (c) => c.phonenumber },
  // Stripe's ids and emails: whole, or left out.
  stripe: { header: 'stripe', fit: 'whole', drop: 'first', value: (c) => stripeSummary(c.stripe_accounts) },
  attributes: {
    header: 'attributes',
    fit: 'text',
    drop: 'first',
    value: (c) => attributeSummary(c.custom_attributes),
  },
  created_at: { header: 'created_at', fit: 'whole', drop: 'first', value: (c) => isoTime(c.created_at) },
  updated_at: { header: 'updated_at', fit: 'whole', drop: 'first', value: (c) => isoTime(c.updated_at) },
} as const satisfies Record<string, ContactColumn>;

export type ContactColumnName = keyof typeof COLUMNS;
export const CONTACT_COLUMN_NAMES = Object.keys(COLUMNS) as ContactColumnName[];

/** What `list` draws without --columns, each left out when it is empty on the page. */
const DEFAULT_COLUMNS: readonly ContactColumnName[] = [
  'external_id',
  'name',
  'email',
  'phonenumber',
  'stripe',
  'attributes',
  'updated_at',
];

/** Other spellings a user may reach for: the API's field names, and --phone's. */
const ALIASES: Record<string, ContactColumnName> = {
  phone: 'phonenumber',
  stripe_accounts: 'stripe',
  custom_attributes: 'attributes',
};

export function defaultContactColumns(): ContactColumn[] {
  return DEFAULT_COLUMNS.map((name) => ({ ...COLUMNS[name], dropWhenEmpty: true }));
}

/** The columns --columns lists, all shown as asked: none is left out for being empty or for width. */
export function parseContactColumns(spec: string): ContactColumn[] {
  const names = spec
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const valid = `Columns: ${CONTACT_COLUMN_NAMES.join(', ')}, or attr.<name> for one custom attribute.`;
  if (names.length === 0) throw new UsageError('--columns needs at least one column', { hint: valid });
  const seen = new Set<string>();
  const columns: ContactColumn[] = [];
  for (const given of names) {
    const name = given.toLowerCase();
    let column: ContactColumn;
    if (name.startsWith(ATTR_PREFIX) && given.length > ATTR_PREFIX.length) {
      // The attribute's name as written: attribute names are case-sensitive.
      const attribute = given.slice(ATTR_PREFIX.length);
      column = {
        header: `${ATTR_PREFIX}${attribute}`,
        fit: 'text',
        value: (c) =>
          Object.hasOwn(c.custom_attributes, attribute) ? c.custom_attributes[attribute] : undefined,
      };
    } else {
      const known = Object.hasOwn(COLUMNS, name) ? (name as ContactColumnName) : ALIASES[name];
      if (known === undefined) {
        throw new UsageError(
          `--columns: unknown column "${given}"${didYouMean(name, [...CONTACT_COLUMN_NAMES, ...Object.keys(ALIASES)])}`,
          { hint: valid },
        );
      }
      const { drop: _drop, ...asked } = COLUMNS[known] as ContactColumn;
      column = asked;
    }
    if (seen.has(column.header)) continue;
    seen.add(column.header);
    columns.push(column);
  }
  return columns;
}
