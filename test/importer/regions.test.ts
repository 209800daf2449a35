// A row's country read off an address that names none: a state with a postcode of its own, or a
// postcode of a form only one country writes.
import { describe, expect, it } from 'vitest';
import { postcodeCountry, regionCountry, regionSources, rowRegion } from '../../src/importer/regions.js';

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
  it("reads Britain's and Canada's postcodes alone, and no five or four digits", () => {
    expect(postcodeCountry('SW1A 1AA')).toBe('GB');
    expect(postcodeCountry('m1 1ae')).toBe('GB');
    expect(postcodeCountry('EC1V 9HX')).toBe('GB');
    expect(postcodeCountry('K1A 0B1')).toBe('CA');
    expect(postcodeCountry('78701')).toBeUndefined();
    expect(postcodeCountry('2000')).toBeUndefined();
    // Ireland's Eircode is no British postcode.
    expect(postcodeCountry('A65 F4E2')).toBeUndefined();
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

  it('reads no state column without postcodes, and a postcode column alone only of postcodes that name a country', () => {
    expect(sources(['Province'], [['Ontario'], ['Quebec']])).toEqual([]);
    expect(sources(['Postcode'], [['SW1A 1AA'], ['M1 1AE'], ['']])).toEqual([
      { state: undefined, postal: 0, countries: ['GB'], label: 'Postcode' },
    ]);
    expect(sources(['Zip'], [['78701'], ['10001']])).toEqual([]);
  });

  it("reads no company's or venue's address, no country column, and no column left out", () => {
    const rows = [['TX', '78701', 'US']];
    expect(sources(['Company State', 'Company Zip', 'Country'], rows)).toEqual([]);
    expect(sources(['Venue State', 'Zip', 'Country/Region'], rows)).toEqual([]);
    expect(sources(['State', 'Zip', 'Country'], rows, (i) => i === 0)).toEqual([]);
  });
});
