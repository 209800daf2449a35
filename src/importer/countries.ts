// A row's country as an ISO 3166-1 alpha-2 code, from what exports write in their country
// columns: the code itself (`GB`, Shopify's `Default Address Country Code`, Mailchimp's `CC`), or
// the country's name in English or another common export language (Salesforce's `Mailing
// Country`, Google's `Address 1 - Country`, Outlook's `Business Country/Region`), or ISO's
// three-letter code as lists of codes and some exports write it (`DEU`, `AUS`).
import { getCountries } from '../core/libphonenumber.js';
import { ALPHA3_ALPHA2 } from './country-alpha3.js';

/** Names people write that no locale's display name gives. */
const ALIASES: Record<string, string> = {
  usa: 'US',
  us: 'US',
  unitedstatesofamerica: 'US',
  america: 'US',
  uk: 'GB',
  greatbritain: 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  northernireland: 'GB',
  holland: 'NL',
  thenetherlands: 'NL',
  southkorea: 'KR',
  korea: 'KR',
  russia: 'RU',
  uae: 'AE',
  czechia: 'CZ',
  czechrepublic: 'CZ',
  turkey: 'TR',
  ivorycoast: 'CI',
  // Abbreviations of states' official names, as written in English.
  prc: 'CN',
  ksa: 'SA',
  // Long and former names that lists of countries (ISO 3166's, the UN's) still write.
  unitedkingdomofgreatbritainandnorthernireland: 'GB',
  republicofkorea: 'KR',
  democraticpeoplesrepublicofkorea: 'KP',
  democraticrepublicofthecongo: 'CD',
  drcongo: 'CD',
  russianfederation: 'RU',
  syrianarabrepublic: 'SY',
  laopeoplesdemocraticrepublic: 'LA',
  palestine: 'PS',
  holysee: 'VA',
  macau: 'MO',
  macedonia: 'MK',
  swaziland: 'SZ',
  easttimor: 'TL',
  republicofireland: 'IE',
  peoplesrepublicofchina: 'CN',
  mainlandchina: 'CN',
  saintvincentandthegrenadines: 'VC',
  bonairesinteustatiusandsaba: 'BQ',
};

/** Display names are read in these languages, English first. */
const LOCALES = [
  ...['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'pl', 'nb', 'fi', 'is', 'cs', 'sk', 'hu'],
  ...['ro', 'hr', 'sl', 'et', 'lv', 'lt', 'el', 'ru', 'uk', 'bg', 'tr', 'ja', 'zh', 'ko'],
];

let byName: Map<string, string> | undefined;

const squash = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

function names(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const codes = getCountries();
  for (const locale of LOCALES) {
    const display = new Intl.DisplayNames([locale], { type: 'region' });
    for (const code of codes) {
      const name = display.of(code);
      if (!name || name === code) continue;
      for (const form of writtenForms(name)) if (!byName.has(form)) byName.set(form, code);
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) byName.set(alias, code);
  return byName;
}

const CODES = new Set<string>(getCountries());

let byAlpha3: Map<string, string> | undefined;

/** ISO's three-letter code (`DEU`) as its two-letter one, for the countries numbers are of. */
function alpha3(code: string): string | undefined {
  if (!byAlpha3) {
    byAlpha3 = new Map();
    for (const pair of ALPHA3_ALPHA2.split(' ')) {
      const two = pair.slice(3);
      if (CODES.has(two)) byAlpha3.set(pair.slice(0, 3), two);
    }
  }
  return byAlpha3.get(code);
}

/**
 * The ISO code a country cell names (`gb`, `GB`, `DEU`, `United Kingdom`, `Deutschland`), or
 * undefined. Without `threeLetterCodes`, `DEU` names none: what tells a column of countries by
 * its values alone, where three capitals are as often nicknames or departments.
 */
export function countryCode(text: string, options: { threeLetterCodes?: boolean } = {}): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 2) {
    const upper = trimmed.toUpperCase();
    if (upper === 'UK') return 'GB';
    if (CODES.has(upper)) return upper;
  }
  const known = names();
  // Codes are written in capitals: `CAN` is Canada, `Can` and `and` are words.
  const code = options.threeLetterCodes !== false && /^[A-Z]{3}$/.test(trimmed) ? alpha3(trimmed) : undefined;
  if (code) return code;
  const found = known.get(squash(trimmed)) ?? known.get(squash(withoutAside(trimmed)));
  if (found) return found;
  // A list's "Name, qualifier" (`Korea, Republic of`, `Virgin Islands, British`): the qualifier
  // before the name, else the name alone where the qualifier does not make it another country.
  const comma = trimmed.lastIndexOf(',');
  if (comma < 0) return undefined;
  const name = trimmed.slice(0, comma);
  const qualifier = trimmed.slice(comma + 1);
  return (
    known.get(squash(withoutAside(`${qualifier} ${name}`))) ??
    (/democratic/i.test(qualifier) ? undefined : known.get(squash(name)))
  );
}

/**
 * The forms a country's display name is written in, squashed: as displayed, with `and` for `&`
 * and `Saint` for `St.` (`Bosnia and Herzegovina`, `Saint Kitts and Nevis`), without an aside
 * (`Myanmar` of `Myanmar (Burma)`, and `Burma`), and a special region by its own name
 * (`Hong Kong` of `Hong Kong SAR China`).
 */
function writtenForms(name: string): string[] {
  const forms = [squash(name)];
  if (name.includes('&') || name.includes('St.')) {
    const spelled = name.replace(/&/g, ' and ').replace(/\bSt\.\s*/g, 'Saint ');
    forms.push(squash(spelled), squash(withoutAside(spelled)));
  }
  const aside = name.indexOf('(') >= 0 ? /\(([^)]+)\)/.exec(name)?.[1] : undefined;
  if (aside) forms.push(squash(withoutAside(name)), squash(aside));
  const region = name.includes(' SAR') ? /^(.+?)\s+SAR\b/.exec(name)?.[1] : undefined;
  if (region) forms.push(squash(region));
  return forms;
}

/** A name without its parenthesised aside or a leading article: `Falkland Islands (Malvinas)`, `The Gambia`. */
const withoutAside = (text: string) =>
  text
    .replace(/\s*\([^)]*\)/g, '')
    .trim()
    .replace(/^the\s+/i, '');

/**
 * The country a whole postal address ends with, on its last line or after its last comma
 * (`Hauptstraße 5, 10115 Berlin, Germany`), by name: a two-letter tail is a state as often
 * (`Springfield, IL`). Undefined for a text of one part.
 */
export function addressCountry(text: string): string | undefined {
  const parts = text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter(Boolean);
  const last = parts.at(-1);
  if (parts.length < 2 || last === undefined || STATE_NAMES.has(squash(last))) return undefined;
  // Of the two-letter tails, only `UK` is no American state's.
  if (last.length <= 2 && last.toUpperCase() !== 'UK') return undefined;
  return countryCode(last);
}

/** Countries' names that an American address ends with as its state's (`Atlanta, Georgia`). */
const STATE_NAMES = new Set(['georgia']);

/** A row's country cell: a country (`GB`, `Deutschland`), or an address ending with one. */
export function rowCountry(text: string): string | undefined {
  return countryCode(text) ?? addressCountry(text);
}
