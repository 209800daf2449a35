// The importer's reading half: sources, column mapping, row validation, rejects and the resume
// checkpoint. The upsert pipeline and the `contacts import` command stand on these.
export * from './checkpoint.js';
export { emailKey } from './column-reader.js';
export * from './column-targets.js';
export * from './errors.js';
export * from './file-evidence.js';
export * from './format.js';
export * from './mapping.js';
export * from './mapping-description.js';
export * from './rejects.js';
export * from './results.js';
export * from './row-validator.js';
export * from './sources/index.js';
export { sampleRecords } from './stages/source.js';
