// The importer as a library (`contacts-cli/import`): runImport(), whose report carries the undo
// record of what it wrote, and undoImport(), which takes an import back.

export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './bulk/defaults.js';
export { type InvalidOptionCode, InvalidOptionError } from './core/options.js';
export type { ColumnTarget, ContactField, MapOverride } from './importer/column-targets.js';
export { DEFAULT_BATCH_SIZE } from './importer/defaults.js';
export * from './importer/errors.js';
export type {
  ImportEvent,
  ImportNote,
  ImportOptions,
  ImportPlan,
  ImportReport,
  ImportStats,
  KeyRule,
  Reading,
} from './importer/pipeline.js';
export { ImportStoppedError, runImport } from './importer/pipeline.js';
export type { ProblemCode } from './importer/row-validator.js';
export type { UndoRecordSummary } from './undo/record.js';
export { listUndoRecords, RECORDS_KEPT, UndoRecordError } from './undo/record.js';
export type { UndoChoice, UndoRef } from './undo/recorder.js';
export type { KeptReason, UndoEvent, UndoOptions, UndoReport, UndoStep } from './undo/undo.js';
export { findUndoRecord, UndoRefusedError, UndoStoppedError, undoImport } from './undo/undo.js';
export { dataDir, undoDir } from './util/data-dir.js';
