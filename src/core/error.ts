// The root of every error this package throws, shared by the client, the config, the importer
// and the mock so none of them has to reach into another's module for it.

/**
 * Base of every error this package throws. Each is named by its class (`BadRequestError`, not
 * `Error`): in a stack trace, in `String(error)`, in `toMatchObject({ name })`.
 */
export class ContactsError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
