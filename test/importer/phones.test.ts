// Placing an export's phone number in its country, and storing it in E.164.
import { describe, expect, it } from 'vitest';
import {
  internationalCountry,
  isInternational,
  placePhone,
  writtenAsOwn,
} from '../../src/importer/phones.js';

describe('international numbers', () => {
  it('are written with + or 00, and belong to the country they name', () => {
    expect(isInternational('+44 20 7946 0018')).toBe(true);
    expect(isInternational('0044 20 7946 0018')).toBe(true);
    expect(isInternational('020 7946 0018')).toBe(false);
    expect(isInternational('00 12')).toBe(false);
    expect(internationalCountry('+1 212 736 5000')).toBe('US');
    expect(internationalCountry('+44 20 79')).toBeUndefined();
    expect(internationalCountry('+44 20 7946 0018')).toBe('GB');
    expect(internationalCountry('020 7946 0018')).toBeUndefined();
    // Twelve digits or more with no + are a country code's (an SMS tool writes them so); eleven may be national.
    expect(internationalCountry('491701234567')).toBe('DE');
    expect(internationalCountry('33612345678')).toBeUndefined();
  });

  it('are placed as written, 00 read as +', () => {
    expect(placePhone('+44 20 7946 0018')).toEqual({ ok: true, e164: '+442079460018', country: 'GB' });
    expect(placePhone('0049 30 901820')).toEqual({ ok: true, e164: '+4930901820', country: 'DE' });
  });

  it('say what is wrong with one that is not valid', () => {
    expect(placePhone('+44 20 79')).toEqual({ ok: false, reason: 'too short for +44' });
    expect(placePhone('+999 1234567')).toEqual({ ok: false, reason: 'unknown country calling code' });
  });
});

describe('national numbers', () => {
  it('are read in the candidate country they are valid in, written as that country writes them', () => {
    const both = { countries: ['US', 'GB'], from: 'file' as const };
    expect(placePhone('020 7946 0018', both)).toMatchObject({
      ok: true,
      e164: '+442079460018',
      country: 'GB',
    });
    expect(placePhone('(212) 736-5000', both)).toMatchObject({
      ok: true,
      e164: '+12127365000',
      country: 'US',
    });
  });

  it('in a file of several countries, are read in one only where written exactly as it writes its own', () => {
    const several = (...countries: string[]) => ({ countries, from: 'file' as const });
    // Spanish, Dutch and New Zealand numbers in files of other countries' numbers.
    for (const [text, countries] of [
      ['612 34 56 78', ['AE', 'US']],
      ['06 12345678', ['IT', 'US']],
      ['021 123 4567', ['AU', 'GB']],
    ] as const) {
      expect(placePhone(text, several(...countries))).toEqual({
        ok: false,
        reason: `a national number in a file of numbers from several countries (${countries.join(', ')}), not written as one of them writes its own: write it with + and the country code, or give the row a country or a default country`,
        code: 'phone_no_country',
      });
    }
    expect(placePhone('(02) 1123 4567', several('AU', 'GB'))).toMatchObject({
      ok: true,
      e164: '+61211234567',
    });
    // Digits without groups say nothing of them: read as before, by their digits.
    expect(placePhone('612345678', several('ES', 'DE'))).toMatchObject({ ok: true, e164: '+34612345678' });
    // One calling code is one country's file: its national numbers read by their digits.
    expect(placePhone('021 123 4567', several('AU'))).toMatchObject({ ok: true, e164: '+61211234567' });
    expect(placePhone('212 736 5000', several('US', 'CA'))).toMatchObject({ ok: true, e164: '+12127365000' });
  });

  it('need a country, and say where they looked when none fits', () => {
    const none = placePhone('020 7946 0018');
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.reason).toMatch(/^a national number and no country to read it in/);
    const row = placePhone('(212) 736-5000', { countries: ['FR'], from: 'row', column: 'Mailing Country' });
    expect(row).toEqual({
      ok: false,
      reason: "not a valid number in FR (the row's Mailing Country): write it with + and the country code",
    });
  });

  it("are not read in a country only the file suggests unless written as that country's own", () => {
    // One German number in the file: a US number is no German one, though German numbering allows it.
    const german = { countries: ['DE'], from: 'file' as const };
    expect(placePhone('(415) 555-0132', german)).toEqual({
      ok: false,
      reason:
        "not written as a national number of DE (the countries of the file's international numbers and country columns): write it with + and the country code, or give a default country",
      code: 'phone_no_country',
    });
    expect(placePhone('0151 23456789', german)).toMatchObject({ ok: true, e164: '+4915123456789' });
    // Given as the row's country or the default, the country reads the number as it is.
    expect(placePhone('(415) 555-0132', { countries: ['DE'], from: 'default' })).toMatchObject({
      ok: true,
      e164: '+494155550132',
    });
    // Brackets hold the area code: Brazil's for these digits is 41, so `(415)` is none of its own.
    const brazilian = { countries: ['BR'], from: 'file' as const };
    expect(placePhone('(415) 555-0132', brazilian)).toMatchObject({ ok: false, code: 'phone_no_country' });
    expect(placePhone('(41) 5555-0132', brazilian)).toMatchObject({ ok: true, e164: '+554155550132' });
    expect(placePhone('(415) 555-0132', { countries: ['BR'], from: 'default' })).toMatchObject({
      ok: true,
      e164: '+554155550132',
    });
    // London's area code in brackets, as people write it, alone or beside other countries' numbers.
    for (const countries of [['GB'], ['GB', 'US']]) {
      expect(placePhone('(020) 7946 0018', { countries, from: 'file' })).toMatchObject({
        ok: true,
        e164: '+442079460018',
      });
    }
    // None fits: the default country is the way on.
    expect(placePhone('(415) 555-0132', { countries: ['GB'], from: 'file' })).toMatchObject({
      ok: false,
      code: 'phone_no_country',
    });
    // Nor is it read with a country code it would start with: brackets hold an area code.
    expect(placePhone('(646) 555-0199', { countries: ['GB'], from: 'file' })).toMatchObject({
      ok: false,
      code: 'phone_no_country',
    });
    // Brackets after the country code are the area code of an international number, as written
    // in Russia and Ukraine.
    expect(placePhone('7 (495) 123-45-67', { countries: ['GB'], from: 'file' })).toMatchObject({
      ok: true,
      e164: '+74951234567',
    });
    expect(placePhone('380 (44) 123-45-67', { countries: ['RU'], from: 'default' })).toMatchObject({
      ok: true,
      e164: '+380441234567',
    });
    for (const [text, e164] of [
      ['1-(646)-555-0199', '+16465550199'],
      ['7.(495).123-45-67', '+74951234567'],
    ] as const)
      expect(placePhone(text, { countries: ['DE'], from: 'default' }), text).toMatchObject({
        ok: true,
        e164,
      });
    // A trunk prefix before them is no country code: 8 (495) is Moscow's, not Vietnam's +84.
    for (const text of ['8 (495) 123-45-67', '8 (800) 555-35-35', '646 (555) 0199'])
      expect(placePhone(text, { countries: ['GB'], from: 'file' }), text).toMatchObject({ ok: false });
    expect(placePhone('8 (495) 123-45-67', { countries: ['RU'], from: 'default' })).toMatchObject({
      ok: true,
      e164: '+74951234567',
    });
  });

  it('read a number with its country code but no + as international', () => {
    expect(placePhone('4930901820', { countries: ['DE'], from: 'default' })).toMatchObject({
      ok: true,
      e164: '+4930901820',
    });
    // With no country at all, a number too long to be national (Brevo's SMS column).
    expect(placePhone('4915112345678')).toEqual({
      ok: true,
      e164: '+4915112345678',
      country: 'DE',
      withCode: true,
    });
    expect(placePhone('44 7911 123456')).toMatchObject({ ok: true, e164: '+447911123456' });
    // Eleven digits may be a national mobile (China, Brazil), ten a US number: they need a country.
    for (const text of ['13812345678', '15012345678', '11987654321', '33612345678', '2025550143'])
      expect(placePhone(text), text).toMatchObject({ ok: false, code: 'phone_no_country' });
  });

  it('read eleven digits with their country code where the file writes its numbers so and no candidate alone reads them', () => {
    // Germany's and India's numbering both allow 14155550123 as a national number.
    const file = { countries: ['DE', 'GB', 'IN'], from: 'file' as const };
    expect(placePhone('14155550123', file)).toMatchObject({ ok: false, code: 'phone_ambiguous' });
    expect(placePhone('14155550123', { ...file, withCodes: true })).toEqual({
      ok: true,
      e164: '+14155550123',
      country: 'US',
      withCode: true,
    });
    // A number one candidate reads as its own stays so; ten digits are no such number.
    expect(
      placePhone('13812345678', { countries: ['CN', 'DE'], from: 'file', withCodes: true }),
    ).toMatchObject({ ok: true, e164: '+8613812345678' });
    // Though `+1 301 234 5678` is a valid number too.
    expect(
      placePhone('13012345678', { countries: ['CN', 'DE'], from: 'file', withCodes: true }),
    ).toMatchObject({ ok: true, e164: '+8613012345678' });
    expect(placePhone('2025550143', { ...file, withCodes: true })).not.toMatchObject({
      e164: '+12025550143',
    });
  });
});

describe('writtenAsOwn', () => {
  it('tells a national number written as a country writes its own, group by group, from a coincidence', () => {
    expect(writtenAsOwn('(303) 555-0101', 'US')).toBe(true);
    expect(writtenAsOwn('303-555-0102', 'US')).toBe(true);
    expect(writtenAsOwn('07400 123 456', 'GB')).toBe(true);
    // Valid in India, but India writes it 074001 23456.
    expect(writtenAsOwn('07400 123 456', 'IN')).toBe(false);
    expect(placePhone('07400 123 456', { countries: ['IN'], from: 'default' })).toMatchObject({ ok: true });
    // Digits alone say nothing; an international number is no national one; nor is an invalid one.
    expect(writtenAsOwn('3035550101', 'US')).toBe(false);
    expect(writtenAsOwn('+1 303 555 0101', 'US')).toBe(false);
    expect(writtenAsOwn('(303) 555-010', 'US')).toBe(false);
  });

  it("gives the reason a national number is not read in countries that may be the file's exceptions", () => {
    expect(placePhone('07400 123 456', { countries: [], from: 'file', outnumbered: ['IN'] })).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^a national number, as most of the file's numbers are; .*\(IN\) may be only a few contacts'/,
      ),
      code: 'phone_no_country',
    });
  });
});
