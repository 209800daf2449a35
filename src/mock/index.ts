// The `contacts-cli/mock` export: the faithful mock of the Contacts API as a server and as its
// transport-free core (store + respond). The msw handlers are `contacts-cli/mock/msw`, so that
// msw stays an optional peer dependency.
export { MockDataFileError, MockHttpError, SeedError } from './errors.js';
export type { FaultKind, FaultOptions } from './faults.js';
export {
  createMockState,
  handleRequest,
  type MockRequest,
  type MockResponse,
  type MockSeed,
  type MockState,
  type MockStateOptions,
} from './handler.js';
export { REQUEST_LOG_LIMIT, type RequestLogEntry } from './request-log.js';
export {
  ADMIN_PREFIX,
  type MockOutcome,
  type ResetOutcome,
  resetState,
  respond,
  type WireResponse,
} from './respond.js';
export { loadSeed, type SeedOptions } from './seed.js';
export { type MockServer, type MockServerOptions, startMockServer } from './server.js';
export { createMockStore, openSqliteStore } from './sqlite-store.js';
export {
  type ContactPage,
  type MockStore,
  type MockStoreOptions,
  type ResetResult,
  type StoreSnapshot,
  StoreSnapshotSchema,
  type UpsertResult,
} from './store.js';
