// The registry of named schemas, from which the OpenAPI document takes its components.
import { describe, expect, it } from 'vitest';
import '../../src/api/index.js';
import { buildOpenApiDocument } from '../../src/api/openapi.js';
import { contractRegistry } from '../../src/api/registry.js';

describe('contractRegistry', () => {
  it('names each schema of the contract, each under its own id, and the document has every one', () => {
    const doc = buildOpenApiDocument() as { components: { schemas: Record<string, unknown> } };
    const ids = Object.keys(doc.components.schemas);
    for (const id of ['Contact', 'ContactInput', 'ContactPatch', 'BatchUpsert', 'ErrorBody', 'Pagination']) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks request bodies, and which of them drop unknown fields', async () => {
    const { ContactInputSchema, ContactSchema, AttributeCreateSchema } = await import(
      '../../src/api/index.js'
    );
    expect(contractRegistry.get(ContactInputSchema)).toMatchObject({
      id: 'ContactInput',
      request: true,
      dropsUnknownFields: true,
    });
    expect(contractRegistry.get(ContactSchema)?.request).toBeUndefined();
    expect(contractRegistry.get(AttributeCreateSchema)?.dropsUnknownFields).toBeUndefined();
  });
});
