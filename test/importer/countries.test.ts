// A row's country as an ISO code, from what exports write in their country columns.
import { describe, expect, it } from 'vitest';
import { addressCountry, countryCode, rowCountry } from '../../src/importer/countries.js';

describe('countryCode', () => {
  it('takes an ISO code in any case, and UK for GB', () => {
    expect(countryCode('gb')).toBe('GB');
    expect(countryCode(' DE ')).toBe('DE');
    expect(countryCode('uk')).toBe('GB');
  });

  it("takes ISO's three-letter code written in capitals, not a word of three letters", () => {
    const read = (codes: string[]) => codes.map((c) => countryCode(c));
    expect(read(['DEU', 'AUS', 'GBR', 'CAN', ' CHE ', 'KOR', 'ARE', 'USA'])).toEqual([
      'DE',
      'AU',
      'GB',
      'CA',
      'CH',
      'KR',
      'AE',
      'US',
    ]);
    expect(read(['Can', 'and', 'Mar', 'XYZ'])).toEqual([undefined, undefined, undefined, undefined]);
    // A country without numbers of its own (Antarctica) is none a phone is read in.
    expect(countryCode('ATA')).toBeUndefined();
  });

  it('reads country names in English and other export languages, accents and case aside', () => {
    expect(countryCode('United Kingdom')).toBe('GB');
    expect(countryCode('Deutschland')).toBe('DE');
    expect(countryCode('ÉTATS-UNIS')).toBe('US');
    expect(countryCode('Espana')).toBe('ES');
    expect(countryCode('Côte d’Ivoire')).toBe('CI');
  });

  it('knows the names people write that no locale gives', () => {
    expect(countryCode('USA')).toBe('US');
    expect(countryCode('England')).toBe('GB');
    expect(countryCode('Holland')).toBe('NL');
    expect(countryCode('Czech Republic')).toBe('CZ');
    expect(countryCode('PRC')).toBe('CN');
    expect(countryCode('KSA')).toBe('SA');
  });

  it('reads names as lists and people write them: and for &, Saint for St., asides, special regions', () => {
    const read = (names: string[]) => names.map((n) => countryCode(n));
    expect(
      read([
        'Bosnia and Herzegovina',
        'Trinidad and Tobago',
        'Saint Kitts and Nevis',
        'Saint Martin (French part)',
        'Myanmar',
        'Burma',
        'Falkland Islands (Malvinas)',
        'Hong Kong',
        'Macao',
        'The Gambia',
      ]),
    ).toEqual(['BA', 'TT', 'KN', 'MF', 'MM', 'MM', 'FK', 'HK', 'MO', 'GM']);
  });

  it('reads ISO 3166 and UN list names: "Name, qualifier", long and former names', () => {
    const read = (names: string[]) => names.map((n) => countryCode(n));
    expect(
      read([
        'Korea, Republic of',
        'Republic of Korea',
        "Korea, Democratic People's Republic of",
        'Iran, Islamic Republic of',
        'Tanzania, United Republic of',
        'Virgin Islands, British',
        'Virgin Islands, U.S.',
        'Congo, The Democratic Republic of the',
        'Congo',
        'Russian Federation',
        'Viet Nam',
        "Lao People's Democratic Republic",
      ]),
    ).toEqual(['KR', 'KR', 'KP', 'IR', 'TZ', 'VG', 'VI', 'CD', 'CG', 'RU', 'VN', 'LA']);
  });

  it('reads a country by its own name in its own language', () => {
    const read = (names: string[]) => names.map((n) => countryCode(n));
    expect(
      read(['Suomi', 'Magyarország', 'Česko', 'Ελλάδα', 'Россия', '日本', '대한민국', 'Eesti', 'Polska']),
    ).toEqual(['FI', 'HU', 'CZ', 'GR', 'RU', 'JP', 'KR', 'EE', 'PL']);
  });

  it('is undefined for what names no country', () => {
    expect(countryCode('')).toBeUndefined();
    expect(countryCode('XX')).toBeUndefined();
    expect(countryCode('Atlantis')).toBeUndefined();
  });
});

describe('addressCountry', () => {
  it('reads the country a whole address ends with, by name, on its last line or after its last comma', () => {
    expect(addressCountry('Hauptstraße 5\nBerlin, Berlin 10115\nGermany')).toBe('DE');
    expect(addressCountry('10 Downing St, London SW1A 2AA, United Kingdom')).toBe('GB');
    // A two-letter tail is as often a state; one part is no address; a city is no country.
    expect(addressCountry('350 5th Ave, New York, NY')).toBeUndefined();
    expect(addressCountry('10 Downing St, London SW1A 2AA, UK')).toBe('GB');
    expect(addressCountry('Germany')).toBeUndefined();
    expect(addressCountry('12 Rue de Rivoli, Paris')).toBeUndefined();
    // Georgia ends an American address as its state.
    expect(addressCountry('Atlanta, Georgia')).toBeUndefined();
  });

  it('is, after the country itself, what a row country cell names', () => {
    expect(rowCountry('FR')).toBe('FR');
    expect(rowCountry('Calle Mayor 1, 28013 Madrid, España')).toBe('ES');
  });
});
