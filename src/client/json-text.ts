// JSON already serialised, sent as is: a caller that had to serialise a body to size it (the
// importer fills requests up to the body limit) need not pay for serialising it twice.

import { ContactsError } from '../core/error.js';

export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A request body as JSON text. A number JSON cannot carry (NaN, Infinity) is refused with its
 * key: JSON.stringify would send it as `null`, which clears the field it was meant to set.
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, refuseNonFinite);
}

function refuseNonFinite(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new ContactsError(
      `${key || 'the body'}: ${value} is no number JSON can carry (it would be sent as null, which clears)`,
    );
  }
  return value;
}
