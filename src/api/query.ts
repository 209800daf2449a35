// Query parameters of the contact list.
import * as z from 'zod';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX, PER_PAGE_MIN } from './limits.js';

const intParam = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'Expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

export const ListQuerySchema = z.object({
  page: intParam(1, Number.MAX_SAFE_INTEGER, 1),
  per_page: intParam(PER_PAGE_MIN, PER_PAGE_MAX, PER_PAGE_DEFAULT),
});
export type ListQuery = z.output<typeof ListQuerySchema>;
