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
  if (error.issues.length > 0) return error.issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  return error.message.replace(/^\d{3}\s+/, '');
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
    list.push(`${match[2] ?? 'contact'}: ${issue.message}`);
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
