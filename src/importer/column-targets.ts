// What a column can fill: the contact's fields, a custom attribute, the parts of a name, the
// row's country; and those targets by name (`email`, `attr.plan`, `-`), as a saved mapping or
// an override names them.
import { didYouMean } from '../util/suggest.js';
import { MappingError } from './errors.js';

export const CONTACT_FIELDS = ['external_id', 'name', 'email', 'phonenumber', 'stripe_accounts'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type ColumnTarget =
  | { kind: 'field'; field: ContactField }
  | { kind: 'attribute'; name: string }
  /** Joined with the last name into `name` when the file has no full-name column. */
  | { kind: 'first_name' }
  | { kind: 'middle_name' }
  | { kind: 'last_name' }
  /** After the name built of its parts (`Jr.`, `III`, `PhD`). */
  | { kind: 'name_suffix' }
  /** The row's country (a code or a name): where a national phone number is placed. */
  | { kind: 'country' };

/**
 * One column override: what the column fills (one column may fill two fields, e.g. an email that
 * is also the external_id); no targets means "ignore this column" (`-`).
 */
export interface MapOverride {
  header: string;
  targets: ColumnTarget[];
}

export const ATTR_PREFIX_RE = /^(attr|custom_attributes)\./i;

/**
 * `email`, `external_id,email`, `attr.plan`, or `-` (nothing). A name no target has is a
 * MappingError (`unknown_target`).
 */
export function parseTargets(text: string): ColumnTarget[] {
  if (text === '-') return [];
  return text.split(',').map((t) => parseTarget(t.trim()));
}

function parseTarget(target: string): ColumnTarget {
  // The name `update --phone` gives it.
  if (target === 'phone') return { kind: 'field', field: 'phonenumber' };
  if ((CONTACT_FIELDS as readonly string[]).includes(target)) {
    return { kind: 'field', field: target as ContactField };
  }
  if (
    target === 'first_name' ||
    target === 'middle_name' ||
    target === 'last_name' ||
    target === 'name_suffix' ||
    target === 'country'
  )
    return { kind: target };
  if (ATTR_PREFIX_RE.test(target) && target.replace(ATTR_PREFIX_RE, '')) {
    return { kind: 'attribute', name: target.replace(ATTR_PREFIX_RE, '') };
  }
  const suggestion = didYouMean(target, [...CONTACT_FIELDS, 'first_name', 'last_name', 'country']);
  throw new MappingError(
    `unknown field "${target}"${suggestion}; ` +
      `expected one of ${CONTACT_FIELDS.join(', ')}, first_name, last_name, country (where a national phone number is placed), ` +
      'attr.<name> or - (ignore the column)',
    { detail: { code: 'unknown_target', target, suggestion } },
  );
}

export function describeTarget(target: ColumnTarget): string {
  switch (target.kind) {
    case 'field':
      return target.field;
    case 'attribute':
      return `attr.${target.name}`;
    case 'first_name':
      return 'name (first part)';
    case 'middle_name':
      return 'name (middle part)';
    case 'last_name':
      return 'name (last part)';
    case 'name_suffix':
      return 'name (suffix)';
    case 'country':
      return 'country';
  }
}

export function targetKey(target: ColumnTarget): string {
  if (target.kind === 'field') return target.field;
  if (target.kind === 'attribute') return `attr.${target.name}`;
  return target.kind;
}
