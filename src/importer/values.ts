// Cell values as other systems write them: a spreadsheet's leading apostrophe, padding, several
// values in one cell, dates in vendor and spreadsheet forms, and yes/no booleans. Each reader
// returns the value the contract takes, or undefined when it cannot read the text.

import { type AttributeType, attributeTextSchemas, separatedNumber } from '../api/attribute.js';
import { zonedTimeToUtc } from '../util/time-zone.js';
import type { DATE_ORDERS } from './format-names.js';

/**
 * The apostrophe a spreadsheet keeps a value as text with: before a number, a phone, a date or a
 * formula's first character (`'00123`, `'+44...`, `'=A1`), not before a word (`'Tis`).
 */
const TEXT_FORCED_RE = /^'[\d+=\-@\t\r(.']/;

/** A cell as a value: a leading spreadsheet apostrophe (`'7210448301122`) off, then trimmed. */
export function cleanCell(value: string): string {
  const text = value.charCodeAt(0) === 0x27 && TEXT_FORCED_RE.test(value) ? value.slice(1) : value;
  // Only pay for trim() when there is something to trim.
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return first <= 0x20 || last <= 0x20 || first === 0xa0 || last === 0xa0 ? text.trim() : text;
}

/** A name's suffixes and degrees: after the given name, they go after the whole name. */
const SUFFIX_WORDS = new Set([
  'jr',
  'sr',
  'ii',
  'iii',
  'iv',
  'esq',
  'phd',
  'md',
  'dds',
  'dmd',
  'dvm',
  'jd',
  'mba',
  'rn',
  'cpa',
]);
/** A company's form after a comma (`Acme, Inc.`): no person's name. */
const COMPANY_WORDS = new Set([
  ...['inc', 'ltd', 'llc', 'llp', 'plc', 'co', 'corp', 'gmbh', 'ag', 'kg', 'sa', 'sas', 'sarl', 'srl', 'spa'],
  ...['bv', 'nv', 'oy', 'ab', 'as', 'pty', 'limited', 'company'],
]);
/** Titles, which a name written last name first may put before the last name (`Dr. Smith, Ann`). */
const TITLE_WORDS = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'prof',
  'rev',
  'fr',
  'sir',
  'dame',
  'hon',
  'capt',
  'rabbi',
  'pastor',
]);
/** Each side of a "Last, First" name: letters, with marks, apostrophes, periods, hyphens, spaces, asides. */
const NAME_SIDE_RE = /^[\p{L}("\u201c][\p{L}\p{M}'\u2019.\- ()"\u201c\u201d]*$/u;
/** Scripts whose names are written family name first with no comma. */
const FAMILY_FIRST_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const bare = (word: string) => word.replace(/\./g, '').toLowerCase();

/** A meeting's tag after a guest's or an outside user's name: `Ann Lee (Guest)`, `Jörg Müller (Extern)`. */
const GUEST_TAG_RE =
  /\s*\((?:guest|gast|gäst|invité|invitée|invitado|invitada|ospite|external|extern|externe|externo|externa|esterno)\)$/iu;

/** A name without the tag a meeting puts after a guest's or an outside user's (Teams' `(Extern)`). */
export function withoutGuestTag(name: string): string {
  return name.includes('(') ? name.replace(GUEST_TAG_RE, '') : name;
}

/**
 * A person's name written "Last, First", as a directory sorts it (Outlook's File As, Airtable's
 * and many CRMs' exports), in the order it is said: `Hopper, Grace` is `Grace Hopper`, `Dr.
 * Smith, Ann` is `Dr. Ann Smith`, `Smith, John Jr.` is `John Smith Jr.`. Kept as written: a
 * suffix, degree or company form alone after the comma (`King, Jr.`, `Acme, Inc.`), a second
 * comma, a side that is no name (digits, `&`) or longer than four words, and CJK names.
 */
export function spokenName(text: string): string {
  const comma = text.indexOf(',');
  if (comma < 0 || text.includes(',', comma + 1) || FAMILY_FIRST_RE.test(text)) return text;
  const last = text.slice(0, comma).trim();
  const first = text.slice(comma + 1).trim();
  if (!NAME_SIDE_RE.test(last) || !NAME_SIDE_RE.test(first)) return text;
  const lastWords = last.split(/\s+/);
  const firstWords = first.split(/\s+/);
  if (firstWords.length > 4 || lastWords.length > 4) return text;
  if (firstWords.some((w) => COMPANY_WORDS.has(bare(w)))) return text;
  if (lastWords.every((w) => TITLE_WORDS.has(bare(w)))) return text;
  const titles: string[] = [];
  while (lastWords.length > 1 && TITLE_WORDS.has(bare(lastWords[0]!))) titles.push(lastWords.shift()!);
  const suffixes: string[] = [];
  while (firstWords.length > 0 && SUFFIX_WORDS.has(bare(firstWords.at(-1)!)))
    suffixes.unshift(firstWords.pop()!);
  if (firstWords.length === 0) return text;
  return [...titles, ...firstWords, ...lastWords, ...suffixes].join(' ');
}

/**
 * A name from its parts, in the order said: given, middle, family; family first for a CJK name
 * (`山田 太郎`), as its own script writes it.
 */
export function joinName(first: string, middle: string, last: string): string {
  const parts = FAMILY_FIRST_RE.test(first + last) ? [last, first, middle] : [first, middle, last];
  return parts.filter(Boolean).join(' ');
}

/** Separators of several values in one cell: Google Contacts' ` ::: `, and the vendor's own. */
export const GOOGLE_MULTI_VALUE = ' ::: ';

/** Every value of a cell that may hold several (`a ::: b`), in order; the cell itself otherwise. */
export function cellValues(value: string, separators: readonly string[]): string[] {
  for (const sep of separators) {
    if (!value.includes(sep)) continue;
    return value
      .split(sep)
      .map((p) => p.trim())
      .filter(Boolean);
  }
  return [value];
}

/** A number's label as a report writes it before the number: `Mobile:`, `Tel.:`, `Phone 2:`. */
const PHONE_LABEL_RE = /^\p{L}[\p{L}\d .]{0,20}:\s*/u;

/**
 * The numbers in a phone cell that holds several, as CRMs and reports write them: `+44 20 7946
 * 0018, +44 7911 123456` (Attio), `Phone:(415) 555-0161 Mobile:(415) 555-0199` (QuickBooks); each
 * part holds seven digits or more, else the cell is one number as written (`555-0101, ext 12`).
 * Labels are taken off.
 */
export function phonesIn(text: string): string[] {
  if (!/[,;:\n]/.test(text)) return [text];
  const labelled = text.split(/\s+(?=\p{L}[\p{L}\d .]{0,20}:)/u);
  const parts = labelled
    .flatMap((part) => part.split(/\s*[,;\n]\s*/))
    .map((p) => p.replace(PHONE_LABEL_RE, '').trim());
  const numbers = parts.filter(Boolean);
  if (numbers.length > 1 && numbers.every((p) => (p.match(/\d/g)?.length ?? 0) >= 7))
    return [...new Set(numbers)];
  return [text.replace(PHONE_LABEL_RE, '')];
}

/** The first of several values in a cell, and how many there were (1 when it holds one). */
export function firstValue(value: string, separators: readonly string[]): { value: string; count: number } {
  for (const sep of separators) {
    if (!value.includes(sep)) continue;
    const parts = value
      .split(sep)
      .map((p) => p.trim())
      .filter(Boolean);
    return { value: parts[0] ?? '', count: parts.length };
  }
  return { value, count: 1 };
}

/**
 * The address in an email cell as mail programs write one: `Ada Lovelace <ada@example.com>`,
 * `mailto:ada@example.com`, or the first of `ada@example.com; ada.alt@example.com`. Anything else
 * as it is (the contract's check says what is wrong with it).
 */
export function emailIn(text: string): string {
  if (!text.includes('@') || !/[<;,(]|^mailto:/i.test(text)) return text;
  // `ada@example.com (Ada Lovelace)`, the older form
  const commented = /^(\S+@\S+)\s*\([^()]*\)$/.exec(text);
  if (commented) return commented[1]!;
  const angled = /<([^<>\s]+@[^<>\s]+)>/.exec(text);
  const value = angled ? angled[1]! : (text.split(/\s*[;,]\s*/).find((part) => part.includes('@')) ?? text);
  return value.replace(/^mailto:/i, '');
}

// With the words a localized export writes: German (Outlook's `Ein`/`Aus`), French, Spanish,
// Italian, Portuguese and Dutch.
const TRUE_WORDS = new Set([
  'true',
  '1',
  'yes',
  'y',
  'on',
  'checked',
  'ja',
  'ein',
  'wahr',
  'oui',
  'vrai',
  'sí',
  'sì',
  'si',
  'sim',
  'verdadero',
  'vero',
  'verdadeiro',
  'waar',
]);
const FALSE_WORDS = new Set([
  'false',
  '0',
  'no',
  'n',
  'off',
  'unchecked',
  'nein',
  'aus',
  'falsch',
  'non',
  'faux',
  'não',
  'nao',
  'falso',
  'nee',
  'onwaar',
]);

/** The yes/no words no country code or name shares: alone in a column, they make it yes/no. */
const ENGLISH_BOOLEAN_WORDS = new Set([
  'true',
  'false',
  '1',
  '0',
  'yes',
  'no',
  'y',
  'n',
  'on',
  'off',
  'checked',
  'unchecked',
]);

/**
 * `yes`/`no`, `y`/`n`, `on`/`off`, `checked`, `TRUE`/`FALSE`, `1`/`0`, and the same in German,
 * French, Spanish, Italian, Portuguese and Dutch (`ja`/`nein`, `Ein`/`Aus`, `oui`/`non`, `sí`, `sì`,
 * `sim`/`não`, `nee`), in any case.
 */
export function readBoolean(text: string): boolean | undefined {
  // `sí` as macOS may write it, an accent apart.
  const s = text.normalize('NFC').toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  return undefined;
}

export type DateOrder = (typeof DATE_ORDERS)[number];

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// `2024-03-22 17:59`, `2023-11-12 00:28:15`, `2024-03-22T17:59:00.000Z`, `... UTC`, `... +01:00`.
const ISO_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;
// `9/20/2022`, `20/09/2022`, `20.09.2022`, with an optional time `5:03 PM` / `17:03:59`.
const SLASH_RE =
  /^(\d{1,2})([/.])(\d{1,2})\2(\d{4}|\d{2})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const YMD_SLASH_RE = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;
const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
// Spreadsheet text dates: `22-Mar-2024`, `22 Mar 2024`, `22 March 2024`, `Mar 22, 2024`, `March 22 2024`.
/** A time after a date: `9:00 AM`, `17:59`, `17:59:30` (groups: hour, minute, second, AM/PM). */
const TIME = '(?:,?\\s+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*([AaPp][Mm])?)?';
const DAY_MONTH_RE = new RegExp(`^(\\d{1,2})[-\\s]([A-Za-z]{3,9})\\.?[-\\s,]+(\\d{4}|\\d{2})${TIME}$`);
/** `March 22, 2024`, and with a time as Notion writes it (`April 10, 2026 9:00 AM`). */
const MONTH_DAY_RE = new RegExp(`^([A-Za-z]{3,9})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})${TIME}$`);

/**
 * Which order a slash date column is in, from one value: `mdy` or `dmy` when a part above 12
 * decides it, `either` when both read (`3/4/2024`), undefined when it is no slash date.
 */
export function slashDateOrder(text: string): DateOrder | 'either' | undefined {
  const m = SLASH_RE.exec(text);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  if (a > 12 && b <= 12) return 'dmy';
  if (b > 12 && a <= 12) return 'mdy';
  if (a <= 12 && b <= 12) return 'either';
  return undefined;
}

/** A currency's symbol (`$`, `R$`, `US$`, `€`) or, apart from the number, its ISO code (`USD`, `EUR`). */
const CURRENCY = String.raw`([A-Z]{0,2}\$|[€£¥₹₩₽₺₪₫฿₦₱]|(?<=^|\s|[+-])[A-Z]{3}(?=\s|$))`;
const AMOUNT_BEFORE_RE = new RegExp(String.raw`^([+-]?)\s*${CURRENCY}\s*([+-]?\d[\d.,' \u00a0\u202f]*)$`);
const AMOUNT_AFTER_RE = new RegExp(String.raw`^([+-]?\d[\d.,' \u00a0\u202f]*?)\s*${CURRENCY}$`);
/** ISO 4217 codes, as the running Node knows them: `USD 9.99` is money, `CSE 101` and `150 LBS` are not. */
let isoCodes: ReadonlySet<string> | undefined;
function isCurrency(symbol: string): boolean {
  if (!/^[A-Z]{3}$/.test(symbol)) return true;
  isoCodes ??= new Set(Intl.supportedValuesOf('currency'));
  return isoCodes.has(symbol);
}

/**
 * An amount of money as the number it is (`$12,480.00` is `12,480.00`, `-$5` is `-5`, `12,50 €`
 * is `12,50`, `USD 9.99` is `9.99`): a number attribute takes the amount, not the currency.
 * Any other text is returned as it is.
 */
export function withoutCurrency(text: string): string {
  const before = AMOUNT_BEFORE_RE.exec(text);
  if (before) {
    const [, sign, symbol, number] = before;
    // `-$-5` has a sign too many: no amount.
    return isCurrency(symbol!) && !(sign && /^[+-]/.test(number!)) ? `${sign}${number!.trimEnd()}` : text;
  }
  const after = AMOUNT_AFTER_RE.exec(text);
  return after && isCurrency(after[2]!) ? after[1]!.trimEnd() : text;
}

/** A decimal point that no thousands separator could be: not three digits behind it, or `0.` before. */
const DECIMAL_POINT_RE = /^[+-]?(?:\d+\.(?:\d{1,2}|\d{4,})|0\.\d+|\d{4,}\.\d+)$/;

/**
 * The decimal mark a number as written shows its writer uses: `,` for `3,5`, `1.234,56`,
 * `1.234.567`; `.` for `3.5`, `1,234.56`, `1,234,567`; undefined when it shows none (`1,200`,
 * `1.200`, `1200`). Without `plainShowsMark`, plain numeric text (`3.5`) shows none: a workbook's
 * number cells read so in any locale.
 */
export function decimalMarkOf(written: string, plainShowsMark = true): ',' | '.' | undefined {
  const text = withoutCurrency(written);
  if (plainShowsMark && DECIMAL_POINT_RE.test(text)) return '.';
  return separatedNumber(text)?.decimalMark;
}

/**
 * Whether the text is a date-time written without a zone or offset (`2024-03-22 17:59`,
 * `2023-06-28T04:13:00`, `9/20/2022 3:04 PM`): a wall-clock time, whose zone the file does not say.
 */
export function isLocalDateTime(text: string): boolean {
  const iso = ISO_TIME_RE.exec(text);
  if (iso) return iso[8] === undefined;
  const slash = SLASH_RE.exec(text);
  if (slash) return slash[5] !== undefined;
  return (DAY_MONTH_RE.exec(text)?.[4] ?? MONTH_DAY_RE.exec(text)?.[4]) !== undefined;
}

/**
 * A date as the contract stores it (`2024-05-31`, or an ISO date-time in UTC), from the forms
 * vendors and spreadsheets write; `order` reads a slash date (decided per column). A date-time
 * without a zone is a wall-clock time in `timeZone` (an IANA name; default UTC). Undefined when
 * the text is no date, or a slash date whose order is not known.
 */
export function readDate(
  text: string,
  order: DateOrder | undefined,
  timeZone?: string | undefined,
): string | undefined {
  let m = ISO_DATE_RE.exec(text);
  if (m) return ymd(Number(m[1]), Number(m[2]), Number(m[3]));
  m = ISO_TIME_RE.exec(text);
  if (m) {
    const zone = m[8]?.toUpperCase();
    const offset = zone === undefined || zone === 'UTC' || zone === 'GMT' || zone === 'Z' ? 'Z' : zone;
    const fraction = m[7] ? `.${m[7].slice(0, 3).padEnd(3, '0')}` : '';
    const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]!.padStart(2, '0')}:${m[5]}:${m[6] ?? '00'}${fraction}${offset}`;
    const read = dateTime(
      iso,
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      zone === undefined ? timeZone : undefined,
    );
    // Digits past the millisecond go on to the contract, which stores to the millisecond and
    // says so (as it does for a date-time written in its own form).
    return read && m[7] && m[7].length > 3 ? `${read.slice(0, -1)}${m[7].slice(3)}Z` : read;
  }
  m = SLASH_RE.exec(text);
  if (m) {
    if (!order) return undefined;
    const month = Number(order === 'mdy' ? m[1] : m[3]);
    const day = Number(order === 'mdy' ? m[3] : m[1]);
    return atTime(fullYear(m[4]!), month, day, m.slice(5, 9), timeZone);
  }
  m = YMD_SLASH_RE.exec(text);
  if (m) return ymd(Number(m[1]), Number(m[2]), Number(m[3]));
  m = DAY_MONTH_RE.exec(text);
  if (m) {
    const month = monthNumber(m[2]!);
    return month ? atTime(fullYear(m[3]!), month, Number(m[1]), m.slice(4, 8), timeZone) : undefined;
  }
  m = MONTH_DAY_RE.exec(text);
  if (m) {
    const month = monthNumber(m[1]!);
    return month ? atTime(Number(m[3]), month, Number(m[2]), m.slice(4, 8), timeZone) : undefined;
  }
  return undefined;
}

/** The date, or the date-time of its time (`[hour, minute, second, AM/PM]`, each maybe absent). */
function atTime(
  year: number,
  month: number,
  day: number,
  [hours, minutes, seconds, ampm]: (string | undefined)[],
  timeZone: string | undefined,
): string | undefined {
  if (hours === undefined) return ymd(year, month, day);
  let hour = Number(hours);
  const half = ampm?.toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  }
  const iso = `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${minutes}:${seconds ?? '00'}Z`;
  return dateTime(iso, year, month, day, timeZone);
}

function monthNumber(word: string): number | undefined {
  const w = word.toLowerCase();
  const short = MONTHS[w.slice(0, w.startsWith('sept') ? 4 : 3)];
  // `Mar`, `March`; not `Marchx`.
  if (short === undefined) return undefined;
  const full = new Date(Date.UTC(2000, short - 1, 1))
    .toLocaleString('en', { month: 'long', timeZone: 'UTC' })
    .toLowerCase();
  return full.startsWith(w) || w === 'sept' ? short : undefined;
}

/** Two-digit years as spreadsheets read them: 00-29 are 20xx, 30-99 are 19xx. */
function fullYear(text: string): number {
  if (text.length === 4) return Number(text);
  const y = Number(text);
  return y < 30 ? 2000 + y : 1900 + y;
}

const pad = (n: number) => String(n).padStart(2, '0');

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function ymd(year: number, month: number, day: number): string | undefined {
  return validDay(year, month, day)
    ? `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`
    : undefined;
}

/** `iso` (ending in Z or an offset) as UTC; with `timeZone`, its Z stands for that zone's wall clock. */
function dateTime(
  iso: string,
  year: number,
  month: number,
  day: number,
  timeZone?: string | undefined,
): string | undefined {
  if (!validDay(year, month, day)) return undefined;
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return undefined;
  return new Date(timeZone === undefined ? t : zonedTimeToUtc(t, timeZone)).toISOString();
}

/** Names that the exporter already turned into `??` (characters lost before the file reached us). */
export const LOST_CHARACTERS_RE = /\?{2,}/;

/**
 * The attribute type a column's values ask for, read as the import reads cells: `number` when
 * every value is numeric text (none with a leading zero, which a number would drop: a zip code),
 * `boolean` for yes/no words, `date` for dates in the forms vendors write (slash dates in one
 * order), else `text`; `text` with no value at all.
 */
export function attributeTypeOf(values: readonly string[]): AttributeType {
  if (values.length === 0) return 'text';
  const number = attributeTextSchemas.number;
  const isNumber = (written: string) => {
    const v = withoutCurrency(written);
    return number.safeParse(v).success || separatedNumber(v) !== undefined;
  };
  if (values.every((v) => !LEADING_ZERO_RE.test(v) && isNumber(v))) return 'number';
  // A localized word alone is also a country code or a name (`AUS`, `Si`, `Non`): the column is
  // yes/no where its words are English, or where it shows both a yes and a no (`Ein`, `Aus`).
  if (values.every((v) => readBoolean(v) !== undefined)) {
    const english = values.every((v) => ENGLISH_BOOLEAN_WORDS.has(v.toLowerCase()));
    if (english || (values.some((v) => readBoolean(v)) && values.some((v) => readBoolean(v) === false)))
      return 'boolean';
  }
  if (values.every((v) => readDate(v, 'mdy') !== undefined || readDate(v, 'dmy') !== undefined)) {
    // The import reads a column's slash dates in one order: `9/20/2022` beside `20/09/2022` is none.
    const orders = new Set(values.map(slashDateOrder).filter((o) => o === 'mdy' || o === 'dmy'));
    return orders.size <= 1 ? 'date' : 'text';
  }
  return 'text';
}

const LEADING_ZERO_RE = /^[+-]?0\d/;
