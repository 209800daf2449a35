// How many undo records are kept, alone in a module without imports: the CLI's help reads it
// without loading the undo records' store.

/** Imports kept per agent: the oldest give way. */
export const RECORDS_KEPT = 20;
