// The answers the client checks without zod: generated from the contract's zod schemas and kept
// in step with them, read by keywords the checker knows, and judged as zod judges them.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { checkJson, JSON_SCHEMA_KEYWORDS } from '../../src/api/answer-check.js';
import { ANSWER_SCHEMAS } from '../../src/api/answer-schemas.js';
import { ContactListResponseSchema, ErrorBodySchema } from '../../src/api/envelope.js';
import { type AnswerName, answerSchemas } from '../../src/api/openapi.js';
import { AttributeDefinitionSchema, ContactSchema } from '../../src/api/records.js';

const ZOD: Record<AnswerName, z.ZodType> = {
  Contact: ContactSchema,
  AttributeDefinition: AttributeDefinitionSchema,
  ContactListResponse: ContactListResponseSchema,
  ErrorBody: ErrorBodySchema,
};

function keywordsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return out;
  for (const [key, value] of Object.entries(schema)) {
    out.add(key);
    if (key === 'properties') for (const p of Object.values(value as object)) keywordsOf(p, out);
    else if (key !== 'default' && key !== 'enum') keywordsOf(value, out);
  }
  return out;
}

const contact = {
  id: 'ct_1',
  external_id: 'u1',
  name: 'Ada',
  email: null,
  phonenumber: '+442079460958',
  custom_attributes: { plan: 'pro', seats: 3, vip: true, note: null },
  stripe_accounts: [{ label: 'main', stripe_id: 'cus_1' }],
  created_at: 1700000000,
  updated_at: 1700000001,
};
const definition = { name: 'plan', type: 'text', label: 'Plan', description: null, archived: false };

/** Answers a server might send, within the contract and not. */
const SAMPLES: Record<AnswerName, unknown[]> = {
  Contact: [
    contact,
    { ...contact, stripe_accounts: undefined },
    { ...contact, tags: ['extra'] },
    { ...contact, stripe_accounts: [{ label: 'x', stripe_id: null, stripe_email: null }] },
    { ...contact, id: 42 },
    { ...contact, name: undefined },
    { ...contact, created_at: 1.5 },
    { ...contact, created_at: 2 ** 60 },
    { ...contact, custom_attributes: { plan: ['a'] } },
    { ...contact, stripe_accounts: [{ stripe_id: 'cus_1' }] },
    [contact],
    null,
  ],
  AttributeDefinition: [
    definition,
    { ...definition, type: 'date', description: 'd' },
    { ...definition, type: 'colour' },
    { ...definition, archived: 'no' },
  ],
  ContactListResponse: [
    { message: 'Success', data: [contact], total: 1, pages: { page: 1, per_page: 20, total_pages: 1 } },
    { message: 'Success', data: [contact], total: 1, pages: { page: 1 } },
    {
      message: 'Success',
      data: [{ ...contact, email: 3 }],
      total: 1,
      pages: { page: 1, per_page: 20, total_pages: 1 },
    },
  ],
  ErrorBody: [
    { message: 'Not found' },
    { message: 'Invalid', issues: [{ field: 'email', message: 'bad' }] },
    { message: 'Invalid', issues: [{ field: 'email' }] },
    { error: 'no message' },
  ],
};

/** Answers as JSON text, where a `__proto__` key is a key and `1e400` is Infinity. */
const TEXT_SAMPLES: [AnswerName, string][] = [
  ['Contact', `{"__proto__":{"isAdmin":true},${JSON.stringify(contact).slice(1)}`],
  [
    'Contact',
    JSON.stringify({ ...contact, custom_attributes: { plan: 'pro' } }).replace(
      '"plan"',
      '"__proto__":null,"plan"',
    ),
  ],
  ['Contact', JSON.stringify({ ...contact, custom_attributes: { n: 1 } }).replace('"n":1', '"n":1e400')],
  ['Contact', JSON.stringify({ ...contact, custom_attributes: { n: 1 } }).replace('"n":1', '"n":-1e400')],
];

describe('ANSWER_SCHEMAS', () => {
  it('is what the contract generates (else: npm run build && node scripts/write-answer-schemas.js)', () => {
    expect(ANSWER_SCHEMAS).toEqual(answerSchemas());
  });

  it('refuses a record whose JSON Schema would drop part of it (a refine, a transform, a catch, a trim)', () => {
    const broken = {
      refine: ContactSchema.refine((c) => c.id !== ''),
      transform: z.looseObject({ id: z.string().transform((id) => id.toUpperCase()) }),
      catch: z.looseObject({ id: z.string().catch('none') }),
      trim: z.looseObject({ id: z.string().trim() }),
    };
    for (const [what, schema] of Object.entries(broken)) {
      expect(() => answerSchemas({ ...ZOD, Contact: schema }), what).toThrow(
        /^Contact.*has no JSON Schema, so the client could not check it without zod/,
      );
    }
  });

  it('uses only keywords the checker reads', () => {
    for (const schema of Object.values(ANSWER_SCHEMAS)) {
      expect([...keywordsOf(schema)].filter((k) => !JSON_SCHEMA_KEYWORDS.includes(k))).toEqual([]);
    }
  });

  it('passes and refuses what zod does, and reads what passes as zod reads it', () => {
    for (const [name, samples] of Object.entries(SAMPLES) as [AnswerName, unknown[]][]) {
      for (const sample of samples) {
        const byZod = ZOD[name].safeParse(structuredClone(sample));
        const byChecker = checkJson(structuredClone(sample), ANSWER_SCHEMAS[name]);
        expect({ name, sample, ok: byChecker.ok }).toEqual({ name, sample, ok: byZod.success });
        if (byChecker.ok && byZod.success) expect(byChecker.value).toEqual(byZod.data);
      }
    }
    for (const [name, text] of TEXT_SAMPLES) {
      const byZod = ZOD[name].safeParse(JSON.parse(text));
      const byChecker = checkJson(JSON.parse(text), ANSWER_SCHEMAS[name]);
      expect({ text, ok: byChecker.ok }).toEqual({ text, ok: byZod.success });
      if (byChecker.ok && byZod.success) {
        expect(Object.hasOwn(byChecker.value as object, '__proto__')).toBe(false);
        expect(byChecker.value).toEqual(byZod.data);
      }
    }
  });
});
