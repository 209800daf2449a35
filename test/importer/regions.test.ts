// A row's country read off an address that names none: a state with its postcode, or a postcode
// of a form only one country writes.
import { describe, expect, it } from 'vitest';
import { headerWords } from '../../src/importer/columns.js';
import { postcodeCountry, regionCountry, regionSources, rowRegion } from '../../src/importer/regions.js';

const sources = (header: string[], rows: string[][]) => regionSources(header.map(headerWords), rows);

describe('regionCountry', () => {
  it('reads a state by its code or name, and the postcode decides a code two countries use', () => {
    expect(regionCountry('TX', '78701')).toBe('US');
    expect(regionCountry('texas', '')).toBe('US');
    expect(regionCountry('Ontario', 'K1A 0B1')).toBe('CA');
    expect(regionCountry('Québec', '')).toBe('CA');
    expect(regionCountry('NSW', '2000')).toBe('AU');
    // Washington or Western Australia; the Northwest or the Northern Territory.
    expect(regionCountry('WA', '98101')).toBe('US');
    expect(regionCountry('WA', '6000')).toBe('AU');
    expect(regionCountry('NT', 'X1A 0A1')).toBe('CA');
    expect(regionCountry('NT', '0800')).toBe('AU');
    expect(regionCountry('NT', '')).toBeUndefined();
    // A territory with a country code of its own is that country.
    expect(regionCountry('PR', '00901')).toBe('PR');
  });

  it('reads nothing where the postcode is not the state country’s, or the state is none it knows', () => {
    expect(regionCountry('TX', '2000')).toBeUndefined();
    expect(regionCountry('Bavaria', '80331')).toBeUndefined();
    expect(regionCountry('', '78701')).toBeUndefined();
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
    expect(sources(header, rows)).toEqual([
      { state: 0, postal: 3, countries: ['US'] },
      { state: 1, postal: 2, countries: ['US'] },
    ]);
    expect(rowRegion(sources(header, rows), rows[0]!, header)).toEqual({
      code: 'US',
      column: 'Billing State + Billing Zip',
    });
  });

  it('reads a column of several countries’ states, each by its postcode', () => {
    const header = ['State/Region', 'ZIP/Postal Code'];
    const rows = [
      ['BC', 'V6B 1A1'],
      ['CA', '94103'],
      ['NSW', '2000'],
    ];
    const found = sources(header, rows);
    expect(found).toEqual([{ state: 0, postal: 1, countries: ['US', 'CA', 'AU'] }]);
    expect(rows.map((row) => rowRegion(found, row, header)?.code)).toEqual(['CA', 'US', 'AU']);
  });

  it("refuses a column only some of whose values are states: Italy's provinces PA and CA are American codes too", () => {
    const rows = [
      ['PA', '90100'],
      ['CA', '09100'],
      ['RM', '00100'],
      ['TO', '10100'],
    ];
    expect(sources(['State', 'Zip'], rows)).toEqual([]);
    // Nor where states and postcodes disagree (a German file's 5-digit codes under American states).
    expect(
      sources(
        ['State', 'Zip'],
        [
          ['TX', '2000'],
          ['CA', '3000'],
        ],
      ),
    ).toEqual([]);
  });

  it('reads a state column with no postal column, and a postcode column alone only of postcodes that name a country', () => {
    expect(sources(['Province'], [['Ontario'], ['Quebec']])).toEqual([
      { state: 0, postal: undefined, countries: ['CA'] },
    ]);
    expect(sources(['Postcode'], [['SW1A 1AA'], ['M1 1AE'], ['']])).toEqual([
      { state: undefined, postal: 0, countries: ['GB'] },
    ]);
    expect(sources(['Zip'], [['78701'], ['10001']])).toEqual([]);
  });

  it("reads no company's or venue's address, and no country column", () => {
    const rows = [['TX', '78701', 'US']];
    expect(sources(['Company State', 'Company Zip', 'Country'], rows)).toEqual([]);
    expect(sources(['Venue State', 'Zip', 'Country/Region'], rows)).toEqual([]);
  });
});
