// The envelopes around every payload: success, the paginated contact list, and errors.
import * as z from 'zod';
import { UNKNOWN_FIELD } from './messages.js';
import { ContactSchema } from './records.js';
import { contractRegistry } from './registry.js';

/** The schema of `{"message": "Success", "data": <payload>}`. */
export type SuccessEnvelopeSchema<T extends z.ZodType> = z.ZodObject<
  { message: z.ZodString; data: T },
  z.core.$loose
>;

/**
 * The schema dataPayload() returns: either shape in, the payload out. Named rather than
 * inferred, so that the published declarations say this and not zod's expansion of it, which
 * does not compile under `skipLibCheck: false`.
 */
export type DataPayloadSchema<T extends z.ZodType> = z.ZodPipe<
  z.ZodUnion<readonly [SuccessEnvelopeSchema<T>, T]>,
  z.ZodTransform<z.output<T>, z.output<SuccessEnvelopeSchema<T>> | z.output<T>>
>;

/** `{"message": "Success", "data": <payload>}`. */
export function successEnvelope<T extends z.ZodType>(data: T): SuccessEnvelopeSchema<T> {
  return z.looseObject({ message: z.string(), data });
}

/**
 * The payload of a success response: the envelope's `data`, or the body itself when a server
 * sends it bare (clients tolerate both).
 */
export function dataPayload<T extends z.ZodType>(data: T): DataPayloadSchema<T> {
  return z.union([successEnvelope(data), data]).transform((body) => {
    const isEnvelope = body !== null && typeof body === 'object' && !Array.isArray(body) && 'data' in body;
    return (isEnvelope ? (body as { data: unknown }).data : body) as z.output<T>;
  });
}

export const PaginationSchema = z
  .looseObject({
    page: z.number().int(),
    per_page: z.number().int(),
    total_pages: z.number().int(),
  })
  .register(contractRegistry, { id: 'Pagination' });
export type Pagination = z.infer<typeof PaginationSchema>;

export const ContactListResponseSchema = z
  .looseObject({
    message: z.string(),
    data: z.array(ContactSchema),
    total: z.number().int(),
    pages: PaginationSchema,
  })
  .register(contractRegistry, { id: 'ContactListResponse' });
export type ContactListResponse = z.infer<typeof ContactListResponseSchema>;

export const IssueSchema = z
  .looseObject({ field: z.string(), message: z.string() })
  .register(contractRegistry, { id: 'Issue' });
export type Issue = z.infer<typeof IssueSchema>;

export const ErrorBodySchema = z
  .looseObject({ message: z.string(), issues: z.array(IssueSchema).optional() })
  .register(contractRegistry, { id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Zod issues as the contract's `issues`: dotted field paths (`users.3.email`). */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.flatMap((i): Issue[] => {
    if (i.code === 'unrecognized_keys') {
      return i.keys.map((key) => ({ field: dotted([...i.path, key]), message: UNKNOWN_FIELD }));
    }
    return [{ field: dotted(i.path) || '(body)', message: i.message }];
  });
}

const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');
