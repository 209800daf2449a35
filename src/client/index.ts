export { type ClientOptions, ContactsClient } from './client.js';
export * from './errors.js';
export { ContactPage, type PageInfo } from './pagination.js';
export { maskKey, redactSecrets } from './redact.js';
export type { ListParams, UpsertResult } from './resources/contacts.js';
export type { RequestOptions } from './resources/core.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
export type { DebugLogger, RetryEvent } from './transport.js';
export { VERSION } from './version.js';
