// Placing a phone number of an export in its country: an international number as written, a
// national one in the row's own country, else the default country, else whichever of the
// countries the file's international numbers use it is valid in. Numbers are validated
// (libphonenumber's isValid), not just length-checked, and stored in E.164.
import {
  type CountryCode,
  getCountries,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from 'libphonenumber-js';

export type PhonePlace =
  | { ok: true; e164: string; country: string | undefined }
  | { ok: false; reason: string };

/** Where a national number's candidate countries came from, for the reason when none fits. */
export type CandidateSource = 'row' | 'default' | 'file';

export interface PhoneCandidates {
  countries: readonly string[];
  from: CandidateSource;
  /** The row's country column, for the reason (`Mailing Country`). */
  column?: string | undefined;
}

const NO_CANDIDATES: PhoneCandidates = { countries: [], from: 'file' };

/** The country an international number (`+44 20 ...`, `0044 20 ...`) belongs to, if it is valid. */
export function internationalCountry(text: string): string | undefined {
  if (!isInternational(text)) return undefined;
  try {
    const parsed = parsePhoneNumberWithError(text);
    return parsed.isValid() ? parsed.country : undefined;
  } catch {
    return undefined;
  }
}

function isInternational(text: string): boolean {
  const c = text.charCodeAt(0);
  return c === 0x2b /* + */ || (c === 0x30 && text.charCodeAt(1) === 0x30 && /^00[1-9]/.test(text));
}

export function placePhone(text: string, candidates: PhoneCandidates = NO_CANDIDATES): PhonePlace {
  if (isInternational(text)) {
    const written = text.startsWith('00') ? `+${text.slice(2)}` : text;
    try {
      const parsed = parsePhoneNumberWithError(written);
      if (parsed.isValid()) return { ok: true, e164: parsed.number, country: parsed.country };
      const where = parsed.country ?? `+${parsed.countryCallingCode}`;
      const length = validatePhoneNumberLength(written);
      return {
        ok: false,
        reason:
          length === 'TOO_SHORT' || length === 'TOO_LONG'
            ? `too ${length === 'TOO_SHORT' ? 'short' : 'long'} for ${where}`
            : `not a valid number of ${where}`,
      };
    } catch (error) {
      return { ok: false, reason: describe((error as Error).message) };
    }
  }
  const { countries } = candidates;
  if (countries.length === 0) {
    return {
      ok: false,
      reason:
        'a national number and no country to read it in (no country in the row, no --default-country, ' +
        'no international number or country in the file): write it with + and the country code, or pass --default-country',
    };
  }
  const fits: { e164: string; country: string; written: boolean }[] = [];
  let parseProblem: string | undefined;
  for (const country of countries) {
    try {
      const parsed = parsePhoneNumberWithError(text, { defaultCountry: country as CountryCode });
      if (parsed.isValid()) {
        // Written as that country writes its numbers (its trunk prefix: `(206) 555-0100` is no
        // UK number, `020 7946 0018` no US one).
        const written = digits(parsed.formatNational()) === digits(text);
        fits.push({ e164: parsed.number, country, written });
      }
    } catch (error) {
      parseProblem ??= describe((error as Error).message);
    }
  }
  const asWritten = fits.filter((f) => f.written);
  // Countries that share a calling code (US and CA, GB and its Crown Dependencies) read one
  // number alike: one E.164 is one answer, whichever of them parsed it.
  const oneNumber = fits.length > 1 && fits.every((f) => f.e164 === fits[0]!.e164);
  const fit = fits.length === 1 || oneNumber ? fits[0] : asWritten.length === 1 ? asWritten[0] : undefined;
  if (fit && candidates.from === 'file') {
    // The file's other numbers are no proof of this one's country: a national number is placed
    // from them only when no other country reads it, as written, as another number, or when it
    // is written exactly in its country's national form and in no other's (`(206) 555-0100`).
    const readings = readingsAsWritten(text);
    const elsewhere = readings.filter((r) => r.e164 !== fit.e164);
    const written = squashSpaces(text);
    const exact = readings.filter((r) => r.national === written);
    const ownForm = exact.length > 0 && exact.every((r) => r.e164 === fit.e164);
    if (elsewhere.length > 0 && !ownForm) {
      const others = [...new Set(elsewhere.map((r) => r.country))];
      const shown = others.slice(0, 8).join(', ');
      const more = others.length > 8 ? ` and ${others.length - 8} more` : '';
      return {
        ok: false,
        reason:
          `a national number of ${fit.country} (the countries of the file's international numbers and ` +
          `country columns) but also, as written, of ${shown}${more}: write it with + and the country ` +
          'code, give the row a country, or pass --default-country',
      };
    }
  }
  if (fit) return { ok: true, e164: fit.e164, country: fit.country };
  if (parseProblem && fits.length === 0 && countries.length === 1) return { ok: false, reason: parseProblem };
  const tried = countries.join(', ');
  const where =
    candidates.from === 'row'
      ? `the row's ${candidates.column ?? 'country'}`
      : candidates.from === 'default'
        ? 'the default country'
        : "the countries of the file's international numbers and country columns";
  if (fits.length === 0) {
    return {
      ok: false,
      reason: `not a valid number in ${countries.length === 1 ? tried : `any of ${tried}`} (${where}): write it with + and the country code`,
    };
  }
  return {
    ok: false,
    reason: `valid in more than one of ${tried} (${where}): write it with + and the country code, or pass --default-country`,
  };
}

const READINGS_KEPT = 4096;
interface Reading {
  country: string;
  e164: string;
  /** The country's national form of the number (`020 7946 0958`). */
  national: string;
}
const readings = new Map<string, Reading[]>();
const squashSpaces = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * Every country that reads a national number as a valid number of its own, written as it writes
 * them (its trunk prefix). Parsing in every country is slow, so each number is read once.
 */
function readingsAsWritten(text: string): Reading[] {
  const key = digits(text);
  const known = readings.get(key);
  if (known) return known;
  const found: Reading[] = [];
  for (const country of getCountries()) {
    try {
      const parsed = parsePhoneNumberWithError(text, { defaultCountry: country });
      const national = parsed.isValid() ? parsed.formatNational() : '';
      if (national && digits(national) === key) {
        found.push({ country: parsed.country ?? country, e164: parsed.number, national });
      }
    } catch {
      // Not a number of that country.
    }
  }
  if (readings.size >= READINGS_KEPT) readings.clear();
  readings.set(key, found);
  return found;
}

function describe(code: string): string {
  switch (code) {
    case 'INVALID_COUNTRY':
      return 'unknown country calling code';
    case 'TOO_SHORT':
      return 'too short to be a phone number';
    case 'TOO_LONG':
      return 'too long to be a phone number';
    default:
      return 'not a phone number';
  }
}

const digits = (text: string) => text.replace(/\D+/g, '');
