// A row's country read off an address that names none: a state with a postcode of its own, or a
// postcode of a form only one country writes; else, weaker words, a state alone or a time zone.
import { describe, expect, it } from 'vitest';
import {
  postcodeCountry,
  regionCountry,
  regionSources,
  rowRegion,
  sourceCountries,
  zoneCountry,
} from '../../src/importer/regions.js';

const sources = (header: string[], rows: string[][], skip = (_: number) => false) =>
  regionSources(header, rows, skip);

describe('regionCountry', () => {
  it("reads a state by its code or name where the postcode is one of the state's", () => {
    expect(regionCountry('TX', '78701')).toBe('US');
    expect(regionCountry('texas', '78701-1234')).toBe('US');
    expect(regionCountry('Ontario', 'K1A 0B1')).toBe('CA');
    expect(regionCountry('Québec', 'H2X 1Y4')).toBe('CA');
    expect(regionCountry('NSW', '2000')).toBe('AU');
    // Washington or Western Australia; the Northwest or the Northern Territory.
    expect(regionCountry('WA', '98101')).toBe('US');
    expect(regionCountry('WA', '6000')).toBe('AU');
    expect(regionCountry('NT', 'X1A 0A1')).toBe('CA');
    expect(regionCountry('NT', '0800')).toBe('AU');
    // A spreadsheet that took the code for a number dropped its leading zeros.
    expect(regionCountry('MA', '2134')).toBe('US');
    expect(regionCountry('NT', '800')).toBe('AU');
    // A territory with a country code of its own is that country.
    expect(regionCountry('PR', '00901')).toBe('PR');
  });

  it("reads nothing without a postcode, or where the postcode is none of the state's", () => {
    expect(regionCountry('NT', '')).toBeUndefined();
    expect(regionCountry('Texas', '')).toBeUndefined();
    expect(regionCountry('TX', '2000')).toBeUndefined();
    // Milan, Como, Palermo: Italian provinces whose codes are American states', and their CAPs.
    expect(regionCountry('MI', '20121')).toBeUndefined();
    expect(regionCountry('CO', '22100')).toBeUndefined();
    expect(regionCountry('PA', '90100')).toBeUndefined();
    expect(regionCountry('ON', 'V6B 1A1')).toBeUndefined();
    expect(regionCountry('Bavaria', '80331')).toBeUndefined();
    expect(regionCountry('TX', '78701', ['CA'])).toBeUndefined();
  });
});

describe('postcodeCountry', () => {
  it("reads Britain's, Canada's and Japan's postcodes alone, and no five or four digits", () => {
    expect(postcodeCountry('SW1A 1AA')).toBe('GB');
    expect(postcodeCountry('m1 1ae')).toBe('GB');
    expect(postcodeCountry('EC1V 9HX')).toBe('GB');
    expect(postcodeCountry('K1A 0B1')).toBe('CA');
    expect(postcodeCountry('78701')).toBeUndefined();
    expect(postcodeCountry('2000')).toBeUndefined();
    // Ireland's Eircode is no British postcode.
    expect(postcodeCountry('A65 F4E2')).toBeUndefined();
    expect(postcodeCountry('100-0001')).toBe('JP');
    expect(postcodeCountry('〒530-0001')).toBe('JP');
    // Brazil's CEP and Portugal's code are no Japanese postcode.
    expect(postcodeCountry('01310-100')).toBeUndefined();
    expect(postcodeCountry('1000-001')).toBeUndefined();
  });
});

describe('regionSources', () => {
  it("pairs a state column with its own address's postal code column", () => {
    const header = ['Billing State', 'Shipping State', 'Shipping Zip', 'Billing Zip'];
    const rows = [
      ['TX', 'CA', '94103', '78701'],
      ['NY', 'NY', '10001', '10001'],
    ];
    const found = sources(header, rows);
    expect(found).toEqual([
      { state: 0, postal: 3, countries: ['US'], label: 'Billing State + Billing Zip' },
      { state: 1, postal: 2, countries: ['US'], label: 'Shipping State + Shipping Zip' },
    ]);
    expect(rowRegion(found, rows[0]!)).toEqual({ code: 'US', column: 'Billing State + Billing Zip' });
  });

  it('reads a column of several countries’ states, each by its postcode', () => {
    const header = ['State/Region', 'ZIP/Postal Code'];
    const rows = [
      ['BC', 'V6B 1A1'],
      ['CA', '94103'],
      ['NSW', '2000'],
      ['MA', '2134'],
    ];
    const found = sources(header, rows);
    expect(found).toEqual([
      { state: 0, postal: 1, countries: ['US', 'CA', 'AU'], label: 'State/Region + ZIP/Postal Code' },
    ]);
    expect(rows.map((row) => rowRegion(found, row)?.code)).toEqual(['CA', 'US', 'AU', 'US']);
  });

  it("reads no Italian file's provinces and CAPs, though MI, CO and VA are American codes too", () => {
    const rows = [
      ['MI', '20121'],
      ['MI', '20122'],
      ['CO', '22100'],
      ['VA', '21100'],
      ['MN', '46100'],
    ];
    expect(sources(['Province', 'Zip'], rows)).toEqual([]);
    expect(sources(['State', 'Postal Code'], rows)).toEqual([]);
  });

  it('reads a postcode column alone only of postcodes that name a country', () => {
    expect(sources(['Postcode'], [['SW1A 1AA'], ['M1 1AE'], ['']])).toEqual([
      { state: undefined, postal: 0, countries: ['GB'], label: 'Postcode' },
    ]);
    expect(sources(['Zip'], [['78701'], ['10001']])).toEqual([]);
    // Thunderbird's British build writes `Post Code`.
    expect(sources(['Work Post Code'], [['SW1A 1AA'], ['M1 1AE']])).toEqual([
      { state: undefined, postal: 0, countries: ['GB'], label: 'Work Post Code' },
    ]);
  });

  it('reads a state column with no postcode column as a weak word, of the countries some state names alone', () => {
    const rows = [['Texas'], ['Colorado'], ['new york'], ['Ontario'], ['Washington'], ['Puerto Rico']];
    const found = sources(['State'], rows);
    expect(found).toEqual([{ state: 0, postal: undefined, countries: ['US', 'CA'], label: 'State' }]);
    expect(rows.map((row) => rowRegion(found, row))).toEqual([
      { code: 'US', column: 'State', weak: true },
      { code: 'US', column: 'State', weak: true },
      { code: 'US', column: 'State', weak: true },
      { code: 'CA', column: 'State', weak: true },
      { code: 'US', column: 'State', weak: true },
      { code: 'PR', column: 'State', weak: true },
    ]);
    // Two letters alone are as often another country's: Italy's provinces, Brazil's states.
    expect(sources(['Province'], [['MI'], ['CO'], ['VA'], ['MI']])).toEqual([]);
    expect(sources(['State'], [['TX'], ['NY'], ['CA']])).toEqual([]);
    expect(rowRegion(found, ['TX'])).toBeUndefined();
    // Not what a fixes file writes, nor the file's evidence.
    expect(rows.map((row) => rowRegion(found, row, true))).toEqual(rows.map(() => undefined));
    expect(sources(['Province'], [['Ontario'], ['Quebec']])).toEqual([
      { state: 0, postal: undefined, countries: ['CA'], label: 'Province' },
    ]);
    // Australia's codes of three letters, its names.
    const au = sources(['State'], [['NSW'], ['QLD'], ['Victoria']]);
    expect(au.map((s) => s.countries)).toEqual([['AU']]);
    expect(rowRegion(au, ['Western Australia'])?.code).toBe('AU');
  });

  it('reads no state column alone whose values are seldom states, or none names one country alone', () => {
    expect(sources(['Region'], [['EMEA'], ['West'], ['Texas']])).toEqual([]);
    expect(sources(['State'], [['Bavaria'], ['Berlin'], ['Hessen']])).toEqual([]);
    // Where both countries have the row's state, neither is said.
    const both = sources(['State'], [['Texas'], ['QLD'], ['Northern Territory'], ['Washington']]);
    expect(both.map((s) => s.countries)).toEqual([['US', 'AU']]);
    expect(rowRegion(both, ['Washington'])?.code).toBe('US');
  });

  it("reads no company's or venue's address, no country column, and no column left out", () => {
    const rows = [['TX', '78701', 'US']];
    expect(sources(['Company State', 'Company Zip', 'Country'], rows)).toEqual([]);
    expect(sources(['Venue State', 'Zip', 'Country/Region'], rows)).toEqual([]);
    expect(sources(['State', 'Zip', 'Country'], rows, (i) => i === 0)).toEqual([]);
  });
});

describe('zoneCountry', () => {
  it("reads an IANA zone's country, in any case, by its older names and after a picker's offset", () => {
    expect(zoneCountry('Europe/London')).toBe('GB');
    expect(zoneCountry('asia/kolkata')).toBe('IN');
    expect(zoneCountry('Asia/Calcutta')).toBe('IN');
    expect(zoneCountry('US/Eastern')).toBe('US');
    expect(zoneCountry('America/New York')).toBe('US');
    expect(zoneCountry('America/Argentina/Buenos_Aires')).toBe('AR');
    expect(zoneCountry('(GMT+05:30) Asia/Kolkata')).toBe('IN');
    expect(zoneCountry(' Australia/Sydney ')).toBe('AU');
    // HubSpot's IP Timezone spells the zone as a slug.
    expect(zoneCountry('america_slash_new_york')).toBe('US');
    expect(zoneCountry('america_slash_port_hyphen_au_hyphen_prince')).toBe('HT');
    expect(zoneCountry('canada_slash_atlantic')).toBe('CA');
  });

  it("reads no country of an older name whose clocks another country's zone keeps, nor of a place with no numbering", () => {
    // Eritrea's Africa/Asmera links to Nairobi's zone, Micronesia's Pacific/Truk to Port Moresby's.
    expect(zoneCountry('Africa/Asmera')).toBeUndefined();
    expect(zoneCountry('Africa/Asmara')).toBe('ER');
    expect(zoneCountry('Pacific/Truk')).toBeUndefined();
    expect(zoneCountry('America/Coral_Harbour')).toBeUndefined();
    expect(zoneCountry('Canada/Eastern')).toBe('CA');
    expect(zoneCountry('Antarctica/Troll')).toBeUndefined();
    expect(zoneCountry('Pacific/Midway')).toBeUndefined();
  });

  it('reads no country of a zone of none, nor of a name without its area', () => {
    expect(zoneCountry('UTC')).toBeUndefined();
    expect(zoneCountry('Etc/GMT+5')).toBeUndefined();
    // `Japan` is a link to Asia/Tokyo, but alone it reads as a country, not a zone.
    expect(zoneCountry('Japan')).toBeUndefined();
    expect(zoneCountry('Europe/Atlantis')).toBeUndefined();
  });
});

describe('a time zone column', () => {
  const rows = [
    ['amelia@example.co.uk', 'Europe/London', 'TX', ''],
    ['ravi@example.in', 'Asia/Kolkata', '', ''],
    ['jo@example.com', 'America/Los_Angeles', 'TX', '78701'],
  ];

  it('is read by its values, after an address', () => {
    const found = sources(['Email', 'Invitee Time Zone', 'State', 'Zip'], rows);
    expect(found).toEqual([
      { state: 2, postal: 3, countries: ['US'], label: 'State + Zip' },
      { zone: 1, countries: ['GB', 'IN', 'US'], label: 'Invitee Time Zone' },
    ]);
    expect(rows.map((row) => rowRegion(found, row))).toEqual([
      { code: 'GB', column: 'Invitee Time Zone', weak: true },
      { code: 'IN', column: 'Invitee Time Zone', weak: true },
      { code: 'US', column: 'State + Zip' },
    ]);
    // The addresses alone: what a fixes file writes, what the file's evidence takes.
    expect(rows.map((row) => rowRegion(found, row, true)?.code)).toEqual([undefined, undefined, 'US']);
  });

  it("is not read where it is a host's or an event's, is left out, or its values are seldom zones", () => {
    const zones = rows.map((row) => [row[1]!]);
    expect(sources(['Host Time Zone'], zones)).toEqual([]);
    expect(sources(['Event Timezone'], zones)).toEqual([]);
    expect(sources(['Timezone'], zones, () => true)).toEqual([]);
    expect(sources(['Notes'], [['Europe/London'], ['see 1/2'], ['n/a']])).toEqual([]);
  });

  it('names its first countries and how many more', () => {
    const source = { zone: 0, countries: ['AU', 'DE', 'GB', 'IN', 'JP', 'US'], label: 'TZ' };
    expect(sourceCountries(source)).toBe('AU, DE, GB, IN and 2 more');
    expect(sourceCountries({ ...source, countries: ['AU', 'DE', 'GB', 'IN', 'JP'] })).toBe(
      'AU, DE, GB, IN, JP',
    );
  });
});
