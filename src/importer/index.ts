// The importer's reading half: sources, column mapping, row validation, rejects and the resume
// checkpoint. The upsert pipeline and the `contacts import` command stand on these.
export * from './checkpoint.js';
export * from './errors.js';
export * from './format.js';
export { readAsExportTable } from './json-export.js';
export * from './mapping.js';
export * from './rejects.js';
export * from './results.js';
export * from './rows.js';
export * from './sources/index.js';
export { sampleRecords } from './stages/source.js';
