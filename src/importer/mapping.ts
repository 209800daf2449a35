// Which contact field or custom attribute each CSV column fills: synonyms, attribute names and
// overrides, resolved once from the header.
import type { AttributeDefinition, AttributeType } from '../api/attribute.js';
import { READ_ONLY_CONTACT_FIELDS } from '../api/limits.js';
import { didYouMean } from '../util/suggest.js';
import { ColumnClaims } from './column-claims.js';
import { ATTR_PREFIX_RE, CONTACT_FIELDS, type ColumnTarget, type MapOverride } from './column-targets.js';
import { type ColumnRole, headerWords, inferColumns, placeOf, roleByWords } from './columns.js';
import { MappingError } from './errors.js';
import { type ExportProfile, recogniseExport } from './exports.js';
import { type RegionSource, regionSources } from './regions.js';
import { type Cell, REJECT_KEYS } from './sources/types.js';
import { attributeTypeOf, cleanCell, type DateOrder, GOOGLE_MULTI_VALUE } from './values.js';

export interface ColumnMapping {
  /** The header the mapping was made for. */
  header: string[];
  /** By column index: what the column fills (often one thing; none when it is ignored). */
  columns: ColumnTarget[][];
  /** Columns that map to nothing and were not ignored on purpose: report them once. */
  unmapped: string[];
  /**
   * By unmapped column: the attribute type its values in the sample ask for (`date` for a column
   * of dates), for the hint that says how to keep it; none for a column whose attribute is
   * defined (another column of that name fills it).
   */
  unmappedTypes: ReadonlyMap<string, AttributeType>;
  /** The export recognised by its header (its columns then follow the export's own table). */
  system: { id: string; label: string } | undefined;
  /**
   * The address columns that name a row's country where no country column does (`State` with
   * `Zip`: `TX`, `78701`), for its national phone numbers; none in a file without phones.
   */
  regionColumns?: RegionSource[];
  /** Columns filling `phonenumber`, in the order they are tried (main phone, mobile, others). */
  phoneColumns: number[];
  /** Columns filling `email`, in the order they are tried. */
  emailColumns: number[];
  /** Columns naming the row's country, in the order they are read. */
  countryColumns: number[];
  /**
   * By phone column: the country columns that place its national numbers, in order (the one of
   * the same address first, `Work Phone` with `Work Country`, then the others).
   */
  phoneCountryColumns: Map<number, number[]>;
  /** Columns whose role their values decided (no header word said it, or one said otherwise). */
  byValues: number[];
  /**
   * What reading the columns decided that the user should hear once: a header word the values
   * overruled, an id column that cannot key the contacts, a key taken from a unique column.
   */
  decisions: string[];
  /** Columns left unread whose values look like phones, emails or countries: worth a --map. */
  lookAlikes: { header: string; field: 'phonenumber' | 'email' | 'country'; with: string[] }[];
  /** The file has no id column: the email (the first email column's header) is the external_id. */
  keyFromEmail: string | undefined;
  /** How several values in one email or phone cell are separated (the first value is used). */
  multiValue: string[];
  /** The recognised export's own order of slash dates, for a column its values leave open. */
  dateOrder?: DateOrder | undefined;
  /**
   * The file is this tool's own export (external_id beside created_at/updated_at): its cells are
   * read exactly as written (spaces kept, `""` the empty string), so export -> import is exact.
   */
  exact?: boolean;
  /**
   * Names are kept as written, never read "Last, First" to "First Last": the file is keyed by an
   * `external_id` column (this tool's template and exports, what scripts write for the API), or
   * `--map` named the name's column.
   */
  namesAsWritten?: boolean;
}

/** A column that fills a date or number attribute: how it writes its values is read from them. */
export interface AttributeColumn {
  index: number;
  /** Its header, trimmed. */
  header: string;
}

/** The columns of the mapping that fill an attribute the agent defines with this type. */
export function attributeColumns(
  mapping: ColumnMapping,
  definitions: Iterable<AttributeDefinition>,
  type: AttributeType,
): AttributeColumn[] {
  const names = new Set<string>();
  for (const d of definitions) if (d.type === type) names.add(d.name);
  return mapping.columns.flatMap((targets, index) =>
    targets.some((t) => t.kind === 'attribute' && names.has(t.name))
      ? [{ index, header: mapping.header[index]!.trim() }]
      : [],
  );
}

/** A role in the words of a sentence (`Column "Contact" holds email addresses`). */
const NUMBER_WORDS = new Set(['number', 'num', 'no', 'nr', '#']);
/** A header read as an id only for its word `number` (`Contact No.`). */
const numberIsAllItSays = (header: string) => {
  const words = headerWords(header);
  return (
    words.some((w) => NUMBER_WORDS.has(w)) && roleByWords(words.filter((w) => !NUMBER_WORDS.has(w))) !== 'id'
  );
};

const ROLE_WORDS: Record<ColumnRole, string> = {
  id: 'an id',
  email: 'email addresses',
  phone: 'phone numbers',
  country: 'countries',
  first: 'first names',
  middle: 'middle names',
  suffix: 'name suffixes',
  last: 'last names',
  name: 'names',
};

/**
 * Whether a header is a common name of a field (`Email`, `ID`, `Work Phone`): what tells it from a
 * column that is one export's own (`Record ID`, `EUID`) and no sign of that export.
 */
export function isGenericHeader(header: string): boolean {
  const role = roleByWords(headerWords(header));
  return role !== undefined && role !== 'none';
}

/** The service's own fields of a contact record (normalised): never input, so never "unmapped". */
const RECORD_FIELDS = new Set(READ_ONLY_CONTACT_FIELDS.map(normalizeHeader));

// A custom field's system prefix (Close's `custom.Company`, `cf_company`, `Custom Field: Seats`),
// set off from the field's name by a separator or a capital (`cfCompany`): `CFO` is no prefix.
const CUSTOM_PREFIX_RE = /^(?:custom[^\p{L}\p{N}]*fields?|custom|cf)/u;

/** The header without its custom-field prefix, or undefined where it has none. */
function withoutCustomPrefix(header: string): string | undefined {
  const cell = header.trim();
  const prefix = CUSTOM_PREFIX_RE.exec(cell.toLowerCase())?.[0];
  if (!prefix || prefix.length === cell.length) return undefined;
  const next = cell[prefix.length]!;
  const separated = !/[\p{L}\p{N}]/u.test(next);
  const capital = next !== next.toLowerCase() && cell[prefix.length - 1] === prefix[prefix.length - 1];
  return separated || capital ? cell.slice(prefix.length) : undefined;
}

/** `E-mail Address` -> `emailaddress`: case, spaces, `_`, `-` and other punctuation do not count. */
export function normalizeHeader(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Latin letters without their accents (`Société`: `Societe`), as attribute names are written
 * (`a-z0-9_`); other scripts' marks stay (a kana's voicing is part of its letter).
 */
export function withoutAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(/(?<=\p{Script=Latin})\p{M}+/gu, '')
    .normalize('NFC');
}

export interface ResolveMappingOptions {
  header: string[];
  /** The agent's custom attribute definitions (archived ones too). */
  definitions: Iterable<AttributeDefinition>;
  overrides?: readonly MapOverride[] | undefined;
  /** The export, when the caller recognised it already (a JSON export, by its first object's keys). */
  profile?: ExportProfile | undefined;
  /**
   * The first rows of the file as read: their values confirm or overrule what the header's words
   * say of each column. Without them the words alone decide.
   */
  sample?: readonly (readonly Cell[])[] | undefined;
}

/**
 * Map the columns of a CSV header. In order of precedence: `--map` overrides; the rejects'
 * `_line`/`_error` columns (ignored silently); `attr.<name>` headers; the columns of a recognised
 * export (see exports.ts); contact field synonyms; headers naming a defined, non-archived
 * attribute. Each target is filled by one column at most (the first one wins and later ones are
 * unmapped), except phonenumber, email and country, which several columns fill in order: the
 * first usable value is taken. Without an id column the email is the key. Throws a MappingError
 * for an override naming no column or an undefined attribute, and when no column fills
 * `external_id` or `email`.
 */
export function resolveMapping({
  header,
  definitions,
  overrides = [],
  profile = recogniseExport(header),
  sample = [],
}: ResolveMappingOptions): ColumnMapping {
  const defs = [...definitions];
  const claims = new ColumnClaims(header.length, overrides);
  const { ordered } = claims;
  const label = (i: number) => (header[i]!.trim() ? header[i]!.trim() : `(column ${i + 1}, no header)`);
  const normalized = header.map(normalizeHeader);

  for (const override of overrides) {
    const i = findColumn(header, override.header);
    if (i === -1) {
      const columns = header.map((_, j) => label(j));
      const suggestion = didYouMean(override.header, header);
      throw new MappingError(
        `The file has no column "${override.header}" to override (columns: ${columns.join(', ')})${suggestion}`,
        { detail: { code: 'map_no_column', header: override.header, columns, suggestion } },
      );
    }
    claims.override(
      i,
      override.targets.map((target) => checkAttribute(target, defs, { override: override.header })),
    );
  }

  /** The first column no rule decided yet whose header is `wanted`, normalised. */
  const find = (wanted: string) => {
    const norm = normalizeHeader(wanted);
    return header.findIndex((_, j) => !claims.isDecided(j) && normalized[j] === norm);
  };

  header.forEach((cell, i) => {
    if (claims.isDecided(i)) return;
    const trimmed = cell.trim();
    if (trimmed === REJECT_KEYS.line || trimmed === REJECT_KEYS.error) {
      claims.decide(i, true);
    } else if (ATTR_PREFIX_RE.test(trimmed)) {
      const target = checkAttribute({ kind: 'attribute', name: trimmed.replace(ATTR_PREFIX_RE, '') }, defs, {
        column: trimmed,
      });
      // An archived attribute takes no values: its column (as in an export) is left out and
      // reported, rather than every row with a value being rejected. An override can still ask for it.
      const archived = target.kind === 'attribute' && defs.find((d) => d.name === target.name)?.archived;
      if (archived) claims.decide(i);
      else claims.claim(i, target);
    }
  });

  if (profile) claimProfile(profile, claims, find, header, normalized);

  // The contract's own field names are what they say, but `name` is read with the other name
  // columns (beside a `last_name` it is the first name) and a header that only resembles one
  // (`Phone Number`) with the other columns of its kind (a `Mobile` is tried before it).
  header.forEach((_, i) => {
    // The contract's names as written (`email`, not `E-mail`), and its id in any form.
    const field = CONTACT_FIELDS.find((f) =>
      f === 'external_id' || f === 'stripe_accounts'
        ? normalizeHeader(f) === normalized[i]
        : f !== 'name' && header[i]!.trim().toLowerCase() === f,
    );
    if (field && !claims.isDecided(i)) claims.claim(i, { kind: 'field', field });
  });

  // Every other column by its words and values. A header that is a defined attribute's name is
  // that attribute, unless it is a common name of a field no other column fills (an attribute
  // `mail` beside an `Email` column stays the attribute; alone, `mail` is the email).
  const byName = new Map(defs.filter((d) => !d.archived).map((d) => [normalizeHeader(d.name), d.name]));
  // A custom field under its system's prefix (Close's `custom.Company`, `cf_company`) is the
  // attribute of its own name.
  const exactly = (cell: string): string | undefined => {
    const named = byName.get(normalizeHeader(cell));
    if (named !== undefined) return named;
    const unprefixed = withoutCustomPrefix(cell);
    return unprefixed === undefined ? undefined : byName.get(normalizeHeader(unprefixed));
  };
  // Attribute names have no accents: `Société` fills `societe`, unless a column of the file is
  // named `Societe` itself.
  const namedExactly = new Set(header.flatMap((cell) => exactly(cell) ?? []));
  const activeByName = {
    has: (cell: string) => activeByName.get(cell) !== undefined,
    get: (cell: string): string | undefined => {
      const named = exactly(cell);
      if (named !== undefined) return named;
      const folded = exactly(withoutAccents(cell));
      return folded !== undefined && !namedExactly.has(folded) ? folded : undefined;
    },
  };
  const fieldOf: Record<string, string> = {
    id: 'external_id',
    email: 'email',
    phone: 'phonenumber',
    name: 'name',
  };
  const attributeOnly = (i: number) => {
    if (!activeByName.has(header[i]!)) return false;
    if (!isGenericHeader(header[i]!)) return true;
    const role = roleByWords(headerWords(header[i]!));
    return (
      typeof role !== 'string' ||
      role === 'none' ||
      claims.fills(fieldOf[role] ?? role) ||
      header.some((h, j) => j !== i && !claims.isDecided(j) && roleByWords(headerWords(h)) === role)
    );
  };
  // A recognised export's own email and phone columns are its whole list: a column it does not
  // name is not one of them (Mailchimp's OPTIN_IP is no phone).
  const exportChose = {
    email: profile !== undefined && ordered.email.length > 0,
    phone: profile !== undefined && ordered.phonenumber.length > 0,
  };
  const inferred = inferColumns(
    header,
    sample,
    (i) => claims.isDecided(i) || claims.isIgnored(i) || attributeOnly(i),
    ordered.email,
  );
  const indices = (role: ColumnRole) =>
    inferred.columns
      .flatMap((c, i) => (c?.role === role ? [{ i, rank: c.rank }] : []))
      .sort((a, b) => a.rank - b.rank)
      .map((c) => c.i);
  if (inferred.id !== undefined) claims.claim(inferred.id, { kind: 'field', field: 'external_id' });
  // `Name` beside a last name and no first name is the first name (`Nombre` + `Apellidos`,
  // MailerLite's `name` + `last_name`); beside a first name and no last name, the last (`Prénom` + `Nom`).
  const [names, firsts, lasts] = [indices('name'), indices('first'), indices('last')];
  const nameIs: ColumnTarget =
    firsts.length === 0 && lasts.length > 0
      ? { kind: 'first_name' }
      : lasts.length === 0 && firsts.length > 0
        ? { kind: 'last_name' }
        : { kind: 'field', field: 'name' };
  for (const i of names) claims.claim(i, nameIs);
  for (const i of firsts) claims.claim(i, { kind: 'first_name' });
  for (const i of indices('middle')) claims.claim(i, { kind: 'middle_name' });
  for (const i of indices('suffix')) claims.claim(i, { kind: 'name_suffix' });
  for (const i of lasts) claims.claim(i, { kind: 'last_name' });
  if (!exportChose.email)
    for (const i of indices('email')) claims.claim(i, { kind: 'field', field: 'email' });
  if (!exportChose.phone)
    for (const i of indices('phone')) claims.claim(i, { kind: 'field', field: 'phonenumber' });
  // The row's country only places a phone number: the column may also fill an attribute.
  if (!claims.overridden('country')) {
    for (const i of indices('country')) if (!claims.isIgnored(i)) claims.addCountry(i);
  }
  const label0 = (i: number) => JSON.stringify(label(i));
  const decisions: string[] = [];
  const byValues: number[] = [];
  for (const { index, header: said, values } of inferred.overruled) {
    if (!claims.targets(index).length && !ordered.country.includes(index)) continue;
    byValues.push(index);
    // `Contact Number`, `Text Reminder Number`: a phone number is a number too, nothing to tell.
    if (said === 'id' && values === 'phone' && numberIsAllItSays(header[index]!)) continue;
    decisions.push(
      `Column ${label0(index)} holds ${ROLE_WORDS[values]} (by its values), though its header reads as ${ROLE_WORDS[said]}: read as ${ROLE_WORDS[values]}`,
    );
  }
  inferred.columns.forEach((c, i) => {
    if (
      c?.by === 'values' &&
      !byValues.includes(i) &&
      (claims.targets(i).length > 0 || ordered.country.includes(i))
    )
      byValues.push(i);
  });
  const notKeys = inferred.notKeys.filter(({ index }) => claims.keyColumn() !== index);
  for (const { index, why } of notKeys) {
    decisions.push(`Column ${label0(index)} is not used as the contacts' key: ${why}`);
  }
  const mapsKey = overrides.some((o) =>
    o.targets.some((t) => t.kind === 'field' && (t.field === 'external_id' || t.field === 'email')),
  );
  if (claims.keyColumn() === -1 && inferred.uniqueColumn !== undefined && !mapsKey) {
    claims.claim(inferred.uniqueColumn, { kind: 'field', field: 'external_id' });
    const share = Math.round(inferred.emailShare * 100);
    decisions.push(
      `Most rows have no email (${share}% have one): external_id = ${label(inferred.uniqueColumn)}, a column filled and unique in every row`,
    );
  }
  header.forEach((cell, i) => {
    const name = claims.isDecided(i) ? undefined : activeByName.get(cell);
    if (name) claims.claim(i, { kind: 'attribute', name });
  });
  const lookAlikes = inferred.lookAlikes
    .filter(
      ({ index }) =>
        claims.targets(index).length === 0 && !claims.isIgnored(index) && !activeByName.has(header[index]!),
    )
    .map(({ index, looksLike }) => {
      const field = looksLike === 'phone' ? ('phonenumber' as const) : looksLike;
      // An override of a field replaces its automatic columns: the hint names those too, in order.
      return { header: label(index), field, with: ordered[field].map(label) };
    });
  // Each phone's country columns, its own address's first (`Work Phone` with `Work Country`),
  // however the columns were decided.
  const placeAt = (i: number) => placeOf(headerWords(header[i]!));
  const phoneCountryColumns = new Map<number, number[]>();
  for (const p of ordered.phonenumber) {
    const place = placeAt(p);
    const same = place ? ordered.country.filter((c) => placeAt(c) === place) : [];
    phoneCountryColumns.set(p, [...same, ...ordered.country.filter((c) => !same.includes(c))]);
  }

  let keyFromEmail: string | undefined;
  if (claims.keyColumn() === -1) {
    const emailColumn = ordered.email[0];
    if (emailColumn === undefined) {
      const columns = header.map((_, j) => label(j));
      const cannot = notKeys.map(({ index, why }) => ({ column: label(index), why }));
      throw new MappingError(
        `No column maps to external_id, and no email column can stand in for it (columns: ${columns.join(', ')})` +
          `${cannot.map(({ column, why }) => `; ${column} cannot: ${why}`).join('')}. ` +
          'Map one to external_id (a column can fill two fields: external_id and email).',
        { detail: { code: 'no_key_column', columns, notKeys: cannot } },
      );
    }
    keyFromEmail = label(emailColumn);
    claims.targets(emailColumn).push({ kind: 'field', field: 'external_id' });
  }

  // A file with external_id beside the record's timestamps is one of our exports (or alike): the
  // service's own fields (id, created_at, updated_at) are read-only, so they are skipped quietly.
  const externalIdColumn = claims.keyColumn();
  const looksExported =
    normalized[externalIdColumn] === 'externalid' &&
    (normalized.includes('createdat') || normalized.includes('updatedat'));
  if (looksExported) {
    header.forEach((_, i) => {
      if (claims.targets(i).length === 0 && !claims.isDecided(i) && RECORD_FIELDS.has(normalized[i]!))
        claims.ignore(i);
    });
  }
  // A country column read for phones only is used, not ignored.
  for (const i of ordered.country) if (!claims.targets(i).some((t) => t.kind === 'country')) claims.ignore(i);

  // An address or time zone that places phone numbers (`State + Zip`); its values are not
  // stored, so the column is still listed among those no field takes.
  const regionColumns =
    ordered.phonenumber.length === 0
      ? []
      : regionSources(header, sample, (i) => ordered.country.includes(i) || claims.isIgnored(i));

  const columns = claims.columns;
  const unmappedAt = header.flatMap((_, i) => (columns[i]!.length === 0 && !claims.isIgnored(i) ? [i] : []));
  const unmappedTypes = new Map<string, AttributeType>();
  // A column named like a defined attribute is unmapped only when another column fills it: no type to suggest.
  const defined = new Set(defs.map((d) => normalizeHeader(d.name)));
  for (const i of unmappedAt) {
    if (unmappedTypes.has(label(i)) || defined.has(normalized[i]!)) continue;
    const values = sample.flatMap((row) => {
      const cell = row[i];
      const value = cell === undefined ? '' : cleanCell(cell);
      return value === '' ? [] : [value];
    });
    unmappedTypes.set(label(i), attributeTypeOf(values));
  }
  return {
    header,
    columns,
    unmapped: unmappedAt.map(label),
    unmappedTypes,
    system: profile && { id: profile.id, label: profile.label },
    phoneColumns: ordered.phonenumber,
    emailColumns: ordered.email,
    countryColumns: ordered.country,
    phoneCountryColumns,
    regionColumns,
    byValues,
    decisions,
    lookAlikes,
    keyFromEmail,
    multiValue: [...new Set([GOOGLE_MULTI_VALUE, ...(profile?.multiValue ?? [])])],
    dateOrder: profile?.dateOrder,
    exact: looksExported,
    namesAsWritten:
      header.some((h) => h.trim() === 'external_id') ||
      overrides.some((o) => o.targets.some((t) => t.kind === 'field' && t.field === 'name')),
  };
}

/**
 * A recognised export's own columns: the id, the name (or its parts), emails, phones and
 * countries it has, in the table's order. What an override decided stays decided.
 */
function claimProfile(
  profile: ExportProfile,
  claims: ColumnClaims,
  find: (header: string) => number,
  header: string[],
  normalized: string[],
): void {
  const first = (names: readonly string[] | undefined, target: ColumnTarget) => {
    for (const name of names ?? []) {
      const i = find(name);
      if (i !== -1) {
        claims.claim(i, target);
        return;
      }
    }
  };
  const each = (names: readonly string[], target: ColumnTarget) => {
    for (const name of names) {
      const i = find(name);
      if (i !== -1) claims.claim(i, target);
    }
  };
  first(profile.key, { kind: 'field', field: 'external_id' });
  first(profile.name, { kind: 'field', field: 'name' });
  first(profile.first, { kind: 'first_name' });
  first(profile.middle, { kind: 'middle_name' });
  first(profile.suffix, { kind: 'name_suffix' });
  first(profile.last, { kind: 'last_name' });
  each(profile.email, { kind: 'field', field: 'email' });
  each(profile.phone, { kind: 'field', field: 'phonenumber' });
  // Country columns stay free for an attribute of that name: they only place phone numbers.
  if (claims.ordered.country.length === 0) {
    for (const name of profile.country) {
      const norm = normalizeHeader(name);
      const i = normalized.indexOf(norm);
      if (i !== -1 && header[i] !== undefined) claims.ordered.country.push(i);
    }
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
function checkAttribute(
  target: ColumnTarget,
  defs: AttributeDefinition[],
  /** Where the attribute is named: a column's header (`attr.plan`), or an override of a column. */
  at: { column: string } | { override: string },
): ColumnTarget {
  if (target.kind !== 'attribute') return target;
  const found =
    defs.find((d) => d.name === target.name) ??
    defs.find((d) => normalizeHeader(d.name) === normalizeHeader(target.name));
  if (!found) {
    const defined = defs.filter((d) => !d.archived).map((d) => d.name);
    const where = 'column' in at ? `Column "${at.column}"` : `The override of column "${at.override}"`;
    throw new MappingError(
      `${where}: custom attribute "${target.name}" is not defined for this agent ` +
        `(defined: ${defined.length ? defined.join(', ') : 'none'}); define it first, or map the column to -`,
      { detail: { code: 'attribute_not_defined', attribute: target.name, defined, ...at } },
    );
  }
  return { kind: 'attribute', name: found.name };
}
