// The OpenAPI 3.1 document, generated from the contract's zod schemas (never written by hand).
import * as z from 'zod';
import { MAX_IGNORED_HEADER_LENGTH } from './headers.js';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX, PER_PAGE_MIN } from './limits.js';
import { OPERATIONS, type Operation, templateParams } from './operations.js';
import { contractRegistry } from './registry.js';
import './contact.js';
import { ContactListResponseSchema, ErrorBodySchema } from './envelope.js';
import './attribute.js';
import { AttributeDefinitionSchema, ContactSchema } from './records.js';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const success = (data: object) => ({
  type: 'object',
  required: ['message', 'data'],
  properties: { message: { type: 'string', const: 'Success' }, data },
});
const errorResponse = (description: string) => ({ description, ...json(ref('ErrorBody')) });

/** Every operation may answer these (beside its own errors). */
const commonErrors = {
  '401': errorResponse('Missing or rejected API key: "Unauthorized access"'),
  '404': errorResponse(
    'The agent does not exist: "Chatbot not found" (or, per operation, the contact or attribute)',
  ),
  '413': errorResponse('Body larger than 1 MiB'),
  '415': errorResponse('Body is not application/json'),
  '429': errorResponse('Rate limit exceeded (see Retry-After and X-RateLimit-*)'),
};

const requestIdHeader = {
  'x-request-id': {
    description: 'Unique per response, errors included: quote it to support',
    schema: { type: 'string' },
  },
};
const ignoredHeader = {
  'x-contacts-ignored': {
    description:
      'Comma-separated dotted paths of the fields the service dropped because it does not know them ' +
      '(unknown top-level fields, custom_attributes keys that name no attribute, unknown keys of a ' +
      'Stripe account); characters outside visible ASCII, "%" and "," are percent-encoded (UTF-8), ' +
      `and the list stops at about ${MAX_IGNORED_HEADER_LENGTH} characters`,
    schema: { type: 'string' },
  },
  'x-contacts-ignored-count': {
    description: 'How many fields were dropped in all (x-contacts-ignored may name fewer)',
    schema: { type: 'integer', minimum: 1 },
  },
};

const PARAMS: Record<string, object> = {
  agentId: { name: 'agentId', in: 'path', required: true, schema: { type: 'string' } },
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Resolved as an external_id first, then as the service id',
    schema: { type: 'string' },
  },
  name: { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
};

const LIST_QUERY = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'per_page',
    in: 'query',
    schema: { type: 'integer', minimum: PER_PAGE_MIN, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT },
  },
];

/** The OpenAPI operation object of one entry of the operations table. */
function operationObject(op: Operation): Record<string, unknown> {
  const writes = op.body !== undefined && op.id !== 'defineAttribute' && op.id !== 'updateAttribute';
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.success)) {
    const schema = r.body
      ? ref(r.body)
      : success(Array.isArray(r.data) ? { type: 'array', items: ref(r.data[0]) } : ref(r.data!));
    // The batch form answers 200 with the list of contacts.
    const content =
      op.id === 'upsertContact' && status === '200'
        ? success({ oneOf: [ref('Contact'), { type: 'array', items: ref('Contact') }] })
        : schema;
    responses[status] = {
      description: r.description,
      headers: writes ? { ...requestIdHeader, ...ignoredHeader } : requestIdHeader,
      ...json(content),
    };
  }
  for (const [status, description] of Object.entries(op.errors))
    responses[status] = errorResponse(description);
  for (const [status, response] of Object.entries(commonErrors)) responses[status] ??= response;
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.query === 'list' ? { parameters: LIST_QUERY } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            ...json(op.body.length === 1 ? ref(op.body[0]!) : { oneOf: op.body.map(ref) }),
          },
        }
      : {}),
    responses,
  };
}

/** OpenAPI `paths`, one per path template of the operations table. */
function pathsObject(): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    out[op.path] ??= { parameters: templateParams(op.path).map((p) => PARAMS[p]) };
    out[op.path]![op.method.toLowerCase()] = operationObject(op);
  }
  return out;
}

/**
 * The components: request bodies as the service reads them (`io: input`: a field with a default
 * may be left out), records as it answers them (`io: output`: `stripe_accounts` is always there).
 */
function componentSchemas(): Record<string, Record<string, unknown>> {
  const requests = new Set<string>();
  const pass = (io: 'input' | 'output') =>
    z.toJSONSchema(contractRegistry, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      uri: (id) => `#/components/schemas/${id}`,
      override: ({ zodSchema, jsonSchema }) => {
        const meta = contractRegistry.get(zodSchema as unknown as z.ZodType);
        if (!meta) return;
        if (meta.request) requests.add(meta.id);
        if (meta.dropsUnknownFields) {
          // Unknown fields are dropped and named in x-contacts-ignored, not refused.
          delete jsonSchema.additionalProperties;
        }
        if (meta.requiresAnyOf) jsonSchema.anyOf = meta.requiresAnyOf.map((f) => ({ required: [f] }));
      },
    }).schemas as Record<string, Record<string, unknown>>;
  const input = pass('input');
  const output = pass('output');
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const id of Object.keys(output)) {
    const s = { ...(requests.has(id) ? input[id] : output[id]) };
    delete s.$schema;
    delete s.$id;
    schemas[id] = s;
  }
  return schemas;
}

export function buildOpenApiDocument(version = '0.0.0'): Record<string, unknown> {
  const schemas = componentSchemas();

  return {
    openapi: '3.1.0',
    info: {
      title: 'Contacts API',
      version,
      description: 'Generated from the zod contract of contacts-cli (see shared contract).',
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:4010' } } }],
    security: [{ bearer: [] }],
    paths: pathsObject(),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A workspace key: bk_...' } },
      schemas,
    },
  };
}

/** The answers the client checks, by name (answer-schemas.ts holds them, generated from these). */
const ANSWERS = {
  Contact: ContactSchema,
  AttributeDefinition: AttributeDefinitionSchema,
  ContactListResponse: ContactListResponseSchema,
  ErrorBody: ErrorBodySchema,
} as const;
export type AnswerName = keyof typeof ANSWERS;

/**
 * The answers as JSON Schema, as the service may send them (`io: input`: a field with a default
 * may be left out), each whole (no `$ref`): what answer-schemas.ts is written from. A part JSON
 * Schema cannot say (a refine, a transform) is refused: the client would not check it.
 */
export function answerSchemas(
  answers: Readonly<Record<AnswerName, z.ZodType>> = ANSWERS,
): Record<AnswerName, Record<string, unknown>> {
  const out = {} as Record<AnswerName, Record<string, unknown>>;
  for (const [name, schema] of Object.entries(answers) as [AnswerName, z.ZodType][]) {
    const s = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'throw',
      override: ({ zodSchema, path }) => refuseUnwritten(name, zodSchema, path),
    });
    delete s.$schema;
    out[name] = s;
  }
  return out;
}

/** What JSON Schema drops without a word: a record's refine, transform, catch or overwrite. */
const UNWRITTEN_TYPES = new Set(['pipe', 'transform', 'catch', 'prefault']);
const UNWRITTEN_CHECKS = new Set(['custom', 'overwrite']);

/** Refuses a part of an answer's schema that its JSON Schema would leave out (so the client would not check it). */
function refuseUnwritten(name: string, schema: z.core.$ZodTypes, path: (string | number)[]): void {
  const def = schema._zod.def;
  const checks = 'checks' in def ? (def.checks ?? []) : [];
  const check = checks.find((c) => UNWRITTEN_CHECKS.has(c._zod.def.check))?._zod.def.check;
  if (UNWRITTEN_TYPES.has(def.type) || check) {
    throw new Error(
      `${name}${path.length ? ` at ${path.join('.')}` : ''}: ${check ?? def.type} has no JSON Schema, so the client ` +
        'could not check it without zod: keep the answers to what JSON Schema says',
    );
  }
}
