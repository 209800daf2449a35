// The `contacts-cli/mock` export: the faithful mock of the Contacts API as a server, as msw
// handlers, and as its transport-free core (store + handleRequest).
export { MockHttpError } from './errors.js';
export type { FaultKind, FaultOptions } from './faults.js';
export {
  createMockState,
  handleRequest,
  type MockRequest,
  type MockResponse,
  type MockState,
  type MockStateOptions,
} from './handler.js';
export { createMockHandlers, type MockHandlersOptions } from './msw.js';
export {
  type MockServer,
  type MockServerOptions,
  REQUEST_LOG_LIMIT,
  type RequestLogEntry,
  startMockServer,
} from './server.js';
export {
  type ContactPage,
  createMockStore,
  type MockStore,
  type MockStoreOptions,
  type StoreSnapshot,
  StoreSnapshotSchema,
  type UpsertResult,
} from './store.js';
