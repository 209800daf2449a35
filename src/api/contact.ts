// Contacts on input: the bodies the service accepts, with the per-agent validator that checks
// custom attributes against the agent's definitions. The record the service returns is in
// records.ts (re-exported here).
import * as z from 'zod';
import { countDigits } from '../core/digits.js';
import { attributeKeyProblem, attributeTextSchemas, attributeValueSchemas } from './attribute.js';
import {
  MAX_BATCH_SIZE,
  MAX_EMAIL_LENGTH,
  MAX_EXTERNAL_ID_LENGTH,
  MAX_NAME_LENGTH,
  MAX_STRIPE_ACCOUNTS,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
} from './limits.js';
import { type AttributeDefinition, type AttributeValue, AttributeValueSchema } from './records.js';
import { contractRegistry } from './registry.js';

export { type Contact, ContactSchema, type StripeAccount, StripeAccountSchema } from './records.js';

const required = { error: (iss: { input: unknown }) => (iss.input === undefined ? 'Required' : undefined) };

/** A lone UTF-16 surrogate: no character at all, and no two keys holding one may be told apart once stored. */
const LONE_SURROGATE = /\p{Cs}/u;

export const ExternalIdSchema = z
  .string(required)
  .trim()
  .min(1, 'Must not be empty')
  .max(MAX_EXTERNAL_ID_LENGTH)
  .refine((s) => !LONE_SURROGATE.test(s), 'Must be text (it holds a lone UTF-16 surrogate)');
export const NameSchema = z.string().max(MAX_NAME_LENGTH);
export const EmailSchema = z
  .string()
  .trim()
  .pipe(z.email({ error: 'Invalid email' }).max(MAX_EMAIL_LENGTH));

const PHONE_RE = /^\+\d[\d\s().-]*$/;
export const PhoneNumberSchema = z
  .string()
  .trim()
  .regex(PHONE_RE, {
    message: 'Invalid phone number: expected a leading + and country code, e.g. +44 20 7946 0958',
    abort: true,
  })
  .refine((s) => {
    const digits = countDigits(s);
    return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
  }, `Invalid phone number: expected ${PHONE_MIN_DIGITS} to ${PHONE_MAX_DIGITS} digits`);

const RawCustomAttributesSchema = z.record(z.string(), AttributeValueSchema);

const LabelSchema = z.string().trim().min(1, 'Must not be empty').max(255);

/**
 * A Stripe account on input: a label and at least one of `stripe_id` and `stripe_email` (prod);
 * ours: each 1 to 255 characters, the email a valid address.
 */
export const StripeAccountInputSchema = z
  .strictObject({
    label: LabelSchema,
    stripe_id: z.string().trim().min(1, 'Must not be empty').max(255).optional(),
    stripe_email: EmailSchema.optional(),
  })
  .refine((a) => a.stripe_id !== undefined || a.stripe_email !== undefined, {
    message: 'Give stripe_id or stripe_email (or both)',
  })
  .register(contractRegistry, {
    id: 'StripeAccountInput',
    request: true,
    dropsUnknownFields: true,
    requiresAnyOf: ['stripe_id', 'stripe_email'],
  });
export type StripeAccountInput = z.input<typeof StripeAccountInputSchema>;

/** Replaces the stored list as a whole; `[]` or `null` clears it. */
export const StripeAccountsInputSchema = z
  .array(StripeAccountInputSchema)
  .max(MAX_STRIPE_ACCOUNTS)
  .nullable();

const inputShape = {
  external_id: ExternalIdSchema,
  name: NameSchema.nullable().optional(),
  email: EmailSchema.nullable().optional(),
  phonenumber: PhoneNumberSchema.nullable().optional(),
  custom_attributes: RawCustomAttributesSchema.optional(),
  stripe_accounts: StripeAccountsInputSchema.optional(),
};

/** The top-level fields a contact body may carry; anything else is an unknown field. */
export const CONTACT_INPUT_FIELDS: ReadonlySet<string> = new Set(Object.keys(inputShape));
const STRIPE_ACCOUNT_FIELDS: ReadonlySet<string> = new Set(['label', 'stripe_id', 'stripe_email']);

/**
 * Body of a single upsert (`POST .../contacts`). As a schema it refuses unknown fields; the
 * service drops them instead (see `splitUnknownFields`), and the CLI and importer check names
 * locally so that nothing they send is dropped.
 */
export const ContactInputSchema = z
  .strictObject(inputShape)
  .register(contractRegistry, { id: 'ContactInput', request: true, dropsUnknownFields: true });
export type ContactInput = z.input<typeof ContactInputSchema>;

/** Body of `PATCH .../contacts/:id`: every field optional, `null` clears. */
export const ContactPatchSchema = z
  .strictObject({ ...inputShape, external_id: ExternalIdSchema.optional() })
  .register(contractRegistry, { id: 'ContactPatch', request: true, dropsUnknownFields: true });
export type ContactPatch = z.input<typeof ContactPatchSchema>;

/** Body of a batch upsert (`POST .../contacts` with `users`). */
export const BatchUpsertSchema = z
  .strictObject({ users: z.array(ContactInputSchema).min(1).max(MAX_BATCH_SIZE) })
  .register(contractRegistry, { id: 'BatchUpsert', request: true, dropsUnknownFields: true });
export type BatchUpsert = z.input<typeof BatchUpsertSchema>;

/** Validated, coerced contact input: custom attribute values are in their stored form. */
export type ContactInputParsed = Omit<z.output<typeof ContactInputSchema>, 'custom_attributes'> & {
  custom_attributes?: Record<string, AttributeValue>;
};
export type ContactPatchParsed = Omit<z.output<typeof ContactPatchSchema>, 'custom_attributes'> & {
  custom_attributes?: Record<string, AttributeValue>;
};

export interface ContactValidatorOptions {
  /**
   * Values written as text (CSV cells, `--attr k=v`): numeric text is converted for number
   * attributes. The service takes JSON numbers only; the importer and the CLI convert first.
   */
  textValues?: boolean;
}

export interface ContactValidators {
  input: z.ZodType<ContactInputParsed, unknown>;
  patch: z.ZodType<ContactPatchParsed, unknown>;
  batch: z.ZodType<{ users: ContactInputParsed[] }, unknown>;
}

/**
 * Schemas that check contact bodies against one agent's attribute definitions: every
 * custom attribute key must be defined, archived ones take only `null`, and values are
 * coerced by the attribute's type. The mock, the importer and the CLI all validate with these.
 */
export function createContactValidators(
  definitions: Iterable<AttributeDefinition>,
  options: ContactValidatorOptions = {},
): ContactValidators {
  const byName = new Map<string, AttributeDefinition>();
  for (const d of definitions) byName.set(d.name, d);
  const valueSchemas = options.textValues ? attributeTextSchemas : attributeValueSchemas;

  // One pass over the object: each value is checked by its attribute's own schema (clearer
  // messages than a generic union, every bad key reported at once). A plain transform rather
  // than z.record keeps this hot path of the mock and the importer cheap: the keys are read once
  // (no entry pairs), and a body whose values are already in their stored form is returned as
  // it is, not copied key by key.
  const customAttributes = z.unknown().transform((attrs, ctx) => {
    if (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs)) {
      ctx.issues.push({
        code: 'custom',
        message: 'Expected an object of attribute names to values',
        input: attrs,
      });
      return z.NEVER;
    }
    const given = attrs as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(given)) {
      const value = given[key];
      const definition = byName.get(key);
      const problem = attributeKeyProblem(definition, value);
      if (problem || !definition) {
        ctx.issues.push({ code: 'custom', message: problem ?? 'Unknown', path: [key], input: value });
        continue;
      }
      if (value === null) continue;
      const parsed = valueSchemas[definition.type].safeParse(value);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? `Invalid ${definition.type} value`;
        ctx.issues.push({ code: 'custom', message, path: [key], input: value });
      } else if (parsed.data !== value) {
        // Coerced (a number for a text attribute, a date made ISO): the caller's object stays as given.
        out ??= { ...given };
        out[key] = parsed.data;
      }
    }
    return (out ?? given) as Record<string, AttributeValue>;
  });

  const input = ContactInputSchema.extend({ custom_attributes: customAttributes.optional() });
  const patch = ContactPatchSchema.extend({ custom_attributes: customAttributes.optional() });
  const batch = z.strictObject({ users: z.array(input).min(1).max(MAX_BATCH_SIZE) });
  return { input, patch, batch };
}

/** A contact body with the fields the service does not know taken out, and their dotted paths. */
export interface SplitFields {
  body: unknown;
  /** Dotted paths of what was dropped: `company`, `custom_attributes.plna`, `stripe_accounts.0.note`. */
  ignored: string[];
}

/**
 * What production does with fields it does not know (contract revision 2): unknown top-level
 * fields, `custom_attributes` keys that name no attribute of the agent, and unknown keys of a
 * Stripe account are dropped, the rest kept. `prefix` prefixes every path (`users.3.`).
 * Anything that is not an object, or has nothing to drop (the common case), is returned as is:
 * then `body` is the caller's own object, not a copy. Otherwise it is a new object without a
 * prototype, so a key such as `__proto__` stays data.
 */
export function splitUnknownFields(
  body: unknown,
  attributeNames: ReadonlySet<string>,
  prefix = '',
): SplitFields {
  if (!isObject(body) || !hasUnknownFields(body, attributeNames)) return { body, ignored: [] };
  const ignored: string[] = [];
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(body)) {
    if (!CONTACT_INPUT_FIELDS.has(key)) {
      ignored.push(`${prefix}${key}`);
      continue;
    }
    if (key === 'custom_attributes' && isObject(value)) {
      const kept: Record<string, unknown> = Object.create(null);
      for (const [name, v] of Object.entries(value)) {
        if (attributeNames.has(name)) kept[name] = v;
        else ignored.push(`${prefix}custom_attributes.${name}`);
      }
      out[key] = kept;
    } else if (key === 'stripe_accounts' && Array.isArray(value)) {
      out[key] = value.map((account, i) => {
        if (!isObject(account)) return account;
        const kept: Record<string, unknown> = Object.create(null);
        for (const [field, v] of Object.entries(account)) {
          if (STRIPE_ACCOUNT_FIELDS.has(field)) kept[field] = v;
          else ignored.push(`${prefix}stripe_accounts.${i}.${field}`);
        }
        return kept;
      });
    } else {
      out[key] = value;
    }
  }
  return { body: out, ignored };
}

/**
 * Whether `splitUnknownFields` may drop something from `body`; false only when it would drop
 * nothing. `for in` also sees inherited enumerable keys, which `splitUnknownFields` does not: a
 * body with any answers true.
 */
function hasUnknownFields(body: Record<string, unknown>, attributeNames: ReadonlySet<string>): boolean {
  for (const key in body) if (!CONTACT_INPUT_FIELDS.has(key)) return true;
  const attrs = body['custom_attributes'];
  if (isObject(attrs)) for (const name in attrs) if (!attributeNames.has(name)) return true;
  const accounts = body['stripe_accounts'];
  if (Array.isArray(accounts)) {
    for (const account of accounts) {
      if (isObject(account)) for (const field in account) if (!STRIPE_ACCOUNT_FIELDS.has(field)) return true;
    }
  }
  return false;
}

/**
 * The batch form (`{"users": [...]}`) the same way: top-level fields other than `users` are
 * dropped, and each item is split as a contact, its paths under `users.N.`.
 */
export function splitUnknownBatchFields(
  body: Record<string, unknown>,
  attributeNames: ReadonlySet<string>,
): SplitFields {
  const ignored: string[] = [];
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(body)) {
    if (key !== 'users') {
      ignored.push(key);
      continue;
    }
    out.users = Array.isArray(value)
      ? value.map((item, i) => {
          const split = splitUnknownFields(item, attributeNames, `users.${i}.`);
          ignored.push(...split.ignored);
          return split.body;
        })
      : value;
  }
  return { body: out, ignored };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
