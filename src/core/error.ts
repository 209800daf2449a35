// The root of every error this package throws, shared by the client, the config, the importer
// and the mock so none of them has to reach into another's module for it.

/** Base of every error this package throws. */
export class ContactsError extends Error {
  override name = 'ContactsError';
}
