// vCard files (2.1, 3.0, 4.0; one or many cards) read as rows of the contact fields: each card
// becomes external_id (UID, else the email), name (FN, else N), email, phonenumber, and company,
// birthday, note and title (ORG, BDAY, NOTE, TITLE: columns the mapping gives to attributes of
// those names where the agent defines them, as any column named after an attribute), mapped and
// checked like a CSV row. What else the cards hold is counted and said at the end. Read byte by byte a line at a time, so a property's CHARSET can decode
// its own bytes, and the lines of a property that is not wanted (a PHOTO's base64) are dropped
// as they stream, never assembled.

import { ImportError, SourceParseError } from '../errors.js';
import { joinName } from '../values.js';
import type { OpenedInput } from './input.js';
import { MAX_RECORD_CHARS, sizeText } from './record-limit.js';
import type { Cell, ImportSource, SourceRecord } from './types.js';

/** The columns every vCard row has, named as the importer maps them. */
export const VCARD_COLUMNS = [
  'external_id',
  'name',
  'email',
  'phonenumber',
  'country',
  'company',
  'birthday',
  'note',
  'title',
  // The card's next number, read where `phonenumber` cannot be (not of a card keyed by its number).
  'other_phonenumber',
] as const;

/** The properties that fill a custom attribute of the column's name where the agent defines one. */
export const VCARD_ATTRIBUTES = [
  { property: 'ORG', attribute: 'company', what: 'the organisation', type: 'text' },
  { property: 'BDAY', attribute: 'birthday', what: 'the birthday', type: 'date' },
  { property: 'NOTE', attribute: 'note', what: 'the notes', type: 'text' },
  { property: 'TITLE', attribute: 'title', what: 'the job title', type: 'text' },
] as const;

/** What a person keeps in a card that no field reads: counted, and said once the file is read. */
const UNREAD = new Set([
  'PHOTO',
  'URL',
  'NICKNAME',
  'CATEGORIES',
  'ROLE',
  'ANNIVERSARY',
  'IMPP',
  'X-SOCIALPROFILE',
  'RELATED',
  'X-ABRELATEDNAMES',
  'GENDER',
  'LOGO',
  // What Android's own export writes with no property of the standard's: a nickname, a relation,
  // an event (`X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Rav;1;...`).
  'X-ANDROID-CUSTOM',
]);

/** The properties read; any other is skipped with its continuation lines. */
const WANTED = new Set([
  'BEGIN',
  'END',
  'VERSION',
  'FN',
  'N',
  'EMAIL',
  'TEL',
  'UID',
  'ADR',
  'X-ABADR',
  'ORG',
  'BDAY',
  'NOTE',
  'TITLE',
]);
/** Longest property kept, in bytes (folded lines joined); a longer wanted one is an error. */
const MAX_PROPERTY_BYTES = 1024 * 1024;

interface Property {
  name: string;
  /** Parameter names upper-cased; 2.1's bare `CELL` is `TYPE=CELL`, bare `QUOTED-PRINTABLE` an encoding. */
  params: Map<string, string[]>;
  value: Buffer;
  line: number;
  /** A property not read (its value dropped as it streamed): only its name is known. */
  skipped?: true;
}

interface Card {
  line: number;
  /** Bytes of the properties read in it so far (those skipped, a PHOTO, are never held). */
  bytes: number;
  version: string;
  fn?: string;
  n?: string;
  uid?: string;
  /** ORG's first component: the organisation's name (the rest are its units). */
  org?: string;
  bday?: string;
  note?: string;
  title?: string;
  /** Names of the properties held that nothing reads (PHOTO, URL...), and whether ADR had a street. */
  unread: Set<string>;
  emails: { value: string; pref: number }[];
  tels: { value: string; pref: number; cell: boolean }[];
  /** The country component of each ADR: the card's country, for its national TEL numbers. */
  countries: { value: string; pref: number }[];
}

export interface VcardOptions {
  /** Most bytes of properties one card may hold; reading stops at one larger (default 16 MiB). */
  maxRecordChars?: number | undefined;
}

/**
 * Open a vCard input. The first card is read before this returns, so the note on how cards
 * without a UID are keyed can be said before the import starts.
 */
export async function openVcard(input: OpenedInput, options: VcardOptions = {}): Promise<ImportSource> {
  if (input.encoding.startsWith('utf-16')) {
    input.destroy();
    throw new ImportError(`${input.name}: a UTF-16 vCard file: save it as UTF-8 and import it again`);
  }
  const cards = readCards(input, options.maxRecordChars ?? MAX_RECORD_CHARS)[Symbol.asyncIterator]();
  let first: IteratorResult<Card>;
  try {
    first = await cards.next();
  } catch (error) {
    input.destroy();
    throw error;
  }
  if (first.done) {
    input.destroy();
    throw new ImportError(`${input.name}: the file holds no vCard (no BEGIN:VCARD line)`);
  }
  // Said once each, when the first card without a UID (and then without an EMAIL) is met.
  let keyedByEmail = false;
  let keyedByPhone = false;
  const noteKey = (card: Card) => {
    if (card.uid !== undefined) return;
    if (!keyedByEmail) {
      keyedByEmail = true;
      input.note({
        code: 'vcard_key',
        message:
          'Cards without a UID are keyed by their email: external_id = EMAIL (the preferred one), in lower case.',
        by: 'email',
      });
    }
    if (!keyedByPhone && card.emails.length === 0 && phoneKey(pickPhone(card.tels)) !== undefined) {
      keyedByPhone = true;
      input.note({
        code: 'vcard_key',
        message:
          "Cards with neither a UID nor an EMAIL (a phone's address book) are keyed by their number: " +
          'external_id = TEL (the one imported) in E.164 (+12065550116); a card whose number cannot be placed in a country is rejected.',
        by: 'phone',
      });
    }
  };
  // Each property that fills an attribute, said when the first card holding it is met.
  const said = new Set<string>();
  const noteAttributes = (card: Card) => {
    for (const { property, attribute, what } of VCARD_ATTRIBUTES) {
      if (said.has(property) || attributeValue(card, property) === undefined) continue;
      said.add(property);
      input.note({
        code: 'vcard_attribute',
        message: `Cards hold ${property} (${what}): it fills the custom attribute ${attribute} where the agent defines one`,
        property,
        attribute,
      });
    }
  };
  noteKey(first.value);
  noteAttributes(first.value);
  const unread = new UnreadTally();

  async function* records(): AsyncGenerator<SourceRecord> {
    let row = 0;
    try {
      for (let next = first; !next.done; next = await cards.next()) {
        noteKey(next.value);
        noteAttributes(next.value);
        unread.count(next.value);
        yield toRecord(next.value, ++row);
      }
      const message = unread.message();
      if (message) input.note({ code: 'vcard_unread', message, properties: unread.properties() });
    } finally {
      input.destroy();
    }
  }
  return {
    name: input.name,
    format: 'vcard',
    header: [...VCARD_COLUMNS],
    // Rejects are CSV; with a BOM a spreadsheet opens them as UTF-8.
    bom: true,
    records: records(),
    close: () => input.destroy(),
  };
}

/** A card's value of a property that fills an attribute. */
function attributeValue(
  card: Card,
  property: (typeof VCARD_ATTRIBUTES)[number]['property'],
): string | undefined {
  return property === 'ORG'
    ? card.org
    : property === 'BDAY'
      ? card.bday
      : property === 'NOTE'
        ? card.note
        : card.title;
}

/** How many cards held what no field reads: other emails and numbers, a street, PHOTO, URL... */
class UnreadTally {
  readonly #cards = new Map<string, number>();

  count(card: Card): void {
    const add = (what: string) => this.#cards.set(what, (this.#cards.get(what) ?? 0) + 1);
    if (card.emails.length > 1) add('EMAIL');
    if (card.tels.length > 1) add('TEL');
    for (const name of card.unread) add(name);
  }

  properties(): Record<string, number> {
    return Object.fromEntries(this.#cards);
  }

  message(): string | undefined {
    if (this.#cards.size === 0) return undefined;
    const label = (name: string) =>
      name === 'EMAIL'
        ? 'other EMAILs than the one imported'
        : name === 'TEL'
          ? 'other TELs than the one imported'
          : name === 'ADR'
            ? "ADR's street, city and postal code"
            : name === 'X-ANDROID-CUSTOM'
              ? "Android's X-ANDROID-CUSTOM (a nickname, relation or event)"
              : name;
    const parts = [...this.#cards].map(
      ([name, n]) =>
        `${label(name)} (${n} ${n === 1 ? 'card' : 'cards'}${name === 'ADR' ? '; its country places the phone' : ''})`,
    );
    return `Not imported from the cards, as no field holds them: ${parts.join(', ')}`;
  }
}

function toRecord(card: Card, row: number): SourceRecord {
  const email = pick(card.emails)?.value;
  const byPhone = card.uid === undefined && email === undefined;
  const id = card.uid ?? email?.toLowerCase() ?? phoneKey(pickPhone(card.tels));
  // FN written family name first (`Smith, John`) as N's parts say: N gives the spoken order.
  const name =
    card.fn !== undefined && !familyFirst(card.fn, card.n) ? card.fn : (nameFromN(card.n) ?? card.fn);
  const raw: Cell[] = [
    id,
    name,
    email,
    pickPhone(card.tels),
    pick(card.countries)?.value,
    card.org,
    card.bday,
    card.note,
    card.title,
    byPhone ? undefined : nextPhone(card.tels),
  ];
  const record: Record<string, unknown> = Object.create(null);
  VCARD_COLUMNS.forEach((column, i) => {
    record[column] = raw[i];
  });
  return {
    row,
    line: card.line,
    // A conflict names the card by its name: a vCard file's lines mean little to its owner.
    ...(name === undefined ? {} : { title: name }),
    record,
    raw,
    ...(id === undefined
      ? { error: 'The card has no UID, EMAIL or TEL: nothing to key the contact by' }
      : byPhone
        ? { keyedByPhone: true }
        : {}),
  };
}

/**
 * A number as a key until it is placed in a country: its digits and a leading `+` (`+1 (415)
 * 555-0101` -> `+14155550101`), the same however the card spaced it. Too few digits: none.
 */
function phoneKey(tel: string | undefined): string | undefined {
  if (tel === undefined) return undefined;
  const digits = tel.replace(/\D/g, '');
  if (digits.length < 5) return undefined;
  return (tel.trim().startsWith('+') ? '+' : '') + digits;
}

/** The preferred value: the lowest PREF (1 is most preferred), else the first. */
function pick<T extends { pref: number }>(values: T[]): T | undefined {
  let best: T | undefined;
  for (const v of values) if (!best || v.pref < best.pref) best = v;
  return best;
}

/** The number after the one `pickPhone` picks: a mobile one, else the first of the rest. */
function nextPhone(tels: Card['tels']): string | undefined {
  const first = pickPhone(tels);
  const rest = tels.filter((t) => t.value !== first);
  return (rest.find((t) => t.cell) ?? rest[0])?.value;
}

/** A preferred number first, else a mobile one, else the first. */
function pickPhone(tels: Card['tels']): string | undefined {
  const preferred = pick(tels.filter((t) => t.pref < NOT_PREFERRED));
  return (preferred ?? tels.find((t) => t.cell) ?? tels[0])?.value;
}

/**
 * N is Family;Given;Additional;Prefix;Suffix: as a person writes it, Prefix Given Additional
 * Family Suffix (a CJK name family first).
 */
function nameFromN(n: string | undefined): string | undefined {
  if (n === undefined) return undefined;
  const [family = '', given = '', additional = '', prefix = '', suffix = ''] = splitUnescaped(n, ';');
  const [p, g, a, f, s] = [prefix, given, additional, family, suffix].map((part) =>
    part.replaceAll(',', ' ').trim(),
  );
  const name = [p, joinName(g!, a!, f!), s].filter(Boolean).join(' ');
  return name || undefined;
}

/** Whether FN is exactly N's family name, a comma, then its given (and middle) name (`Smith, John` of `N:Smith;John`). */
function familyFirst(fn: string, n: string | undefined): boolean {
  const comma = fn.indexOf(',');
  if (n === undefined || comma <= 0) return false;
  const [family = '', given = '', additional = ''] = splitUnescaped(n, ';').map((part) =>
    part.replaceAll(',', ' ').trim(),
  );
  const after = fn.slice(comma + 1).trim();
  return (
    family !== '' &&
    given !== '' &&
    fn.slice(0, comma).trim() === family &&
    (after === given || after === `${given} ${additional}`)
  );
}

const NOT_PREFERRED = 101;

/** The cards of the input in order, each with the line of its BEGIN:VCARD. */
async function* readCards(input: OpenedInput, maxBytes: number): AsyncGenerator<Card> {
  let card: Card | null = null;
  for await (const property of readProperties(input)) {
    const fail = (reason: string) => new SourceParseError({ file: input.name, line: property.line, reason });
    const { name } = property;
    if (name === 'BEGIN') {
      const what = property.value.toString('latin1').trim().toUpperCase();
      if (what !== 'VCARD') {
        if (card) continue; // a nested object inside a card (2.1's AGENT) is not ours to read
        throw fail(`expected BEGIN:VCARD, found BEGIN:${what}`);
      }
      if (card)
        throw fail(`BEGIN:VCARD inside the card that begins on line ${card.line}: is an END:VCARD missing?`);
      card = {
        line: property.line,
        bytes: 0,
        version: '3.0',
        emails: [],
        tels: [],
        countries: [],
        unread: new Set(),
      };
      continue;
    }
    if (property.skipped) {
      card?.unread.add(name);
      continue;
    }
    if (!card) throw fail(`expected BEGIN:VCARD, found ${name}`);
    card.bytes += property.value.length;
    if (card.bytes > maxBytes) {
      throw new SourceParseError({
        file: input.name,
        line: card.line,
        reason:
          `the card that begins here holds more than ${sizeText(maxBytes, 'bytes')}, far more than a ` +
          'contact (is its END:VCARD missing?)',
      });
    }
    if (name === 'END') {
      const what = property.value.toString('latin1').trim().toUpperCase();
      if (what !== 'VCARD') continue;
      yield card;
      card = null;
      continue;
    }
    if (name === 'VERSION') {
      card.version = property.value.toString('latin1').trim();
      continue;
    }
    const text = decodeValue(property, input, fail);
    switch (name) {
      case 'FN': {
        const fn = unescapeText(text, card.version).trim();
        if (fn && card.fn === undefined) card.fn = fn;
        break;
      }
      case 'N':
        if (card.n === undefined) card.n = text;
        break;
      case 'UID': {
        const uid = unescapeText(text, card.version).trim();
        if (uid && card.uid === undefined) card.uid = uid;
        break;
      }
      case 'EMAIL': {
        const value = unescapeText(text, card.version).trim();
        if (value) card.emails.push({ value, pref: preference(property.params) });
        break;
      }
      case 'ORG': {
        // ORG is organisation;unit;...: the name, `\,` and `\;` unescaped (as ADR's parts are).
        const org = (splitUnescaped(text, ';')[0] ?? '').trim();
        if (org && card.org === undefined) card.org = org;
        break;
      }
      case 'ADR': {
        // ADR is PO box;extended;street;locality;region;postal code;country: the country as
        // written (`United Kingdom`, `UK`, `GB`), read like a CSV row's country column.
        const parts = splitUnescaped(text, ';');
        const country = (parts[6] ?? '').trim();
        if (country) card.countries.push({ value: country, pref: preference(property.params) });
        if (parts.slice(0, 6).some((part) => part.trim())) card.unread.add('ADR');
        break;
      }
      case 'BDAY': {
        // 3.0's and 4.0's basic form `19850412` in ISO's extended one; `--0412` (no year) as written.
        const bday = unescapeText(text, card.version).trim();
        const [, year, month, day] = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(bday) ?? [];
        // Apple writes a birthday without its year in a year it names (`X-APPLE-OMIT-YEAR=1604`).
        const omitted = year !== undefined && property.params.get('X-APPLE-OMIT-YEAR')?.[0] === year;
        if (bday && card.bday === undefined)
          card.bday = year === undefined ? bday : omitted ? `--${month}${day}` : `${year}-${month}-${day}`;
        break;
      }
      case 'NOTE':
      case 'TITLE': {
        const value = unescapeText(text, card.version).trim();
        const field = name === 'NOTE' ? 'note' : 'title';
        if (value && card[field] === undefined) card[field] = value;
        break;
      }
      case 'X-ABADR': {
        // Apple's address book writes an address's country as an ISO code beside it
        // (`item3.X-ABADR:fr`), often with ADR's own country left empty.
        const code = unescapeText(text, card.version).trim();
        if (code) card.countries.push({ value: code, pref: NOT_PREFERRED });
        break;
      }
      case 'TEL': {
        // 4.0 writes numbers as tel: URIs, with an extension as a parameter of the URI.
        const value = unescapeText(text, card.version)
          .trim()
          .replace(/^tel:/i, '')
          .replace(/;.*$/, '')
          .trim();
        if (value)
          card.tels.push({
            value,
            pref: preference(property.params),
            cell: isMobile(property.params),
          });
        break;
      }
    }
  }
  if (card) {
    throw new SourceParseError({
      file: input.name,
      line: card.line,
      reason: 'the file ends inside this card: its END:VCARD is missing (is the file cut short?)',
    });
  }
}

/**
 * How preferred a value is: 4.0's PREF=1..100 (1 most); 3.0's TYPE=pref and 2.1's bare PREF
 * count as 1; none is least preferred.
 */
function preference(params: Map<string, string[]>): number {
  const pref = params.get('PREF');
  if (pref) {
    const n = Number(pref[0]);
    return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 1;
  }
  return hasType(params, 'PREF') ? 1 : NOT_PREFERRED;
}

/** CELL in every version; Apple marks an iPhone's number IPHONE, some phones MOBILE. */
function isMobile(params: Map<string, string[]>): boolean {
  return hasType(params, 'CELL') || hasType(params, 'IPHONE') || hasType(params, 'MOBILE');
}

function hasType(params: Map<string, string[]>, type: string): boolean {
  return (params.get('TYPE') ?? []).some((t) => t.toUpperCase() === type);
}

/**
 * A property value as text: quoted-printable decoded (2.1), then the bytes read in the
 * property's CHARSET, else in the file's encoding (UTF-8 unless --encoding says otherwise).
 */
function decodeValue(property: Property, input: OpenedInput, fail: (reason: string) => Error): string {
  const encoding = (property.params.get('ENCODING')?.[0] ?? '').toUpperCase();
  const bytes = encoding === 'QUOTED-PRINTABLE' ? decodeQuotedPrintable(property.value) : property.value;
  const charset = property.params.get('CHARSET')?.[0];
  let label = input.encoding;
  if (charset) {
    try {
      label = new TextDecoder(charset).encoding;
    } catch {
      throw fail(`unknown CHARSET "${charset}" on ${property.name}`);
    }
  }
  try {
    return new TextDecoder(label, { fatal: label === 'utf-8' }).decode(bytes);
  } catch {
    throw new SourceParseError({
      file: input.name,
      line: property.line,
      reason: `${property.name} is not valid UTF-8 and names no CHARSET`,
      detail: { code: 'not_utf8', file: input.name, encoding: 'windows-1252', looks: false },
    });
  }
}

function decodeQuotedPrintable(bytes: Buffer): Buffer {
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x3d /* = */) {
      const hex = bytes.toString('latin1', i + 1, i + 3);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        out[n++] = Number.parseInt(hex, 16);
        i += 2;
        continue;
      }
      // A soft line break that survived joining (`=` then the line end): nothing.
      if (i + 1 >= bytes.length) continue;
    }
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/** 3.0/4.0 text escapes (`\n`, `\,`, `\;`, `\\`); 2.1 escapes only `\;`. */
function unescapeText(text: string, version: string): string {
  if (version === '2.1') return text.replaceAll('\\;', ';');
  return text.replace(/\\([nN,;\\:])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Split at unescaped separators, unescaping each part. */
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[++i]!;
      current += next === 'n' || next === 'N' ? '\n' : next;
    } else if (c === separator) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/**
 * The properties of the input, folded lines joined: a line starting with a space or a tab
 * continues the one before (3.0, 4.0 and most 2.1 writers), and a quoted-printable value whose
 * line ends with `=` goes on on the next line (2.1's soft line break).
 */
async function* readProperties(input: OpenedInput): AsyncGenerator<Property> {
  let physical = 0;
  let pending: { line: number; parts: Buffer[]; size: number; qp: boolean } | null = null;
  // The property being skipped, with the rule for its continuation lines.
  let skipping: { qp: boolean; softBreak: boolean } | null = null;

  const finish = (): Property | null => {
    if (!pending) return null;
    const text = Buffer.concat(pending.parts);
    const line = pending.line;
    pending = null;
    return parseProperty(text, line, input.name);
  };

  for await (const rawLine of physicalLines(input)) {
    physical++;
    let bytes = rawLine.bytes;
    if (physical === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
      bytes = bytes.subarray(3);
    const continues = bytes[0] === 0x20 || bytes[0] === 0x09;
    if (skipping) {
      const soft = skipping.softBreak;
      if (continues || soft) {
        skipping.softBreak = skipping.qp && endsWithSoftBreak(bytes);
        continue;
      }
      skipping = null;
    }
    if (pending) {
      const soft = pending.qp && endsWithSoftBreak(pending.parts.at(-1)!);
      if (soft) {
        const last = pending.parts.at(-1)!;
        pending.parts[pending.parts.length - 1] = last.subarray(0, last.length - 1);
        pending.parts.push(bytes);
        pending.size += bytes.length;
      } else if (continues) {
        pending.parts.push(bytes.subarray(1));
        pending.size += bytes.length;
      } else {
        const property = finish();
        if (property) yield property;
      }
      if (pending) {
        if (pending.size > MAX_PROPERTY_BYTES) {
          throw new SourceParseError({
            file: input.name,
            line: pending.line,
            reason: `a property longer than ${MAX_PROPERTY_BYTES / 1024 / 1024} MiB`,
          });
        }
        continue;
      }
    }
    if (rawLine.truncated || isBlank(bytes)) {
      // A blank line between cards (or a line too long to be anything we read) is nothing to us.
      if (rawLine.truncated && wantedName(bytes)) {
        throw new SourceParseError({
          file: input.name,
          line: physical,
          reason: `a line longer than ${MAX_PROPERTY_BYTES / 1024 / 1024} MiB`,
        });
      }
      continue;
    }
    const qp = /ENCODING=QUOTED-PRINTABLE|;QUOTED-PRINTABLE[;:]/i.test(headOf(bytes));
    const name = propertyName(bytes);
    if (!name || !WANTED.has(name)) {
      skipping = { qp, softBreak: qp && endsWithSoftBreak(bytes) };
      if (name && UNREAD.has(name))
        yield { name, params: new Map(), value: EMPTY, line: physical, skipped: true };
      continue;
    }
    pending = { line: physical, parts: [bytes], size: bytes.length, qp };
  }
  const property = finish();
  if (property) yield property;
}

/** The text before the value (name and parameters), for a quick look at a line. */
function headOf(bytes: Buffer): string {
  const colon = bytes.indexOf(0x3a);
  return bytes.toString('latin1', 0, colon === -1 ? Math.min(bytes.length, 256) : colon + 1);
}

function endsWithSoftBreak(bytes: Buffer): boolean {
  return bytes.length > 0 && bytes[bytes.length - 1] === 0x3d;
}

const isBlank = (bytes: Buffer) => bytes.every((b) => b === 0x20 || b === 0x09);

const EMPTY = Buffer.alloc(0);

/** The name of the property a line opens, upper-cased, less any `item1.` group. */
function propertyName(bytes: Buffer): string | undefined {
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 128));
  return /^(?:[A-Za-z0-9-]+\.)?([A-Za-z0-9-]+)[;:]/.exec(head)?.[1]?.toUpperCase();
}

/** Whether a line opens a property we read. */
function wantedName(bytes: Buffer): boolean {
  const name = propertyName(bytes);
  return name !== undefined && WANTED.has(name);
}

/** `[group.]NAME[;param...]:value`; a line that is not one is an error naming its line. */
function parseProperty(bytes: Buffer, line: number, file: string): Property {
  // The value starts at the first colon outside a quoted parameter value.
  let colon = -1;
  let quoted = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x22) quoted = !quoted;
    else if (b === 0x3a && !quoted) {
      colon = i;
      break;
    }
  }
  const head = bytes.toString('latin1', 0, colon === -1 ? bytes.length : colon);
  if (colon === -1) {
    throw new SourceParseError({
      file,
      line,
      reason: `expected NAME:value, found "${head.slice(0, 40)}"`,
    });
  }
  const [nameWithGroup = '', ...rawParams] = splitParams(head);
  const name = nameWithGroup.replace(/^.*\./, '').toUpperCase();
  const params = new Map<string, string[]>();
  const add = (key: string, values: string[]) => params.set(key, [...(params.get(key) ?? []), ...values]);
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    if (eq === -1) {
      // 2.1 writes bare parameters: `TEL;CELL;PREF`, `;QUOTED-PRINTABLE`, `;BASE64`.
      const bare = param.trim().toUpperCase();
      if (bare === 'QUOTED-PRINTABLE' || bare === 'BASE64' || bare === '8BIT' || bare === '7BIT')
        add('ENCODING', [bare]);
      else if (bare) add('TYPE', [bare]);
      continue;
    }
    const key = param.slice(0, eq).trim().toUpperCase();
    const values = param
      .slice(eq + 1)
      .split(',')
      .map((v) => v.trim().replace(/^"(.*)"$/, '$1'))
      .filter(Boolean);
    add(key, key === 'TYPE' ? values.map((v) => v.toUpperCase()) : values);
  }
  return { name, params, value: bytes.subarray(colon + 1), line };
}

/** Parameters split at `;` outside quotes. */
function splitParams(head: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const c of head) {
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/**
 * Physical lines as bytes, without their CR LF. A line past the property limit is cut there and
 * the rest of it dropped as it arrives (`truncated`), so a long base64 line is never held whole.
 */
async function* physicalLines(input: OpenedInput): AsyncGenerator<{ bytes: Buffer; truncated: boolean }> {
  let carry: Buffer[] = [];
  let carried = 0;
  let dropping = false;
  const take = (piece: Buffer) => {
    if (dropping) return;
    if (carried + piece.length > MAX_PROPERTY_BYTES) {
      const room = MAX_PROPERTY_BYTES - carried;
      carry.push(piece.subarray(0, Math.max(0, Math.min(room, 256))));
      dropping = true;
      return;
    }
    carry.push(piece);
    carried += piece.length;
  };
  const line = () => {
    let bytes = carry.length === 1 ? carry[0]! : Buffer.concat(carry);
    if (bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    const result = { bytes, truncated: dropping };
    carry = [];
    carried = 0;
    dropping = false;
    return result;
  };
  for await (const chunk of input.chunks) {
    let from = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, from)) {
      take(chunk.subarray(from, nl));
      yield line();
      from = nl + 1;
    }
    if (from < chunk.length) take(chunk.subarray(from));
  }
  if (carried > 0 || dropping) yield line();
}

/** Cards in a vCard input, for a progress total: lines that are BEGIN:VCARD. */
export async function countVcards(input: OpenedInput): Promise<number> {
  let count = 0;
  for await (const { bytes } of physicalLines(input)) {
    if (
      bytes.length >= 11 &&
      bytes.length < 20 &&
      /^(\xEF\xBB\xBF)?BEGIN:VCARD\s*$/i.test(bytes.toString('latin1'))
    )
      count++;
  }
  return count;
}
