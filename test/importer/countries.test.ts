// A row's country as an ISO code, from what exports write in their country columns.
import { describe, expect, it } from 'vitest';
import { countryCode } from '../../src/importer/countries.js';

describe('countryCode', () => {
  it('takes an ISO code in any case, and UK for GB', () => {
    expect(countryCode('gb')).toBe('GB');
    expect(countryCode(' DE ')).toBe('DE');
    expect(countryCode('uk')).toBe('GB');
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
  });

  it('is undefined for what names no country', () => {
    expect(countryCode('')).toBeUndefined();
    expect(countryCode('XX')).toBeUndefined();
    expect(countryCode('Atlantis')).toBeUndefined();
  });
});
