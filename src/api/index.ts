// The wire contract, defined once: schemas, types, limits and paths.
export * from './attribute.js';
export * from './contact.js';
export * from './envelope.js';
export * from './headers.js';
export * from './json-depth.js';
export * from './key.js';
export * from './limits.js';
export * from './messages.js';
export * from './operations.js';
export * from './paths.js';
export * from './query.js';
export { contractRegistry } from './registry.js';
