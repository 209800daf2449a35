// The library's public face: the client, its errors, and the contract's schemas and types.
export * from './api/index.js';
export * from './client/index.js';
