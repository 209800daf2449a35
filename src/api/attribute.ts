// Custom attributes on input: the bodies that define and change them, and the coercion of values
// by type. A definition as the service returns it is in records.ts (re-exported here).
import * as z from 'zod';
import { numberTextProblem } from './json-numbers.js';
import { ATTRIBUTE_TYPES, CONTACT_RECORD_FIELDS } from './limits.js';
import {
  type AttributeDefinition,
  type AttributeType,
  AttributeTypeSchema,
  type AttributeValue,
} from './records.js';
import { contractRegistry } from './registry.js';

export {
  type AttributeDefinition,
  AttributeDefinitionSchema,
  type AttributeType,
  AttributeTypeSchema,
  type AttributeValue,
  AttributeValueSchema,
} from './records.js';
export { ATTRIBUTE_TYPES };

export const ATTRIBUTE_NAME_RE = /^[a-z][a-z0-9_]{0,63}$/;
export const AttributeNameSchema = z
  .string()
  .regex(
    ATTRIBUTE_NAME_RE,
    'Must start with a lowercase letter and contain only a-z, 0-9 and _ (at most 64 characters)',
  );

const LabelSchema = z.string().trim().min(1).max(255);
const DescriptionSchema = z.string().max(1000).nullable();

/**
 * Names of the contact's own fields: an attribute may not take one (production answers
 * `400 "Reserved field name used"`).
 */
export const RESERVED_ATTRIBUTE_NAMES: ReadonlySet<string> = new Set(CONTACT_RECORD_FIELDS);
export const RESERVED_FIELD_NAME = 'Reserved field name used';

/** Body of `POST .../custom-attributes`. */
export const AttributeCreateSchema = z
  .strictObject({
    name: AttributeNameSchema.refine((n) => !RESERVED_ATTRIBUTE_NAMES.has(n), RESERVED_FIELD_NAME),
    type: AttributeTypeSchema,
    label: LabelSchema.optional(),
    description: DescriptionSchema.optional(),
  })
  .register(contractRegistry, { id: 'AttributeCreate', request: true });
export type AttributeCreate = z.input<typeof AttributeCreateSchema>;

/** Body of `PUT .../custom-attributes/:name`. The type of an attribute never changes. */
export const AttributeUpdateSchema = z
  .strictObject({
    label: LabelSchema.optional(),
    description: DescriptionSchema.optional(),
    archived: z.boolean().optional(),
  })
  .register(contractRegistry, { id: 'AttributeUpdate', request: true });
export type AttributeUpdate = z.input<typeof AttributeUpdateSchema>;

const NUMERIC_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/**
 * Digits grouped by thousands as spreadsheets and reports write them (`1,200.00`, `1.234.567`,
 * `1 200,50`, `1'200.50`): a sign, one to three digits (no leading zero), groups of three behind
 * one mark, and maybe a decimal part behind the other mark.
 */
const GROUPED_RE = /^([+-]?)([1-9]\d{0,2}(?:([,. \u00a0\u202f'\u2019])\d{3})(?:\3\d{3})*)(?:([.,])(\d+))?$/;
/** A decimal comma (`3,5`, `0,500`). */
const DECIMAL_COMMA_RE = /^([+-]?)(\d+),(\d+)$/;

/** A number written with separators, as plain numeric text. */
export interface SeparatedNumber {
  /** Read with its marks as they must be (`1,200.00` -> `1200.00`); for `1,200` or `1.200`, as grouped: `1200`. */
  plain: string;
  /** `1,200` and `1.200` only: the reading with its one mark as the decimal mark (`1.2`). */
  asDecimal?: string;
  /** The decimal mark that the text shows its writer uses, when it shows one. */
  decimalMark?: ',' | '.';
  /** Whether the mark is a thousands separator (not a decimal comma). */
  grouped: boolean;
}

/**
 * A number written with thousands separators or a decimal comma (`1,200.00`, `1.234.567`, `3,5`,
 * `1,200`), as plain numeric text; undefined for any other text (`+34 912 345 678` is a phone).
 */
export function separatedNumber(text: string): SeparatedNumber | undefined {
  const grouped = GROUPED_RE.exec(text);
  if (grouped) {
    const [, sign = '', digits = '', mark = '', decimalMark, fraction] = grouped;
    if (decimalMark !== mark && !(sign === '+' && mark !== ',' && mark !== '.')) {
      const minus = sign === '-' ? '-' : '';
      const whole = `${minus}${digits.split(mark).join('')}`;
      if (decimalMark !== undefined)
        return { plain: `${whole}.${fraction}`, decimalMark: decimalMark as ',' | '.', grouped: true };
      const groups = digits.split(mark).length;
      if ((mark === ',' || mark === '.') && groups === 2)
        return {
          plain: whole,
          asDecimal: String(Number(`${minus}${digits.replace(mark, '.')}`)),
          grouped: true,
        };
      // Two groups or more of one mark: that mark groups, so the other is the decimal mark.
      const other = mark === ',' ? '.' : mark === '.' ? ',' : undefined;
      return { plain: whole, ...(other ? { decimalMark: other } : {}), grouped: true };
    }
  }
  const comma = DECIMAL_COMMA_RE.exec(text);
  if (comma)
    return {
      plain: `${comma[1] === '-' ? '-' : ''}${comma[2]}.${comma[3]}`,
      decimalMark: ',',
      grouped: false,
    };
  return undefined;
}

/**
 * What to write instead of a number written with separators, which the contract does not read:
 * only the writer knows which mark is which (`1.200` is 1.2 as numeric text, and 1200 where dots
 * group). Undefined for other text.
 */
export function separatedNumberProblem(text: string): string | undefined {
  const form = separatedNumber(text);
  if (!form) return undefined;
  if (form.asDecimal !== undefined) {
    const mark = text.includes(',') ? 'comma' : 'dot';
    return `Expected a number: ${text} is ${form.plain} where the ${mark} groups thousands and ${form.asDecimal} where it is the decimal mark; write ${form.plain} or ${form.asDecimal}`;
  }
  return form.grouped
    ? `Expected a number: ${text} has thousands separators; write ${form.plain}`
    : `Expected a number: ${text} has a decimal comma; write ${form.plain}`;
}
const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true, local: true });

const TRUE_STRINGS = new Set(['true', '1']);
const FALSE_STRINGS = new Set(['false', '0']);

const date = z.string({ error: 'Expected an ISO 8601 date or date-time string' }).transform((raw, ctx) => {
  const s = raw.trim();
  if (isoDate.safeParse(s).success) return s;
  if (isoDateTime.safeParse(s).success) {
    // A date-time without an offset is read as UTC, never in the zone of whichever machine
    // happens to run the import.
    const hasOffset = /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(s);
    const t = new Date(hasOffset ? s : `${s}Z`);
    if (!Number.isNaN(t.getTime())) return t.toISOString();
  }
  ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 date (2024-05-31) or date-time' });
  return z.NEVER;
});

/**
 * A date-time whose fractional seconds go past milliseconds, which the service keeps (the
 * stored value is cut to them): said to the user, who may want to know, rather than refused.
 */
export function subMillisecondDigits(value: unknown): boolean {
  return typeof value === 'string' && /[T ]\d{2}:\d{2}:\d{2}[.,]\d{3}\d*[1-9]/.test(value);
}

const text = z.union([z.string(), z.number().transform(String)], {
  error: 'Expected text (a string or a number)',
});

const boolean = z.unknown().transform((v, ctx) => {
  if (v === true || v === 1) return true;
  if (v === false || v === 0) return false;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (TRUE_STRINGS.has(s)) return true;
    if (FALSE_STRINGS.has(s)) return false;
  }
  ctx.addIssue({ code: 'custom', message: 'Expected a boolean (true/false, "true"/"false", 1/0)' });
  return z.NEVER;
});

/**
 * Value schemas by attribute type as the service applies them (contract revision 2): text takes
 * strings and numbers (stored as strings); number takes JSON numbers only (production's error for
 * `"5"` is `Expected number, received string`); boolean takes true/false, "true"/"false", 1/0;
 * date takes ISO 8601 and stores ISO 8601. `null` always clears.
 */
export const attributeValueSchemas = {
  text,
  number: z.unknown().transform((v, ctx) => {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    ctx.addIssue({
      code: 'custom',
      message: typeof v === 'string' ? 'Expected number, received string' : 'Expected a number',
    });
    return z.NEVER;
  }),
  boolean,
  date,
} satisfies Record<AttributeType, z.ZodType<AttributeValue, unknown>>;

/**
 * The same, for values written as text (CSV cells, `--attr seats=3`): a number attribute also
 * takes numeric text, converted to the JSON number the service requires. The importer and the
 * CLI convert with these before sending; the service (and the mock) never see "3" for a number.
 */
export const attributeTextSchemas = {
  ...attributeValueSchemas,
  // One transform rather than a union: numeric strings are the common input (CSV imports),
  // and a union would fail its number branch, building an issue, for every one of them.
  number: z.unknown().transform((v, ctx) => {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string') {
      const s = v.trim();
      if (NUMERIC_RE.test(s)) {
        // "1e400" is numeric text but no finite number, "9007199254740993" no exact one.
        const problem = numberTextProblem(s);
        if (problem === null) return Number(s);
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      const problem = separatedNumberProblem(s);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
    }
    ctx.addIssue({ code: 'custom', message: 'Expected a number or a numeric string' });
    return z.NEVER;
  }),
} satisfies Record<AttributeType, z.ZodType<AttributeValue, unknown>>;

/** Why a custom attribute key cannot take a value, or null when the definition allows it. */
export function attributeKeyProblem(
  definition: AttributeDefinition | undefined,
  value: unknown,
): string | null {
  if (!definition) return 'Unknown custom attribute: define it first';
  if (definition.archived && value !== null) return 'Custom attribute is archived: only null is accepted';
  return null;
}
