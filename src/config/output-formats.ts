// The output formats a profile can ask for, alone in a module with no imports: the program
// declares its options from it without loading anything else.

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
