// Reading a refusal: which rows of a batch the service named (`users.N.field` issues, contract
// revision 2), whether it refused the batch form itself, and the reason a row is rejected with.
import {
  type APIError,
  BadRequestError,
  ConflictError,
  ContactLimitError,
  PayloadTooLargeError,
} from '../../client/errors.js';

/** Errors that belong to the rows sent (their data), not to the service or the connection. */
export function isRowRejection(error: unknown): error is APIError {
  return (
    error instanceof BadRequestError ||
    error instanceof ConflictError ||
    error instanceof PayloadTooLargeError
  );
}

/** The reason a row is rejected with: the service's issues, field by field, or its message. */
export function rejectionReason(error: APIError): string {
  if (error.issues.length > 0)
    return error.issues.map((i) => `${i.field}: ${i.message}${holder(error, i)}`).join('; ');
  return error.message.replace(/^\d{3}\s+/, '') + holder(error, error.body);
}

/**
 * The contact a 409 says holds what the row wanted (its email), where the service names it: an
 * `external_id` or `id` beside the issue's message, or the body's. The contract's 409 names none
 * (`Email already exists`), and then this is ''.
 */
function holder(error: APIError, where: unknown): string {
  if (!(error instanceof ConflictError) || where === null || typeof where !== 'object') return '';
  const { external_id, id } = where as Record<string, unknown>;
  if (typeof external_id === 'string' && external_id)
    return ` (held by the contact with external_id ${external_id})`;
  if (typeof id === 'string' && id) return ` (held by the contact with id ${id})`;
  return '';
}

const ITEM = /^users\.(\d+)(?:\.(.+))?$/;

/**
 * The items of a refused batch of `count` that the service named, each with its reason (its
 * issues, paths relative to the item: `email: Email already exists`). Empty when none is named.
 */
export function namedItems(error: APIError, count: number): Map<number, string> {
  const reasons = new Map<number, string[]>();
  for (const issue of error.issues) {
    const match = ITEM.exec(issue.field);
    if (!match) continue;
    const index = Number(match[1]);
    if (index >= count) continue;
    const list = reasons.get(index) ?? [];
    list.push(`${match[2] ?? 'contact'}: ${issue.message}${holder(error, issue)}`);
    reasons.set(index, list);
  }
  return new Map([...reasons].map(([index, list]) => [index, list.join('; ')]));
}

/**
 * A 400 whose issues are about the body's own fields and none about an item: a service that
 * does not take the batch form (it read `{"users": [...]}` as one contact, or refused `users`).
 */
export function refusesBatchForm(error: unknown): error is BadRequestError {
  return (
    error instanceof BadRequestError &&
    !(error instanceof ContactLimitError) &&
    error.issues.length > 0 &&
    !error.issues.some((i) => ITEM.test(i.field))
  );
}
