// The registry of named contract schemas: the OpenAPI document's components come from it.
import * as z from 'zod';

export interface ContractMeta {
  id: string;
  description?: string;
  /** A request body (or part of one): documented as the service reads it, not as it answers. */
  request?: true;
  /**
   * The service drops the fields it does not know instead of refusing them (contract revision
   * 2): the document does not forbid them, though the schema, used for local checks, does.
   */
  dropsUnknownFields?: true;
  /** At least one of these fields must be given (a rule JSON Schema says with `anyOf`). */
  requiresAnyOf?: readonly string[];
}

export const contractRegistry = z.registry<ContractMeta>();
