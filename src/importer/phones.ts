// Placing a phone number of an export in its country: an international number as written, a
// national one in the row's own country, else the default country, else whichever of the
// countries the file's international numbers use it is valid in. Numbers are validated
// (libphonenumber's isValid), not just length-checked, and stored in E.164.
import {
  type CountryCode,
  getCountryCallingCode,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from '../core/libphonenumber.js';

export type PhonePlace =
  /** `withCode`: read with the country code it starts with, written without `+` (`4915112345678`). */
  | { ok: true; e164: string; country: string | undefined; withCode?: true }
  /** `code`: a national number no country reads (one) or reads alone (several). */
  | { ok: false; reason: string; code?: 'phone_no_country' | 'phone_ambiguous' };

/** Where a national number's candidate countries came from, for the reason when none fits. */
export type CandidateSource = 'row' | 'default' | 'file';

export interface PhoneCandidates {
  countries: readonly string[];
  from: CandidateSource;
  /**
   * The file writes its numbers with their country code and no `+` (Brevo's `33612345678`): a
   * number of eleven digits or more that no candidate alone reads is read so.
   */
  withCodes?: boolean | undefined;
  /** The row's country column, for the reason (`Mailing Country`). */
  column?: string | undefined;
  /**
   * The countries the file's numbers and country cells name, none tried: most of its numbers are
   * national with no country, and those may be only a few contacts' (`nationalCountries`).
   */
  outnumbered?: readonly string[] | undefined;
}

const NO_CANDIDATES: PhoneCandidates = { countries: [], from: 'file' };

/**
 * The country an international number belongs to, if it is valid: `+44 20 ...`, `0044 20 ...`,
 * or twelve digits or more with the country code but no `+` (an SMS tool's `4915112345678`).
 */
export function internationalCountry(text: string): string | undefined {
  if (!isInternational(text)) return withCountryCode(tooLongForNational(text) ?? '')?.country;
  try {
    const parsed = parsePhoneNumberWithError(text);
    return parsed.isValid() ? parsed.country : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The digits of a number too long to be national, so written with its country code but no `+`
 * (`4915112345678`, `447911123456`): twelve digits or more, as eleven may be a national mobile
 * (China's `13812345678`, Brazil's `11987654321`).
 */
function tooLongForNational(text: string): string | undefined {
  const long = text.replace(/[\s().-]/g, '');
  return /^[1-9]\d{11,14}$/.test(long) ? long : undefined;
}

/** Digits alone, with no trunk prefix, enough of them to start with a country code (`33612345678`). */
export const isBareDigits = (text: string) => /^[1-9]\d{9,14}$/.test(text.replace(/[\s().-]/g, ''));

/**
 * The country of digits alone read with the country code they start with, if that reads a valid
 * number (`14154978913`: US); undefined else. An empty string where the code's country is not one.
 */
export const countryWithCode = (text: string): string | undefined => {
  const read = withCountryCode(text.replace(/[\s().-]/g, ''));
  return read && (read.country ?? '');
};

/** Written with its country code: `+44 ...`, or `0044 ...` as dialled from Europe. */
export function isInternational(text: string): boolean {
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
    // With no country to read it in, a number too long to be national is read with the country
    // code it starts with.
    const long = tooLongForNational(text);
    const international = long === undefined ? undefined : withCountryCode(long);
    if (international)
      return { ok: true, e164: international.e164, country: international.country, withCode: true };
    return {
      ok: false,
      reason: candidates.outnumbered
        ? "a national number, as most of the file's numbers are; the countries its other numbers and country cells " +
          `name (${candidates.outnumbered.join(', ')}) may be only a few contacts', so they do not place it: ` +
          'write it with + and the country code, or give the row a country or a default country'
        : 'a national number and no country to read it in (no country in the row, no default country, ' +
          'no international number or country in the file): write it with + and the country code, or give a default country',
      code: 'phone_no_country',
    };
  }
  const fits: { e164: string; country: string; written: boolean }[] = [];
  let parseProblem: string | undefined;
  // A file whose numbers are of several calling codes is of people from several countries: a
  // national number written in groups is read in one of them only where they are its groups
  // (`(415) 555-0132`, `020 7946 0018`): Spain's `612 34 56 78` is no number of the Emirates',
  // New Zealand's `021 123 4567` none of Australia's `(02) 1123 4567`. Digits alone say nothing.
  const grouped = /\d\D+\d/.test(text) && candidates.from === 'file' && severalCallingCodes(countries);
  for (const country of countries) {
    try {
      const parsed = parsePhoneNumberWithError(text, { defaultCountry: country as CountryCode });
      if (parsed.isValid()) {
        // Written as that country writes its numbers (its trunk prefix: `(206) 555-0100` is no
        // UK number, `020 7946 0018` no US one).
        const national = parsed.formatNational();
        const written =
          (grouped ? digitGroups(national) === digitGroups(text) : digits(national) === digits(text)) &&
          areaAsWritten(text, national);
        fits.push({ e164: parsed.number, country, written });
      }
    } catch (error) {
      parseProblem ??= describe((error as Error).message);
    }
  }
  const asWritten = fits.filter((f) => f.written);
  // A country only the file suggests reads a number written as that country writes its own:
  // one German number in a file makes no German number of `(415) 555-0132`, which German
  // numbering also allows. The row's country or the default country reads it as it is.
  const usable = candidates.from === 'file' ? asWritten : fits;
  // Countries that share a calling code (US and CA, GB and its Crown Dependencies) read one
  // number alike: one E.164 is one answer, whichever of them parsed it.
  const oneNumber = usable.length > 1 && usable.every((f) => f.e164 === usable[0]!.e164);
  const fit =
    usable.length === 1 || oneNumber ? usable[0] : asWritten.length === 1 ? asWritten[0] : undefined;
  // A number with its country code but no `+` (a spreadsheet drops it, SMS tools leave it out):
  // `4915112345678`, `33612345678`. Read so when the country it names is a candidate; else, when
  // no candidate reads it as its own national number (`8 (495) 123-45-67` is Russian, written
  // as Russians do), when it is too long for a national number or no candidate reads it at all;
  // and of eleven digits or more in a file that writes its numbers so, where no candidate alone
  // reads it (a Chinese list's `13012345678` is China's, though `+1 301` is a number too).
  const bare = text.replace(/[\s().-]/g, '');
  // Brackets hold an area code: what comes before them is the country code, all of it (`7 (495)
  // 123-45-67`), or the number is national (`(646) 555-0199` is no `+64` number, a Russian trunk
  // `8 (495) ...` no `+84` one).
  if (isBareDigits(bare)) {
    const international = withCountryCode(bare);
    const beforeBrackets = text.includes('(') ? (/^\s*(\d+)[\s.-]*\(/.exec(text)?.[1] ?? '') : undefined;
    if (
      international &&
      (beforeBrackets === undefined || beforeBrackets === international.callingCode) &&
      (countries.includes(international.country ?? '') ||
        (asWritten.length === 0 && (bare.length >= 11 || fits.length === 0)) ||
        (candidates.withCodes === true && bare.length >= 11 && fit === undefined))
    ) {
      return { ok: true, e164: international.e164, country: international.country, withCode: true };
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
  // Where only the file suggested the countries, a default country is the way on.
  const guessed = candidates.from === 'file' ? { code: 'phone_no_country' as const } : {};
  if (fits.length === 0) {
    return {
      ok: false,
      reason: `not a valid number in ${countries.length === 1 ? tried : `any of ${tried}`} (${where}): write it with + and the country code`,
      ...guessed,
    };
  }
  if (usable.length === 0) {
    return {
      ok: false,
      reason: grouped
        ? `a national number in a file of numbers from several countries (${tried}), not written as one of them writes its own: write it with + and the country code, or give the row a country or a default country`
        : `not written as a national number of ${countries.length === 1 ? tried : `any of ${tried}`} (${where}): write it with + and the country code, or give a default country`,
      ...guessed,
    };
  }
  return {
    ok: false,
    reason: `valid in more than one of ${tried} (${where}): write it with + and the country code, or give a default country`,
    code: 'phone_ambiguous',
  };
}

/**
 * Whether a national number is written as `country` writes its own: valid there, and its first
 * group (the area code, or a mobile's prefix) that country's (`(303) 555-0101` and `303-555-0102`
 * as the US writes them; `07400 123 456` as Britain does, `07400 123456`, and as no Indian number
 * is, `074001 23456`). How the rest is grouped varies with the writer; digits alone say nothing.
 */
export function writtenAsOwn(text: string, country: string): boolean {
  if (!/\d\D+\d/.test(text) || isInternational(text)) return false;
  try {
    const parsed = parsePhoneNumberWithError(text, { defaultCountry: country as CountryCode });
    if (!parsed.isValid()) return false;
    const national = parsed.formatNational();
    return /\d+/.exec(national)?.[0] === /\d+/.exec(text)?.[0] && areaAsWritten(text, national);
  } catch {
    return false;
  }
}

function withCountryCode(
  digits: string,
): { e164: string; country: string | undefined; callingCode: string } | undefined {
  if (digits === '') return undefined;
  try {
    const parsed = parsePhoneNumberWithError(`+${digits}`);
    return parsed.isValid()
      ? { e164: parsed.number, country: parsed.country, callingCode: parsed.countryCallingCode }
      : undefined;
  } catch {
    return undefined;
  }
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

/**
 * Brackets hold the area code: `(415) 555-0132` is written as Brazil writes its numbers only if
 * Brazil's area code for those digits is 415 (it is 41: `(41) 5555-0132`). A number without
 * brackets says nothing here; one with them matches the country's own bracketed group (Russia's
 * `8 (495) 123-45-67`), else the first group of its form (`(020) 7946 0018` is London's
 * `020 7946 0018`).
 */
function areaAsWritten(text: string, national: string): boolean {
  const written = /\(([^)]*)\)/.exec(text)?.[1];
  if (written === undefined) return true;
  const own = /\(([^)]*)\)/.exec(national)?.[1] ?? /\d+/.exec(national)?.[0] ?? '';
  return digits(written) === digits(own);
}
const digitGroups = (text: string) => text.match(/\d+/g)?.join(' ') ?? '';

/** The calling code of a country libphonenumber numbers (`GB`, `GG`: `44`). */
export function callingCode(country: string): string | undefined {
  try {
    return getCountryCallingCode(country as CountryCode);
  } catch {
    // Not a country libphonenumber numbers: it reads no number either.
    return undefined;
  }
}

function severalCallingCodes(countries: readonly string[]): boolean {
  const codes = new Set<string>();
  for (const country of countries) {
    const code = callingCode(country);
    if (code) codes.add(code);
  }
  return codes.size > 1;
}
