// libphonenumber-js through the CommonJS entry its package exports beside the ES module one: the
// same code and metadata, but one require() graph instead of over a hundred ES modules for Node's
// loader to resolve, read and link one by one (bench/README.md). Only strings and plain values
// of it cross this package's API, so a caller's own ES module copy beside it changes nothing.
import { createRequire } from 'node:module';
import type * as Libphonenumber from 'libphonenumber-js';

export type { CountryCode } from 'libphonenumber-js';

export const {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} = createRequire(import.meta.url)('libphonenumber-js') as typeof Libphonenumber;
