// The one error type of the mock core: a contract error (status, message, issues) that the
// request handler turns into the wire's error body.
import type { Issue } from '../api/envelope.js';
import { ContactsError } from '../core/error.js';

export class MockHttpError extends ContactsError {
  readonly status: number;
  readonly issues: Issue[] | undefined;
  readonly headers: Record<string, string>;
  /** A name for the error beside the message, for a server error a client can tell apart. */
  readonly code: string | undefined;

  constructor(
    status: number,
    message: string,
    options: { issues?: Issue[]; headers?: Record<string, string>; code?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
    this.code = options.code;
  }
}

export const badRequest = (message: string, issues?: Issue[]) => new MockHttpError(400, message, { issues });
export const notFound = (message: string) => new MockHttpError(404, message);
export const conflict = (message: string, issues?: Issue[]) => new MockHttpError(409, message, { issues });

/** The mock's data file cannot be used: unreadable, a directory, corrupt, or not the mock's. */
export class MockDataFileError extends ContactsError {
  readonly file: string;
  /** What to do about it, when the message does not already say. */
  readonly hint: string | undefined;
  constructor(file: string, message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, options);
    this.file = file;
    this.hint = options?.hint;
  }
}

/** A seed that cannot be used, naming the file and where in it. */
export class SeedError extends ContactsError {}
