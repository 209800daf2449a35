// `client.attributes`: the agent's typed custom attribute definitions.
import type { AttributeCreate, AttributeUpdate } from '../../api/attribute.js';
import { endpoint } from '../../api/operations.js';
import type { AttributeDefinition } from '../../api/records.js';
import { ANSWERS } from '../answers.js';
import type { ClientCore, RequestOptions } from './core.js';

export class Attributes {
  constructor(private readonly core: ClientCore) {}

  /** All definitions of the agent, archived ones too. */
  async list(options: RequestOptions = {}): Promise<AttributeDefinition[]> {
    const res = await this.core.request({
      ...options,
      ...endpoint('listAttributes', { agentId: this.core.agentId(options) }),
    });
    return this.core.parse(res, ANSWERS.definitions, 'a list of attribute definitions');
  }

  /** Defines a typed attribute (`text`, `number`, `boolean` or `date`). */
  async define(definition: AttributeCreate, options: RequestOptions = {}): Promise<AttributeDefinition> {
    const res = await this.core.request({
      ...options,
      ...endpoint('defineAttribute', { agentId: this.core.agentId(options) }),
      body: definition,
    });
    return this.core.parse(res, ANSWERS.definition, 'an attribute definition');
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
    return this.core.parse(res, ANSWERS.definition, 'an attribute definition');
  }
}
