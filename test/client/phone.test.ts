import { describe, expect, it } from 'vitest';
import { isPhoneCountry, normalizePhoneNumber } from '../../src/client/phone.js';

describe('normalizePhoneNumber', () => {
  it('writes international numbers in E.164 whatever their grouping', () => {
    expect(normalizePhoneNumber('+44 20 7946 0958')).toEqual({ ok: true, e164: '+442079460958' });
    expect(normalizePhoneNumber(' +1 (202) 555-0142 ')).toEqual({ ok: true, e164: '+12025550142' });
    expect(normalizePhoneNumber('+49 30 901820', 'GB')).toEqual({ ok: true, e164: '+4930901820' });
  });

  it('reads a national number in the default country', () => {
    expect(normalizePhoneNumber('020 7946 0958', 'GB')).toEqual({ ok: true, e164: '+442079460958' });
    expect(normalizePhoneNumber('(202) 555-0142', 'us')).toEqual({ ok: true, e164: '+12025550142' });
  });

  it('says why a number cannot be stored', () => {
    const reason = (text: string, country?: string) => {
      const r = normalizePhoneNumber(text, country);
      return r.ok ? null : r.reason;
    };
    expect(reason('020 7946 0958')).toMatch(/a national number needs a country.*default country$/);
    expect(normalizePhoneNumber('020 7946 0958')).toMatchObject({ ok: false, code: 'needs_country' });
    expect(reason('+44 12')).toMatch(/too short/);
    expect(reason('+44 20 7946 0958 9999 9')).toMatch(/too long/);
    expect(reason('call me maybe')).toMatch(/not a phone number/);
    expect(reason('+999 1234567')).toMatch(/unknown country calling code/);
    expect(reason('020 7946 0958', 'XX')).toMatch(/Unknown default country "XX"/);
  });

  it('knows the countries libphonenumber knows', () => {
    expect(isPhoneCountry('gb')).toBe(true);
    expect(isPhoneCountry('XX')).toBe(false);
  });
});
