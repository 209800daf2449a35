// Which contact field or custom attribute each CSV column fills: synonyms, attribute names and
// `--map` overrides, resolved once from the header.
import type { AttributeDefinition } from '../api/attribute.js';
import { didYouMean } from '../util/suggest.js';
import { MappingError } from './errors.js';
import { REJECT_KEYS } from './sources/types.js';

export const CONTACT_FIELDS = ['external_id', 'name', 'email', 'phonenumber', 'stripe_accounts'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export type ColumnTarget =
  | { kind: 'field'; field: ContactField }
  | { kind: 'attribute'; name: string }
  /** Joined with the last name into `name` when the file has no full-name column. */
  | { kind: 'first_name' }
  | { kind: 'last_name' };

/**
 * One `--map "Header=target[,target]"`: what the column fills (one column may fill two fields,
 * e.g. an email that is also the external_id); no targets means "ignore this column" (`-`).
 */
export interface MapOverride {
  header: string;
  targets: ColumnTarget[];
}

export interface ColumnMapping {
  /** The header the mapping was made for. */
  header: string[];
  /** By column index: what the column fills (often one thing; none when it is ignored). */
  columns: ColumnTarget[][];
  /** Columns that map to nothing and were not ignored on purpose: report them once. */
  unmapped: string[];
}

/**
 * Header synonyms, compared after `normalizeHeader`. Earlier entries win when two columns match
 * one field (a file with both `ID` and `External ID` takes `External ID`; `ID` is then unmapped).
 */
export const HEADER_SYNONYMS: Record<ContactField | 'first_name' | 'last_name', readonly string[]> = {
  // HubSpot's export names its id "Record ID"; Salesforce's "Contact ID" (reports) or "Id" (Data Loader).
  external_id: [
    'externalid',
    'userid',
    'customerid',
    'contactid',
    'recordid',
    'clientid',
    'memberid',
    'uid',
    'id',
  ],
  name: ['name', 'fullname', 'contactname', 'displayname', 'customername'],
  // Google Contacts: "E-mail 1 - Value"; Outlook: "E-mail Address"; Mailchimp: "Email Address".
  email: ['email', 'emailaddress', 'email1value', 'email1address', 'primaryemail', 'mail', 'mailaddress'],
  // Google Contacts: "Phone 1 - Value"; Outlook: "Mobile Phone", "Primary Phone", "Business
  // Phone", "Home Phone"; HubSpot: "Phone Number", "Mobile Phone Number"; Salesforce: "Mobile".
  phonenumber: [
    'phonenumber',
    'phone',
    'phone1value',
    'phoneno',
    'mobile',
    'mobilenumber',
    'mobilephone',
    'mobilephonenumber',
    'primaryphone',
    'cell',
    'cellphone',
    'telephone',
    'telephonenumber',
    'tel',
    'businessphone',
    'homephone',
  ],
  // A JSON array as text, as export writes it.
  stripe_accounts: ['stripeaccounts'],
  first_name: ['firstname', 'givenname', 'forename'],
  last_name: ['lastname', 'surname', 'familyname'],
};

/** The service's own fields of a contact record (normalised): never input, so never "unmapped". */
const RECORD_FIELDS = new Set(['id', 'createdat', 'updatedat']);

const ATTR_PREFIX_RE = /^(attr|custom_attributes)\./i;

/** `E-mail Address` -> `emailaddress`: case, spaces, `_`, `-` and other punctuation do not count. */
export function normalizeHeader(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Parse one `--map "Header=target"` (split at the last `=`, since a header may contain one); the
 * target may name several fields, comma-separated: `--map "E-mail 1 - Value=external_id,email"`.
 */
export function parseMapOption(value: string): MapOverride {
  const at = value.lastIndexOf('=');
  const header = at === -1 ? '' : value.slice(0, at).trim();
  const target = at === -1 ? '' : value.slice(at + 1).trim();
  if (!header || !target) {
    throw new MappingError(`Invalid --map "${value}": expected "Header=field", e.g. --map "E-mail=email"`);
  }
  return { header, targets: parseTargets(target, `Invalid --map "${value}"`) };
}

/**
 * A saved mapping (`--map-file`): a JSON object of `"Header": "field"` entries, the same targets
 * as `--map`. `file` names it in messages.
 */
export function parseMapFile(text: string, file: string): MapOverride[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MappingError(`--map-file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MappingError(
      `--map-file ${file} must be a JSON object of "Header": "field" entries, e.g. {"E-mail": "email"}`,
    );
  }
  return Object.entries(value).map(([header, target]) => {
    if (typeof target !== 'string' || !header.trim() || !target.trim()) {
      throw new MappingError(
        `--map-file ${file}: ${JSON.stringify(header)} must map to a field name (a string), e.g. "email" or "-"`,
      );
    }
    return { header: header.trim(), targets: parseTargets(target.trim(), `--map-file ${file}: "${header}"`) };
  });
}

/**
 * `--map-file` entries with `--map` flags over them: flags naming the same header replace the
 * file's entry, so a one-off tweak needs no edit of the saved mapping. Two flags for one header
 * add up (`--map "Email=external_id" --map "Email=email"` fills both), never drop the first.
 */
export function combineMaps(
  fromFile: readonly MapOverride[],
  fromFlags: readonly MapOverride[],
): MapOverride[] {
  const byHeader = new Map<string, MapOverride>();
  for (const o of fromFile) byHeader.set(normalizeHeader(o.header), o);
  const flagged = new Set<string>();
  for (const o of fromFlags) {
    const key = normalizeHeader(o.header);
    const earlier = flagged.has(key) ? byHeader.get(key) : undefined;
    byHeader.set(key, earlier ? { header: earlier.header, targets: [...earlier.targets, ...o.targets] } : o);
    flagged.add(key);
  }
  return [...byHeader.values()];
}

/** `email`, `external_id,email`, `attr.plan`, or `-` (nothing). */
function parseTargets(text: string, where: string): ColumnTarget[] {
  if (text === '-') return [];
  return text.split(',').map((t) => parseTarget(t.trim(), where));
}

function parseTarget(target: string, where: string): ColumnTarget {
  if ((CONTACT_FIELDS as readonly string[]).includes(target)) {
    return { kind: 'field', field: target as ContactField };
  }
  if (ATTR_PREFIX_RE.test(target) && target.replace(ATTR_PREFIX_RE, '')) {
    return { kind: 'attribute', name: target.replace(ATTR_PREFIX_RE, '') };
  }
  throw new MappingError(
    `${where}: unknown field "${target}"${didYouMean(target, CONTACT_FIELDS)}; expected one of ${CONTACT_FIELDS.join(', ')}, ` +
      'attr.<name> or - (ignore the column)',
    { unknownTarget: target },
  );
}

export interface ResolveMappingOptions {
  header: string[];
  /** The agent's custom attribute definitions (archived ones too). */
  definitions: Iterable<AttributeDefinition>;
  overrides?: MapOverride[];
}

/**
 * Map the columns of a CSV header. In order of precedence: `--map` overrides; the rejects'
 * `_line`/`_error` columns (ignored silently); `attr.<name>` headers; contact field synonyms;
 * headers naming a defined, non-archived attribute. Each target is filled by one column at most:
 * the first one wins and later ones are unmapped. Throws a MappingError for an override naming
 * no column or an undefined attribute, and when no column fills `external_id`.
 */
export function resolveMapping({
  header,
  definitions,
  overrides = [],
}: ResolveMappingOptions): ColumnMapping {
  const defs = [...definitions];
  const columns: ColumnTarget[][] = header.map(() => []);
  // `decided`: no automatic rule may touch the column; `ignored`: left out on purpose, not reported.
  const decided = header.map(() => false);
  const ignored = header.map(() => false);
  const taken = new Set<string>();
  const label = (i: number) => (header[i]!.trim() ? header[i]!.trim() : `(column ${i + 1}, no header)`);

  for (const override of overrides) {
    const i = findColumn(header, override.header);
    if (i === -1) {
      throw new MappingError(
        `--map "${override.header}=...": the file has no column "${override.header}" ` +
          `(columns: ${header.map((_, j) => label(j)).join(', ')})${didYouMean(override.header, header)}`,
      );
    }
    for (const raw of override.targets) {
      const target = checkAttribute(raw, defs, `--map "${override.header}=..."`);
      const key = targetKey(target);
      if (taken.has(key)) {
        throw new MappingError(`--map: two columns map to ${describeTarget(target)}; keep one of them`);
      }
      taken.add(key);
      columns[i]!.push(target);
    }
    decided[i] = true;
    ignored[i] = override.targets.length === 0;
  }

  const claim = (i: number, target: ColumnTarget) => {
    const key = targetKey(target);
    if (taken.has(key)) return;
    taken.add(key);
    columns[i]!.push(target);
    decided[i] = true;
  };

  header.forEach((cell, i) => {
    if (decided[i]) return;
    const trimmed = cell.trim();
    if (trimmed === REJECT_KEYS.line || trimmed === REJECT_KEYS.error) {
      decided[i] = true;
      ignored[i] = true;
    } else if (ATTR_PREFIX_RE.test(trimmed)) {
      const target = checkAttribute(
        { kind: 'attribute', name: trimmed.replace(ATTR_PREFIX_RE, '') },
        defs,
        `Column "${trimmed}"`,
      );
      // An archived attribute takes no values: its column (as in an export) is left out and
      // reported, rather than every row with a value being rejected. `--map` can still ask for it.
      const archived = target.kind === 'attribute' && defs.find((d) => d.name === target.name)?.archived;
      if (archived) decided[i] = true;
      else claim(i, target);
    }
  });

  // Synonyms by rank, so `External ID` beats an earlier `ID` column.
  for (const [target, synonyms] of Object.entries(HEADER_SYNONYMS)) {
    for (const synonym of synonyms) {
      const i = header.findIndex((cell, j) => !decided[j] && normalizeHeader(cell) === synonym);
      if (i !== -1) {
        claim(i, toTarget(target));
        break;
      }
    }
  }

  const activeByName = new Map(defs.filter((d) => !d.archived).map((d) => [normalizeHeader(d.name), d.name]));
  header.forEach((cell, i) => {
    const name = decided[i] ? undefined : activeByName.get(normalizeHeader(cell));
    if (name) claim(i, { kind: 'attribute', name });
  });

  // First and last names only stand in for a missing full name.
  if (taken.has('name')) {
    columns.forEach((targets, i) => {
      columns[i] = targets.filter((t) => t.kind !== 'first_name' && t.kind !== 'last_name');
    });
  }

  const fills = (targets: ColumnTarget[], field: ContactField) =>
    targets.some((t) => t.kind === 'field' && t.field === field);
  if (!columns.some((targets) => fills(targets, 'external_id'))) {
    throw new MappingError(
      `No column maps to external_id (columns: ${header.map((_, j) => label(j)).join(', ')}). ` +
        'Name one with --map "<column>=external_id" (a column can fill two fields: --map "Email=external_id,email"); ' +
        'recognised headers: External ID, User ID, Customer ID, Contact ID, Record ID, ID.',
    );
  }

  // A file with external_id beside the record's timestamps is one of our exports (or alike): the
  // service's own fields (id, created_at, updated_at) are read-only, so they are skipped quietly.
  const externalIdColumn = columns.findIndex((targets) => fills(targets, 'external_id'));
  const normalized = header.map(normalizeHeader);
  const looksExported =
    normalized[externalIdColumn] === 'externalid' &&
    (normalized.includes('createdat') || normalized.includes('updatedat'));
  if (looksExported) {
    header.forEach((_, i) => {
      if (columns[i]!.length === 0 && !decided[i] && RECORD_FIELDS.has(normalized[i]!)) ignored[i] = true;
    });
  }

  const unmapped = header.flatMap((_, i) => (columns[i]!.length === 0 && !ignored[i] ? [label(i)] : []));
  return { header, columns, unmapped };
}

/** `Header -> target` lines, for a verbose run or a dry run. */
export function describeMapping(mapping: ColumnMapping): string[] {
  return mapping.columns.flatMap((targets, i) =>
    targets.length > 0
      ? [`${mapping.header[i]!.trim() || `(column ${i + 1})`} -> ${targets.map(describeTarget).join(', ')}`]
      : [],
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
    case 'last_name':
      return 'name (last part)';
  }
}

/** An exact (trimmed) header first, else the one column whose normalised header matches. */
function findColumn(header: string[], wanted: string): number {
  const exact = header.findIndex((cell) => cell.trim() === wanted.trim());
  if (exact !== -1) return exact;
  const norm = normalizeHeader(wanted);
  const matches = header.flatMap((cell, i) => (normalizeHeader(cell) === norm ? [i] : []));
  return matches.length === 1 ? matches[0]! : -1;
}

/** The attribute as the agent defines it (its exact name), or a MappingError if it is not defined. */
function checkAttribute(target: ColumnTarget, defs: AttributeDefinition[], where: string): ColumnTarget {
  if (target.kind !== 'attribute') return target;
  const found =
    defs.find((d) => d.name === target.name) ??
    defs.find((d) => normalizeHeader(d.name) === normalizeHeader(target.name));
  if (!found) {
    const known = defs.filter((d) => !d.archived).map((d) => d.name);
    throw new MappingError(
      `${where}: custom attribute "${target.name}" is not defined for this agent ` +
        `(defined: ${known.length ? known.join(', ') : 'none'}); define it first, or map the column to -`,
    );
  }
  return { kind: 'attribute', name: found.name };
}

function targetKey(target: ColumnTarget): string {
  if (target.kind === 'field') return target.field;
  if (target.kind === 'attribute') return `attr.${target.name}`;
  return target.kind;
}

function toTarget(key: string): ColumnTarget {
  if (key === 'first_name' || key === 'last_name') return { kind: key };
  return { kind: 'field', field: key as ContactField };
}
