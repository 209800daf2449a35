import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { getCountryCallingCode, parsePhoneNumberWithError } from '../../src/core/libphonenumber.js';

describe('libphonenumber-js through its CommonJS entry', () => {
  it('reads numbers with the metadata its package ships', () => {
    const parsed = parsePhoneNumberWithError('020 7946 0958', { defaultCountry: 'GB' });
    expect(parsed.number).toBe('+442079460958');
    expect(parsed.isValid()).toBe(true);
    expect(getCountryCallingCode('JE')).toBe('44');
  });

  it('is loaded by require(), not as the package ES modules', () => {
    const require = createRequire(import.meta.url);
    expect(require.cache[require.resolve('libphonenumber-js')]).toBeDefined();
  });
});
