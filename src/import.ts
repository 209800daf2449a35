// The importer as a library (`contacts-cli/import`): runImport(), whose report carries the undo
// record of what it wrote, and undoImport(), which takes an import back.

export { type InvalidOptionCode, InvalidOptionError } from './core/options.js';
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
