// A row's country as a person reads it off an address with no country on it: `TX` and `78701`
// are Texas, so the United States; `ON` and `K1A 0B1` are Canada; `NSW` and `2000` Australia; a
// postcode like `SW1A 1AA` is British wherever it stands. A domestic export (a shop's customers, a
// club's members) seldom names its own country, yet it is what places its national phone numbers.
// A state with a postcode of its own is an address's word: Italy's provinces `MI`, `CO`, `PA` are
// American states' codes too, but Milan's `20121` is no Michigan ZIP code. A state alone, and a
// time zone (`Europe/London` is a British invitee's, `Asia/Kolkata` an Indian one's), are weaker
// words, read where nothing else in the file places a number. A column is read so only when
// nearly all of the rows that fill it agree.
import { headerWords, namesPostcode } from './columns.js';
import type { Cell } from './sources/types.js';
import { ZONES_BY_COUNTRY } from './time-zones.js';
import { cleanCell } from './values.js';

export type RegionSource = AddressSource | ZoneSource;

interface AddressSource {
  /** A column of states or provinces (`State`, `Billing Province`), if any. */
  state: number | undefined;
  /** A column of postal codes (`Zip`, `Postal Code`); none for a column of states alone. */
  postal: number | undefined;
  /** The countries the columns' values were found to be of. */
  countries: readonly string[];
  /** The columns' headers, as messages name them: `State + Zip`. */
  label: string;
}

interface ZoneSource {
  /** A column of time zones as the IANA database names them (`Europe/London`). */
  zone: number;
  /** The countries of the sampled rows' zones. */
  countries: readonly string[];
  /** The column's header. */
  label: string;
}

interface Country {
  code: string;
  /** Its states by their codes and names, squashed (`tx`, `texas`). */
  regions: Map<string, Region>;
  /** A postcode as the country writes it, its leading part compared with a state's ranges. */
  lead: (postal: string) => number | string | undefined;
}

interface Region {
  /** The country its numbers are of: a territory with a code of its own is that one (`PR`). */
  country: string;
  /** The leading parts of its postcodes: ranges of numbers, or first letters. */
  ranges: readonly (readonly [number, number] | string)[];
}

const squash = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, '');

/**
 * `CODE:Name|Other name[ranges]` entries, the ranges of its postcodes' leading parts (`750-799`,
 * `885`; Canada's first letters `G,H,J`); a territory with its own country code says it (`PR=PR`).
 */
function regionTable(country: string, entries: string): Map<string, Region> {
  const table = new Map<string, Region>();
  for (const entry of entries.trim().split(/\s*;\s*/)) {
    const [, codes = '', names = '', list = ''] = /^([^:[]+):?([^[]*)\[([^\]]*)\]$/.exec(entry) ?? [];
    const [code = '', own = country] = codes.split('=');
    const ranges = list.split(',').map((r) => {
      if (/^[A-Z]$/.test(r)) return r;
      const [from = '', to = from] = r.split('-');
      return [Number(from), Number(to)] as const;
    });
    for (const form of [code, ...names.split('|')])
      if (form) table.set(squash(form), { country: own, ranges });
  }
  return table;
}

const COUNTRIES: readonly Country[] = [
  {
    code: 'US',
    // The first three digits of a ZIP code (USPS's sectional centers), five digits or ZIP+4; a
    // spreadsheet that took it for a number dropped its leading zeros (Boston's `2134`).
    lead: (postal) => {
      const m = /^(\d{3,5})(?:[- ]?\d{4})?$/.exec(postal);
      return m ? Number(m[1]!.padStart(5, '0').slice(0, 3)) : undefined;
    },
    regions: regionTable(
      'US',
      `AL:Alabama[350-369]; AK:Alaska[995-999]; AZ:Arizona[850-865]; AR:Arkansas[716-729,755];
      CA:California[900-961]; CO:Colorado[800-816]; CT:Connecticut[60-69]; DE:Delaware[197-199];
      DC:District of Columbia|Washington DC[200-205,569]; FL:Florida[320-349]; GA:Georgia[300-319,398-399];
      HI:Hawaii[967-968]; ID:Idaho[832-838]; IL:Illinois[600-629]; IN:Indiana[460-479]; IA:Iowa[500-528];
      KS:Kansas[660-679]; KY:Kentucky[400-427]; LA:Louisiana[700-715]; ME:Maine[39-49];
      MD:Maryland[206-219]; MA:Massachusetts[10-27,55]; MI:Michigan[480-499]; MN:Minnesota[550-567];
      MS:Mississippi[386-397]; MO:Missouri[630-658]; MT:Montana[590-599]; NE:Nebraska[680-693];
      NV:Nevada[889-898]; NH:New Hampshire[30-38]; NJ:New Jersey[70-89]; NM:New Mexico[870-884];
      NY:New York[5,63,100-149]; NC:North Carolina[270-289]; ND:North Dakota[580-588]; OH:Ohio[430-459];
      OK:Oklahoma[730-749]; OR:Oregon[970-979]; PA:Pennsylvania[150-196]; RI:Rhode Island[28-29];
      SC:South Carolina[290-299]; SD:South Dakota[570-577]; TN:Tennessee[370-385];
      TX:Texas[733,750-799,885]; UT:Utah[840-847]; VT:Vermont[50-59]; VA:Virginia[201,220-246];
      WA:Washington[980-994]; WV:West Virginia[247-268]; WI:Wisconsin[530-549]; WY:Wyoming[820-834];
      AA:Armed Forces Americas[340]; AE:Armed Forces Europe[90-98]; AP:Armed Forces Pacific[962-966];
      PR=PR:Puerto Rico[6-9]; VI=VI:Virgin Islands|US Virgin Islands[8]; GU=GU:Guam[969];
      AS=AS:American Samoa[967]; MP=MP:Northern Mariana Islands[969]`,
    ),
  },
  {
    code: 'CA',
    lead: (postal) =>
      /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i.test(postal)
        ? postal[0]!.toUpperCase()
        : undefined,
    regions: regionTable(
      'CA',
      `AB:Alberta[T]; BC:British Columbia|Colombie-Britannique[V]; MB:Manitoba[R];
      NB:New Brunswick|Nouveau-Brunswick[E]; NL:Newfoundland and Labrador|Newfoundland|Terre-Neuve-et-Labrador[A];
      NF[A]; NS:Nova Scotia|Nouvelle-Écosse[B]; NT:Northwest Territories|Territoires du Nord-Ouest[X];
      NU:Nunavut[X]; ON:Ontario[K,L,M,N,P]; PE:Prince Edward Island|Île-du-Prince-Édouard[C];
      QC:Quebec|Québec[G,H,J]; PQ[G,H,J]; SK:Saskatchewan[S]; YT:Yukon[Y]`,
    ),
  },
  {
    code: 'AU',
    // Four digits; the Northern Territory's start with 0, which a spreadsheet drops (`800`).
    lead: (postal) => (/^\d{3,4}$/.test(postal) ? Number(postal) : undefined),
    regions: regionTable(
      'AU',
      `NSW:New South Wales[1000-2599,2619-2899,2921-2999]; ACT:Australian Capital Territory[200-299,2600-2618,2900-2920];
      VIC:Victoria[3000-3999,8000-8999]; QLD:Queensland[4000-4999,9000-9999]; SA:South Australia[5000-5999];
      WA:Western Australia[6000-6999]; TAS:Tasmania[7000-7999]; NT:Northern Territory[800-999]`,
    ),
  },
];

/** Postcodes no other country writes alike: one alone names its country. */
const OWN_POSTCODES: readonly { code: string; postal: RegExp }[] = [
  { code: 'GB', postal: /^(?:GIR ?0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})$/i },
  { code: 'CA', postal: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i },
  // Japan's three digits and four (`100-0001`, after its postal mark `〒`); Brazil writes five
  // and three, Portugal four and three.
  { code: 'JP', postal: /^(?:〒\s*)?\d{3}-\d{4}$/ },
];

const inRanges = (lead: number | string, ranges: Region['ranges']) =>
  ranges.some((r) =>
    typeof r === 'string' ? r === lead : typeof lead === 'number' && lead >= r[0] && lead <= r[1],
  );

/**
 * The country of a state whose postcode is one of its own (`TX` with `78701`; `WA` with `98101`
 * Washington, with `6000` Western Australia). Undefined without a postcode, or where the postcode
 * is none of the state's (Milan's `MI 20121` is no Michigan address: its ZIP codes are 480-499).
 */
export function regionCountry(
  state: string,
  postal: string,
  countries: readonly string[] = ['US', 'CA', 'AU'],
): string | undefined {
  return regionOf(state, postal, countries)?.country;
}

/** The state's region and the table it is of (`US` for Puerto Rico's `PR`). */
function regionOf(state: string, postal: string, countries: readonly string[]) {
  const key = squash(state);
  const code = postal.trim();
  if (key === '' || code === '') return undefined;
  for (const table of COUNTRIES) {
    if (!countries.includes(table.code)) continue;
    const region = table.regions.get(key);
    const lead = region && table.lead(code);
    if (lead !== undefined && inRanges(lead, region!.ranges))
      return { table: table.code, country: region!.country };
  }
  return undefined;
}

/** The country a postcode alone names (`SW1A 1AA`: GB; `K1A 0B1`: CA; `100-0001`: JP). */
export function postcodeCountry(
  postal: string,
  countries: readonly string[] = ['GB', 'CA', 'JP'],
): string | undefined {
  const code = postal.trim();
  return OWN_POSTCODES.find((p) => countries.includes(p.code) && p.postal.test(code))?.code;
}

let zones: Map<string, string> | undefined;

/**
 * The country of a time zone as the IANA database names it, in any case (`Europe/London`: GB;
 * `Asia/Calcutta`, the older name: IN), also after the offset a picker shows before it
 * (`(GMT+05:30) Asia/Kolkata`) and as HubSpot spells it (`america_slash_new_york`). Undefined for a zone of no country (`UTC`, `Etc/GMT+5`).
 */
export function zoneCountry(value: string): string | undefined {
  zones ??= new Map(
    ZONES_BY_COUNTRY.split(';').flatMap((entry) => {
      const [code = '', ...names] = entry.split(' ');
      return names.map((name) => [zoneKey(name), code] as const);
    }),
  );
  return zones.get(zoneKey(value));
}

/** Zones of no country: a column of zones may hold them too. */
const NO_COUNTRY_ZONE = /^(?:\((?:GMT|UTC)[^)]*\)\s*)?(?:UTC|GMT|Etc\/\S+|Universal|Zulu|Z)$/i;

const zoneKey = (value: string) =>
  value
    .trim()
    .replace(/^\((?:GMT|UTC)[^)]*\)\s*/i, '')
    .toLowerCase()
    .replace(/_slash_/g, '/')
    .replace(/_hyphen_/g, '-')
    .replace(/[\s_]+/g, '_');

const STATE_WORDS = new Set(['state', 'province', 'region', 'territory']);
/** An address that is not the contact's: a venue's, an event's, a company's or an employer's. */
const NOT_OWN_WORDS = new Set(['venue', 'event', 'company', 'organization', 'organisation', 'employer']);
/** A time zone that is not the contact's: a host's, an owner's, an agent's. */
const NOT_OWN_ZONE_WORDS = new Set(['host', 'owner', 'organizer', 'organiser', 'agent']);

/** At least this share of a column's values must be of the countries it is read for. */
const SHARE = 0.9;

/**
 * The columns that place a row's national phone numbers by its address, when the file names no
 * country: a state column with its postal code column (the same address's: `Billing State` with
 * `Billing Zip`), a postal code column alone of postcodes that name their country, a state column
 * with no postal code column, then a time zone column. Nothing when fewer than `SHARE` of the
 * sampled rows that fill them fit; `skip`: columns not to read (a country column, one `--map`
 * leaves out).
 */
export function regionSources(
  header: readonly string[],
  sample: readonly (readonly Cell[])[],
  skip: (index: number) => boolean,
): RegionSource[] {
  const words = header.map((h, i) => (skip(i) ? [] : headerWords(h)));
  const role = (w: readonly string[]) =>
    w.some((x) => NOT_OWN_WORDS.has(x)) || w.includes('country')
      ? undefined
      : namesPostcode(w)
        ? 'postal'
        : w.some((x) => STATE_WORDS.has(x))
          ? 'state'
          : undefined;
  // What a state column and its postal code column share (`billing` of `Billing State` and `Billing Zip`).
  const rest = (w: readonly string[]) =>
    w.filter((x) => !STATE_WORDS.has(x) && !namesPostcode([x]) && x !== 'code' && x !== 'post').join(' ');
  const label = (...columns: number[]) => columns.map((i) => header[i]!.trim()).join(' + ');
  const states = words.flatMap((w, i) => (role(w) === 'state' ? [i] : []));
  const postals = words.flatMap((w, i) => (role(w) === 'postal' ? [i] : []));
  const sources: RegionSource[] = [];
  const paired = new Set<number>();
  const alone: number[] = [];
  for (const s of states) {
    const p = postals.find((i) => !paired.has(i) && rest(words[i]!) === rest(words[s]!));
    if (p === undefined) {
      alone.push(s);
      continue;
    }
    const rows = sample.filter((row) => text(row[s]) !== '' && text(row[p]) !== '');
    const all = COUNTRIES.map((c) => c.code);
    const fits = rows.flatMap((row) => regionOf(text(row[s]), text(row[p]), all)?.table ?? []);
    if (rows.length === 0 || fits.length < rows.length * SHARE) continue;
    paired.add(p);
    const countries = all.filter((code) => fits.includes(code));
    sources.push({ state: s, postal: p, countries, label: label(s, p) });
  }
  for (const p of postals) {
    if (paired.has(p)) continue;
    const values = sample.map((row) => text(row[p])).filter((v) => v !== '');
    const countries = OWN_POSTCODES.filter(
      (c) => values.filter((v) => c.postal.test(v)).length >= values.length * SHARE,
    ).map((c) => c.code);
    if (values.length > 0 && countries.length > 0)
      sources.push({ state: undefined, postal: p, countries, label: label(p) });
  }
  // A state column with no postal code column of its own (`State` of a list of US cities): read,
  // as a weak word, when nearly all its values are states of the countries some value names alone
  // (`Texas` the US, `Ontario` Canada; `WA` alone is Washington or Western Australia), written
  // as names or codes of three letters (`NSW`): two letters alone are as often another country's
  // (Italy's provinces `MI`, `CO`, `VA`, Brazil's states `PA`, `MA`). One whose postcodes are none
  // of its states' is not read alone either (Milan's `MI` and `20121`).
  for (const s of alone) {
    const keys = sample.map((row) => squash(text(row[s]))).filter((v) => v !== '');
    const tables = (key: string) => (key.length < 3 ? [] : COUNTRIES.filter((c) => c.regions.has(key)));
    const countries = COUNTRIES.filter((c) => keys.some((k) => tables(k).length === 1 && c.regions.has(k)));
    const known = keys.filter((k) => tables(k).some((c) => countries.includes(c)));
    if (countries.length > 0 && known.length >= keys.length * SHARE)
      sources.push({ state: s, postal: undefined, countries: countries.map((c) => c.code), label: label(s) });
  }
  // A time zone column, by its values: an address is the surer word, so it comes after.
  words.forEach((w, i) => {
    if (w.length === 0 || w.some((x) => NOT_OWN_WORDS.has(x) || NOT_OWN_ZONE_WORDS.has(x))) return;
    const values = sample.map((row) => text(row[i])).filter((v) => v !== '');
    if (!values.some((v) => v.includes('/') || /_slash_/i.test(v))) return;
    const found = values.flatMap((v) => zoneCountry(v) ?? []);
    const zones = found.length + values.filter((v) => NO_COUNTRY_ZONE.test(v)).length;
    if (found.length > 0 && zones >= values.length * SHARE)
      sources.push({ zone: i, countries: [...new Set(found)].sort(), label: label(i) });
  });
  return sources;
}

/** A source's countries as messages give them: the first few, then how many more. */
export function sourceCountries(source: RegionSource, shown = 4): string {
  const { countries } = source;
  return countries.length <= shown + 1
    ? countries.join(', ')
    : `${countries.slice(0, shown).join(', ')} and ${countries.length - shown} more`;
}

const text = (cell: Cell) => (cell === undefined ? '' : cleanCell(cell));

/**
 * The row's country by the first source that names one, and the columns that named it (`State +
 * Zip`); `weak` when a time zone or a state alone named it, a weaker word than an address (a
 * traveller's zone; Milan's `MI`). `addresses`: the addresses alone, no weak word.
 */
export function rowRegion(
  sources: readonly RegionSource[],
  cells: readonly Cell[],
  addresses = false,
): { code: string; column: string; weak?: true } | undefined {
  for (const source of sources) {
    const weak = 'zone' in source || source.postal === undefined;
    if (weak && addresses) continue;
    const found = 'zone' in source ? zoneCountry(text(cells[source.zone])) : addressCountry(source, cells);
    if (found)
      return weak ? { code: found, column: source.label, weak } : { code: found, column: source.label };
  }
  return undefined;
}

function addressCountry({ state, postal, countries }: AddressSource, cells: readonly Cell[]) {
  if (postal === undefined) return stateCountry(text(cells[state!]), countries);
  const code = text(cells[postal]);
  return state === undefined
    ? postcodeCountry(code, countries)
    : regionCountry(text(cells[state]), code, countries);
}

/**
 * The country of a state named alone, in the one of `countries` that has it (`CO`: US; `Puerto
 * Rico`: PR); none where two have it (`WA` of a list of Americans and Australians).
 */
function stateCountry(state: string, countries: readonly string[]): string | undefined {
  const key = squash(state);
  if (key.length < 3) return undefined;
  const found = COUNTRIES.filter((c) => countries.includes(c.code) && c.regions.has(key));
  return found.length === 1 ? found[0]!.regions.get(key)!.country : undefined;
}
