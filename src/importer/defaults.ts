// The importer's defaults, with no imports but the contract's limits: the CLI's help reads them
// without loading the importer.
import { MAX_BATCH_SIZE } from '../api/limits.js';

/** Contacts a request by default: the batch form's maximum (prod), bytes permitting. */
export const DEFAULT_BATCH_SIZE = MAX_BATCH_SIZE;
/** Rows of a table read before its columns are mapped, at most: their values say what each holds. */
export const SAMPLE_ROWS = 1000;
