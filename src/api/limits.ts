// Numeric limits of the wire contract (contract.md), shared by the client, mock and importer.

export const API_PREFIX = '/api/v1';
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_BATCH_SIZE = 1000;
export const PER_PAGE_MIN = 10;
export const PER_PAGE_MAX = 1000;
export const PER_PAGE_DEFAULT = 100;
export const MAX_EXTERNAL_ID_LENGTH = 255;
export const MAX_NAME_LENGTH = 255;
export const MAX_EMAIL_LENGTH = 254;
export const PHONE_MIN_DIGITS = 7;
export const PHONE_MAX_DIGITS = 15;
export const MAX_STRIPE_ACCOUNTS = 50;
/**
 * Deepest nesting of a JSON value accepted anywhere (request bodies, import records, --data).
 * A contact is at most five levels deep (`users[].stripe_accounts[].label`); anything far
 * deeper is a mistake or an attack, and walking it must never need the call stack.
 */
export const MAX_JSON_DEPTH = 64;

/** The types a custom attribute can have (prod). Here, free of zod, for the CLI's option choices. */
export const ATTRIBUTE_TYPES = ['text', 'number', 'boolean', 'date'] as const;

/**
 * The fields of a contact record, in the order exports write them: also the names an attribute
 * may not take (prod: `400 "Reserved field name used"`).
 */
export const CONTACT_RECORD_FIELDS = [
  'id',
  'external_id',
  'name',
  'email',
  'phonenumber',
  'stripe_accounts',
  'custom_attributes',
  'created_at',
  'updated_at',
] as const;

/** The fields of a record the service sets (read-only): an export's copies of them are never input. */
export const READ_ONLY_CONTACT_FIELDS = [
  'id',
  'created_at',
  'updated_at',
] as const satisfies readonly (typeof CONTACT_RECORD_FIELDS)[number][];
