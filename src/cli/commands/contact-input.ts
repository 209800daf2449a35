// Builds a contact body from `--data` (inline JSON, @file or @- for stdin) and the field
// flags, which win. The service validates it against the contract and names what is wrong.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AttributeDefinition } from '../../api/attribute.js';
import { jsonDepthExceeds } from '../../api/json-depth.js';
import { jsonNumberProblem } from '../../api/json-numbers.js';
import { MAX_JSON_DEPTH } from '../../api/limits.js';
import { didYouMean } from '../../util/suggest.js';
import { UsageError } from '../errors.js';
import type { AttrValue } from '../options.js';

export interface FieldOptions {
  externalId?: string;
  name?: string;
  email?: string;
  phone?: string;
  /** The field's own name, accepted beside `--phone`. */
  phonenumber?: string;
  attr?: Record<string, AttrValue>;
  stripeAccount?: Record<string, string>[];
  data?: string;
  unset?: string[];
}

type Body = Record<string, unknown> & { custom_attributes?: Record<string, unknown> };

/** `--data`: JSON inline, `@file` or `@-` for stdin, parsed; `from` names it in errors. */
export async function readJsonData(
  spec: string,
  stdin: AsyncIterable<string | Uint8Array>,
  cwd: string,
): Promise<{ value: unknown; from: string }> {
  let text = spec;
  let from = '--data';
  if (spec === '@-') {
    const { readAllStdin } = await import('../prompt.js');
    text = await readAllStdin(stdin, { maxBytes: 1024 * 1024 });
    from = '--data @- (stdin)';
  } else if (spec.startsWith('@')) {
    const file = resolve(cwd, spec.slice(1));
    text = await readFile(file, 'utf8');
    from = `--data ${spec}`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${from} is not valid JSON: ${(err as Error).message}`);
  }
  // JSON.parse rounds what a number cannot hold (1e400 to Infinity, which would clear a value):
  // the text says what the user meant.
  const problem = jsonNumberProblem(text);
  if (problem) throw new UsageError(`${from}: ${problem.path || 'the value'}: ${problem.reason}`);
  return { value, from };
}

async function readData(spec: string, stdin: AsyncIterable<string | Uint8Array>, cwd: string): Promise<Body> {
  const { value, from } = await readJsonData(spec, stdin, cwd);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`${from} must be a JSON object, e.g. '{"external_id": "u1", "name": "Ada"}'`);
  }
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    throw new UsageError(`${from} is nested deeper than ${MAX_JSON_DEPTH} levels: not a contact`);
  }
  const body = value as Body;
  if (
    body.custom_attributes !== undefined &&
    (typeof body.custom_attributes !== 'object' || body.custom_attributes === null)
  ) {
    throw new UsageError(`${from}: custom_attributes must be an object`);
  }
  return body;
}

const UNSET_FIELDS: Record<string, string> = {
  name: 'name',
  email: 'email',
  phone: 'phonenumber',
  phonenumber: 'phonenumber',
  stripe_accounts: 'stripe_accounts',
};

/**
 * The request body for `upsert` (external_id required) or `update` (a partial change). A phone
 * number, from `--phone` or `--data`, is sent in E.164; a national one is read as a number of
 * `defaultCountry`.
 */
export async function contactBody(
  options: FieldOptions,
  io: {
    stdin: AsyncIterable<string | Uint8Array>;
    cwd: string;
    defaultCountry?: string | undefined;
    /** The agent's definitions, asked for only when `--attr` is used: values are typed with them. */
    definitions?: () => Promise<AttributeDefinition[]>;
    /** Told of a value sent though the service keeps less of it (a date-time's microseconds). */
    warn?: (message: string) => void;
  },
): Promise<Body> {
  const body: Body = options.data ? await readData(options.data, io.stdin, io.cwd) : {};
  if (options.externalId !== undefined) body.external_id = options.externalId;
  if (options.name !== undefined) body.name = options.name;
  if (options.email !== undefined) body.email = options.email;
  const phone = options.phone ?? options.phonenumber;
  if (phone !== undefined) body.phonenumber = phone;
  // Attribute names come from the user: no prototype, so `__proto__` is a key like any other.
  const attrs: Record<string, unknown> = Object.assign(Object.create(null), body.custom_attributes ?? {});
  if (options.attr && Object.keys(options.attr).length > 0) {
    Object.assign(attrs, await typedAttributes(options.attr, (await io.definitions?.()) ?? [], io.warn));
  }
  if (options.stripeAccount) body.stripe_accounts = options.stripeAccount;
  for (const field of options.unset ?? []) {
    if (field.startsWith('attr.') && field.length > 5) {
      const name = field.slice(5);
      if (options.attr && Object.hasOwn(options.attr, name)) {
        throw new UsageError(`--attr ${name} and --unset ${field} both given: set it or clear it`);
      }
      attrs[name] = null;
      continue;
    }
    if (field === 'stripe_accounts' && options.stripeAccount) {
      throw new UsageError(
        '--stripe-account and --unset stripe_accounts both given: set the list or clear it',
      );
    }
    const key = Object.hasOwn(UNSET_FIELDS, field) ? UNSET_FIELDS[field] : undefined;
    if (!key) {
      throw new UsageError(
        `--unset ${field}: not a field that can be cleared${didYouMean(field, Object.keys(UNSET_FIELDS))}`,
        {
          hint: 'Use name, email, phone, stripe_accounts or attr.<name>.',
        },
      );
    }
    body[key] = null;
  }
  if (Object.keys(attrs).length > 0) body.custom_attributes = attrs;
  if (typeof body.phonenumber === 'string') {
    // Loaded only when a number is given: its metadata is most of a command's start-up otherwise.
    const { normalizePhoneNumber } = await import('../../client/phone.js');
    const normalised = normalizePhoneNumber(body.phonenumber, io.defaultCountry);
    if (!normalised.ok) {
      const from =
        options.phone !== undefined
          ? '--phone'
          : options.phonenumber !== undefined
            ? '--phonenumber'
            : 'phonenumber';
      const flag = normalised.code === 'needs_country' ? ' (--default-country GB)' : '';
      throw new UsageError(`${from}: ${normalised.reason}${flag}`);
    }
    body.phonenumber = normalised.e164;
  }
  return body;
}

/**
 * `--attr` values in their attributes' JSON types: `seats=3` becomes the number 3 for a number
 * attribute, as the service requires; `seats:=3` is sent as written. A name the agent has not
 * defined is refused here, with the nearest defined one, rather than dropped by the service.
 */
async function typedAttributes(
  attrs: Record<string, AttrValue>,
  definitions: readonly AttributeDefinition[],
  warn: ((message: string) => void) | undefined,
): Promise<Record<string, unknown>> {
  const { attributeTextSchemas, subMillisecondDigits } = await import('../../api/attribute.js');
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(attrs)) {
    const definition = byName.get(name);
    if (!definition) {
      const active = definitions.filter((d) => !d.archived).map((d) => d.name);
      throw new UsageError(`--attr ${name}: no such custom attribute${didYouMean(name, active)}`, {
        hint: active.length
          ? `Defined: ${active.join(', ')}. Define it first: contacts attrs define ${name} --type text`
          : `Define it first: contacts attrs define ${name} --type text`,
      });
    }
    if ('json' in value) {
      out[name] = value.json;
      continue;
    }
    const parsed = attributeTextSchemas[definition.type].safeParse(value.text);
    if (!parsed.success) {
      const reason = parsed.error.issues[0]?.message ?? `not a ${definition.type}`;
      throw new UsageError(
        `--attr ${name}=${value.text}: ${reason} (${name} is a ${definition.type} attribute)`,
      );
    }
    out[name] = parsed.data;
    if (definition.type === 'date' && subMillisecondDigits(value.text)) {
      warn?.(`--attr ${name}: ${value.text.trim()} is stored to the millisecond, as ${String(parsed.data)}`);
    }
  }
  return out;
}
