// `client.attributes`: the agent's typed custom attribute definitions.
import * as z from 'zod';
import type { AttributeCreate, AttributeUpdate } from '../../api/attribute.js';
import { dataPayload } from '../../api/envelope.js';
import { endpoint } from '../../api/operations.js';
import { type AttributeDefinition, AttributeDefinitionSchema } from '../../api/records.js';
import type { ClientCore, RequestOptions } from './core.js';

// The answers' schemas, built by the first call that reads one (not when the client loads).
const buildPayloads = () => ({
  definition: dataPayload(AttributeDefinitionSchema),
  definitions: dataPayload(z.array(AttributeDefinitionSchema)),
});
let built: ReturnType<typeof buildPayloads> | undefined;
const payloads = () => (built ??= buildPayloads());

export class Attributes {
  constructor(private readonly core: ClientCore) {}

  /** All definitions of the agent, archived ones too. */
  async list(options: RequestOptions = {}): Promise<AttributeDefinition[]> {
    const res = await this.core.request({
      ...options,
      ...endpoint('listAttributes', { agentId: this.core.agentId(options) }),
    });
    return this.core.parse(res, payloads().definitions, 'a list of attribute definitions');
  }

  /** Defines a typed attribute (`text`, `number`, `boolean` or `date`). */
  async define(definition: AttributeCreate, options: RequestOptions = {}): Promise<AttributeDefinition> {
    const res = await this.core.request({
      ...options,
      ...endpoint('defineAttribute', { agentId: this.core.agentId(options) }),
      body: definition,
    });
    return this.core.parse(res, payloads().definition, 'an attribute definition');
  }

  /** Changes the label or description, or archives/unarchives; the type never changes. */
  async update(
    name: string,
    changes: AttributeUpdate,
    options: RequestOptions = {},
  ): Promise<AttributeDefinition> {
    const res = await this.core.request({
      ...options,
      ...endpoint('updateAttribute', { agentId: this.core.agentId(options), name }),
      body: changes,
    });
    return this.core.parse(res, payloads().definition, 'an attribute definition');
  }
}
