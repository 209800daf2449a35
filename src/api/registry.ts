// The registry of named contract schemas: the OpenAPI document's components come from it.
import * as z from 'zod';

export const contractRegistry = z.registry<{ id: string; description?: string }>();
