// The OpenAPI 3.1 document, generated from the contract's zod schemas (never written by hand).
import * as z from 'zod';
import { API_PREFIX, PER_PAGE_DEFAULT, PER_PAGE_MAX, PER_PAGE_MIN } from './limits.js';
import { contractRegistry } from './registry.js';
import './contact.js';
import './envelope.js';
import './attribute.js';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const success = (data: object) => ({
  type: 'object',
  required: ['message', 'data'],
  properties: { message: { type: 'string', const: 'Success' }, data },
});
const errorResponse = (description: string) => ({ description, ...json(ref('ErrorBody')) });

const commonErrors = {
  '401': errorResponse('Missing or rejected API key'),
  '413': errorResponse('Body larger than 1 MiB'),
  '415': errorResponse('Body is not application/json'),
  '429': errorResponse('Rate limit exceeded (see Retry-After)'),
};

const agentParam = { name: 'agentId', in: 'path', required: true, schema: { type: 'string' } };
const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'Resolved as an external_id first, then as the service id',
  schema: { type: 'string' },
};
const nameParam = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };

export function buildOpenApiDocument(version = '0.0.0'): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(contractRegistry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  for (const s of Object.values(schemas)) {
    delete (s as { $schema?: string }).$schema;
    delete (s as { $id?: string }).$id;
  }

  const base = `${API_PREFIX}/chatbots/{agentId}`;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Contacts API',
      version,
      description: 'Generated from the zod contract of contacts-cli (see shared contract).',
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:4010' } } }],
    security: [{ bearer: [] }],
    paths: {
      [`${base}/contacts`]: {
        parameters: [agentParam],
        get: {
          operationId: 'listContacts',
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
            {
              name: 'per_page',
              in: 'query',
              schema: {
                type: 'integer',
                minimum: PER_PAGE_MIN,
                maximum: PER_PAGE_MAX,
                default: PER_PAGE_DEFAULT,
              },
            },
          ],
          responses: {
            '200': { description: 'A page of contacts, oldest first', ...json(ref('ContactListResponse')) },
            '400': errorResponse('Bad parameters or page out of range'),
            ...commonErrors,
          },
        },
        post: {
          operationId: 'upsertContact',
          description:
            'Upsert by external_id; a body with `users` is the batch form (1..1000, all or nothing).',
          requestBody: { required: true, ...json({ oneOf: [ref('ContactInput'), ref('BatchUpsert')] }) },
          responses: {
            '200': {
              description: 'Updated (single) or the batch in request order',
              ...json(success({ oneOf: [ref('Contact'), { type: 'array', items: ref('Contact') }] })),
            },
            '201': { description: 'Created', ...json(success(ref('Contact'))) },
            '400': errorResponse('Invalid body; issues name each field'),
            '409': errorResponse('Email already exists'),
            ...commonErrors,
          },
        },
      },
      [`${base}/contacts/{id}`]: {
        parameters: [agentParam, idParam],
        get: {
          operationId: 'getContact',
          responses: {
            '200': { description: 'The contact', ...json(success(ref('Contact'))) },
            '404': errorResponse('Contact not found'),
            ...commonErrors,
          },
        },
        patch: {
          operationId: 'updateContact',
          description: 'Partial update; also accepts the body wrapped as {"data": {...}}.',
          requestBody: { required: true, ...json(ref('ContactPatch')) },
          responses: {
            '200': { description: 'The updated contact', ...json(success(ref('Contact'))) },
            '400': errorResponse('Invalid body'),
            '404': errorResponse('Contact not found'),
            '409': errorResponse('Email or external_id already in use'),
            ...commonErrors,
          },
        },
        delete: {
          operationId: 'deleteContact',
          responses: {
            '200': { description: 'The deleted contact', ...json(success(ref('Contact'))) },
            '404': errorResponse('Contact not found'),
            ...commonErrors,
          },
        },
      },
      [`${base}/custom-attributes`]: {
        parameters: [agentParam],
        get: {
          operationId: 'listAttributes',
          responses: {
            '200': {
              description: 'All definitions, archived ones too',
              ...json(success({ type: 'array', items: ref('AttributeDefinition') })),
            },
            ...commonErrors,
          },
        },
        post: {
          operationId: 'defineAttribute',
          requestBody: { required: true, ...json(ref('AttributeCreate')) },
          responses: {
            '201': { description: 'The definition', ...json(success(ref('AttributeDefinition'))) },
            '400': errorResponse('Invalid definition'),
            '409': errorResponse('Custom attribute already exists'),
            ...commonErrors,
          },
        },
      },
      [`${base}/custom-attributes/{name}`]: {
        parameters: [agentParam, nameParam],
        put: {
          operationId: 'updateAttribute',
          requestBody: { required: true, ...json(ref('AttributeUpdate')) },
          responses: {
            '200': { description: 'The definition', ...json(success(ref('AttributeDefinition'))) },
            '400': errorResponse('Invalid change (the type cannot change)'),
            '404': errorResponse('Custom attribute not found'),
            ...commonErrors,
          },
        },
      },
      '/health': {
        get: { security: [], operationId: 'health', responses: { '200': { description: 'Alive' } } },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A workspace key: bk_...' } },
      schemas,
    },
  };
}
