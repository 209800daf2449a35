// A row's country as a person reads it off an address with no country on it: `TX` and `78701`
// are Texas, so the United States; `ON` and `K1A 0B1` are Canada; `NSW` and `2000` Australia; a
// postcode like `SW1A 1AA` is British wherever it stands. A domestic export (a shop's customers, a
// club's members) seldom names its own country, yet it is what places its national phone numbers.
// A column is read so only when nearly all of its values are one of these countries' (an Italian
// file's provinces `PA` and `CA`, Palermo and Cagliari, are American codes too, but `RM` and `TO`
// are not), and a row's value then names its country only where its postcode agrees.
import type { Cell } from './sources/types.js';
import { cleanCell } from './values.js';

export interface RegionSource {
  /** A column of states or provinces (`State`, `Billing Province`), if any. */
  state: number | undefined;
  /** A column of postal codes (`Zip`, `Postal Code`), if any. */
  postal: number | undefined;
  /** The countries the columns' values were found to be of. */
  countries: readonly string[];
}

interface Country {
  code: string;
  /** Codes and names of its states, squashed (`tx`, `texas`), and the country each is of. */
  regions: Map<string, string>;
  postal: RegExp;
}

const squash = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, '');

/** `code:Name|Other name` entries; a territory with its own country code says it (`PR=PR`). */
function regionTable(country: string, entries: string): Map<string, string> {
  const table = new Map<string, string>();
  for (const entry of entries.trim().split(/\s*;\s*/)) {
    const [codes, names = ''] = entry.split(':') as [string, string?];
    const [code, own = country] = codes.split('=') as [string, string?];
    for (const form of [code, ...names.split('|')]) if (form) table.set(squash(form), own);
  }
  return table;
}

const COUNTRIES: readonly Country[] = [
  {
    code: 'US',
    regions: regionTable(
      'US',
      `AL:Alabama; AK:Alaska; AZ:Arizona; AR:Arkansas; CA:California; CO:Colorado; CT:Connecticut;
      DE:Delaware; DC:District of Columbia|Washington DC; FL:Florida; GA:Georgia; HI:Hawaii; ID:Idaho;
      IL:Illinois; IN:Indiana; IA:Iowa; KS:Kansas; KY:Kentucky; LA:Louisiana; ME:Maine; MD:Maryland;
      MA:Massachusetts; MI:Michigan; MN:Minnesota; MS:Mississippi; MO:Missouri; MT:Montana;
      NE:Nebraska; NV:Nevada; NH:New Hampshire; NJ:New Jersey; NM:New Mexico; NY:New York;
      NC:North Carolina; ND:North Dakota; OH:Ohio; OK:Oklahoma; OR:Oregon; PA:Pennsylvania;
      RI:Rhode Island; SC:South Carolina; SD:South Dakota; TN:Tennessee; TX:Texas; UT:Utah;
      VT:Vermont; VA:Virginia; WA:Washington; WV:West Virginia; WI:Wisconsin; WY:Wyoming;
      AA:Armed Forces Americas; AE:Armed Forces Europe; AP:Armed Forces Pacific;
      PR=PR:Puerto Rico; GU=GU:Guam; VI=VI:Virgin Islands|US Virgin Islands;
      AS=AS:American Samoa; MP=MP:Northern Mariana Islands`,
    ),
    postal: /^\d{5}(?:[- ]?\d{4})?$/,
  },
  {
    code: 'CA',
    regions: regionTable(
      'CA',
      `AB:Alberta; BC:British Columbia|Colombie-Britannique; MB:Manitoba; NB:New Brunswick|Nouveau-Brunswick;
      NL:Newfoundland and Labrador|Newfoundland|Terre-Neuve-et-Labrador; NF; NS:Nova Scotia|Nouvelle-Écosse;
      NT:Northwest Territories|Territoires du Nord-Ouest; NU:Nunavut; ON:Ontario; PE:Prince Edward Island|Île-du-Prince-Édouard;
      QC:Quebec|Québec; PQ; SK:Saskatchewan; YT:Yukon`,
    ),
    postal: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i,
  },
  {
    code: 'AU',
    regions: regionTable(
      'AU',
      `NSW:New South Wales; VIC:Victoria; QLD:Queensland; WA:Western Australia; SA:South Australia;
      TAS:Tasmania; ACT:Australian Capital Territory; NT:Northern Territory`,
    ),
    postal: /^\d{4}$/,
  },
];

/** Postcodes no other country writes alike: one alone names its country. */
const OWN_POSTCODES: readonly { code: string; postal: RegExp }[] = [
  { code: 'GB', postal: /^(?:GIR ?0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})$/i },
  { code: 'CA', postal: COUNTRIES[1]!.postal },
];

/** The state's country, by the postcode where it names several (`WA` 98101 or 6000, `NT`). */
export function regionCountry(
  state: string,
  postal: string,
  countries: readonly string[] = ['US', 'CA', 'AU'],
): string | undefined {
  const key = squash(state);
  const code = postal.trim();
  let found: string | undefined;
  for (const country of COUNTRIES) {
    if (!countries.includes(country.code)) continue;
    const own = key === '' ? undefined : country.regions.get(key);
    if (own === undefined) continue;
    if (code !== '' && !country.postal.test(code)) continue;
    // `NT` with no postcode: Australia's or Canada's.
    if (found !== undefined) return undefined;
    found = own;
  }
  return found;
}

/** The country a postcode alone names (`SW1A 1AA`: GB; `K1A 0B1`: CA). */
export function postcodeCountry(
  postal: string,
  countries: readonly string[] = ['GB', 'CA'],
): string | undefined {
  const code = postal.trim();
  return OWN_POSTCODES.find((p) => countries.includes(p.code) && p.postal.test(code))?.code;
}

const STATE_WORDS = new Set(['state', 'province', 'region', 'territory']);
const POSTAL_WORDS = new Set(['zip', 'zipcode', 'postcode', 'postal', 'postalcode', 'plz']);
/** Addresses that are not the contact's own: where they work is theirs too; a venue's is not. */
const NOT_OWN_WORDS = new Set(['venue', 'event', 'company', 'organization', 'organisation', 'employer']);

/** At least this share of a column's values must be of the countries it is read for. */
const SHARE = 0.9;

/**
 * The columns that place a row's national phone numbers by its address, when the file names no
 * country: a state column with its postal code column (the same address's: `Billing State` with
 * `Billing Zip`), or a postal code column alone of postcodes that name their country. `words`:
 * each header's words. Nothing when fewer than `SHARE` of a column's sampled values fit.
 */
export function regionSources(
  words: readonly (readonly string[])[],
  sample: readonly (readonly Cell[])[],
): RegionSource[] {
  const role = (w: readonly string[]) =>
    w.some((x) => NOT_OWN_WORDS.has(x)) || w.includes('country')
      ? undefined
      : w.some((x) => POSTAL_WORDS.has(x))
        ? 'postal'
        : w.some((x) => STATE_WORDS.has(x))
          ? 'state'
          : undefined;
  // What a state column and its postal code column share (`billing` of `Billing State` and `Billing Zip`).
  const rest = (w: readonly string[]) =>
    w.filter((x) => !STATE_WORDS.has(x) && !POSTAL_WORDS.has(x) && x !== 'code').join(' ');
  const states = words.flatMap((w, i) => (role(w) === 'state' ? [i] : []));
  const postals = words.flatMap((w, i) => (role(w) === 'postal' ? [i] : []));
  const sources: RegionSource[] = [];
  const paired = new Set<number>();
  for (const s of states) {
    const rows = sample.filter((row) => text(row[s]) !== '');
    const countries = COUNTRIES.filter((c) => rows.some((row) => c.regions.has(squash(text(row[s]))))).map(
      (c) => c.code,
    );
    const p = postals.find((i) => !paired.has(i) && rest(words[i]!) === rest(words[s]!));
    // Each state known, and where the file has postcodes, of a country whose postcodes they are.
    const fits = rows.filter((row) =>
      p === undefined
        ? COUNTRIES.some((c) => countries.includes(c.code) && c.regions.has(squash(text(row[s]))))
        : regionCountry(text(row[s]), text(row[p]), countries) !== undefined,
    );
    if (rows.length === 0 || fits.length < rows.length * SHARE) continue;
    if (p !== undefined) paired.add(p);
    sources.push({ state: s, postal: p, countries });
  }
  for (const p of postals) {
    if (paired.has(p)) continue;
    const values = sample.map((row) => text(row[p])).filter((v) => v !== '');
    const countries = OWN_POSTCODES.filter(
      (c) => values.filter((v) => c.postal.test(v)).length >= values.length * SHARE,
    ).map((c) => c.code);
    if (values.length > 0 && countries.length > 0) sources.push({ state: undefined, postal: p, countries });
  }
  return sources;
}

const text = (cell: Cell) => (cell === undefined ? '' : cleanCell(cell));

/** The row's country by the first source that names one, and the columns that named it (`State + Zip`). */
export function rowRegion(
  sources: readonly RegionSource[],
  cells: readonly Cell[],
  header: readonly string[],
): { code: string; column: string } | undefined {
  for (const { state, postal, countries } of sources) {
    const code = postal === undefined ? '' : text(cells[postal]);
    const found =
      state === undefined
        ? postcodeCountry(code, countries)
        : regionCountry(text(cells[state]), code, countries);
    if (found) return { code: found, column: sourceLabel({ state, postal }, header) };
  }
  return undefined;
}

/** `State + Zip`, `Postcode`: the columns a source reads. */
export function sourceLabel(
  source: Pick<RegionSource, 'state' | 'postal'>,
  header: readonly string[],
): string {
  return [source.state, source.postal]
    .flatMap((i) => (i === undefined ? [] : [header[i]!.trim()]))
    .join(' + ');
}
