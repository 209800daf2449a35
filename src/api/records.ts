// What the service returns, as read: a custom attribute definition and a contact. The client
// checks answers with their JSON Schema (answer-schemas.ts, generated from these), not with zod;
// the mock and the OpenAPI document use them as they are.
import * as z from 'zod';
import { ATTRIBUTE_TYPES } from './limits.js';
import { contractRegistry } from './registry.js';

export const AttributeTypeSchema = z
  .enum(ATTRIBUTE_TYPES)
  .register(contractRegistry, { id: 'AttributeType' });
export type AttributeType = z.infer<typeof AttributeTypeSchema>;

/** A definition as the service returns it. Extra fields are allowed (forward compatible). */
export const AttributeDefinitionSchema = z
  .looseObject({
    name: z.string(),
    type: AttributeTypeSchema,
    label: z.string(),
    description: z.string().nullable(),
    archived: z.boolean(),
  })
  .register(contractRegistry, { id: 'AttributeDefinition' });
export type AttributeDefinition = z.infer<typeof AttributeDefinitionSchema>;

/** A stored attribute value: what a contact record can hold under `custom_attributes`. */
export const AttributeValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type AttributeValue = z.infer<typeof AttributeValueSchema>;

/**
 * A Stripe account linked to a contact, as the service returns it (prod). A missing id or email
 * may come as null from a server that writes every key: read as absent, never refused.
 */
export const StripeAccountSchema = z
  .looseObject({
    label: z.string(),
    stripe_id: z.string().nullish(),
    stripe_email: z.string().nullish(),
  })
  .register(contractRegistry, { id: 'StripeAccount' });
export type StripeAccount = z.infer<typeof StripeAccountSchema>;

/** A contact as the service returns it. Extra fields are allowed (forward compatible). */
export const ContactSchema = z
  .looseObject({
    id: z.string(),
    external_id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phonenumber: z.string().nullable(),
    custom_attributes: z.record(z.string(), AttributeValueSchema),
    // `[]` when none (prod); a server of revision 1 that leaves it out reads as none.
    stripe_accounts: z.array(StripeAccountSchema).default([]),
    created_at: z.number().int(),
    updated_at: z.number().int(),
  })
  .register(contractRegistry, { id: 'Contact' });
export type Contact = z.infer<typeof ContactSchema>;
