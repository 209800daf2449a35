// Phone numbers to E.164 (`+442079460958`), as production's own importer stores them, with
// libphonenumber-js: international numbers as written, national ones with a default country.
import {
  type CountryCode,
  isSupportedCountry,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from '../core/libphonenumber.js';

export type PhoneNumberResult =
  | { ok: true; e164: string }
  /** `needs_country`: a national number and no default country to read it in. */
  | { ok: false; reason: string; code?: 'needs_country' };

/** Whether libphonenumber knows the ISO 3166-1 alpha-2 code (`GB`, `US`, `DE`...). */
export function isPhoneCountry(code: string): boolean {
  return isSupportedCountry(code.toUpperCase());
}

/**
 * The number in E.164, or why it cannot be one: not a number, a national number with no country
 * to read it in, an unknown country code, or a length no number of that country can have
 * (`isPossible`: a number that cannot exist is refused; one that merely is not assigned passes).
 */
export function normalizePhoneNumber(text: string, defaultCountry?: string): PhoneNumberResult {
  const country = defaultCountry?.toUpperCase();
  if (country !== undefined && !isSupportedCountry(country)) {
    return {
      ok: false,
      reason: `Unknown default country "${defaultCountry}": expected an ISO code such as GB or US`,
    };
  }
  const trimmed = text.trim();
  let parsed: ReturnType<typeof parsePhoneNumberWithError>;
  try {
    parsed = parsePhoneNumberWithError(trimmed, { defaultCountry: country as CountryCode | undefined });
  } catch (error) {
    const code = (error as Error).message;
    const needsCountry = code === 'INVALID_COUNTRY' && !trimmed.startsWith('+');
    return {
      ok: false,
      reason: describe(code, trimmed, country),
      ...(needsCountry ? { code: 'needs_country' as const } : {}),
    };
  }
  if (!parsed.isPossible()) {
    const problem =
      validatePhoneNumberLength(trimmed, country as CountryCode | undefined) ?? 'INVALID_LENGTH';
    return {
      ok: false,
      reason: describe(problem, trimmed, parsed.country ?? `+${parsed.countryCallingCode}`),
    };
  }
  return { ok: true, e164: parsed.number };
}

function describe(code: string, text: string, country: string | undefined): string {
  switch (code) {
    case 'INVALID_COUNTRY':
      return text.startsWith('+')
        ? 'Invalid phone number: unknown country calling code'
        : 'Invalid phone number: a national number needs a country: write it with + and the country code, or give a default country';
    case 'TOO_SHORT':
      return `Invalid phone number: too short${country ? ` for ${country}` : ''}`;
    case 'TOO_LONG':
      return `Invalid phone number: too long${country ? ` for ${country}` : ''}`;
    case 'INVALID_LENGTH':
      return `Invalid phone number: not a possible length${country ? ` for ${country}` : ''}`;
    default:
      return 'Invalid phone number: not a phone number';
  }
}
