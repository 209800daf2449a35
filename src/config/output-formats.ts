// The output formats a profile can ask for, alone in a module with no imports: the program
// declares its options from it without loading anything else.

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * Formats `-o` takes only where a file is written (`export`, `template`): a workbook is a file,
 * not text a list or a profile can print.
 */
export const FILE_OUTPUT_FORMATS = ['xlsx'] as const;
export type FileOutputFormat = (typeof FILE_OUTPUT_FORMATS)[number];

/** Every value `-o, --output` accepts. */
export const OUTPUT_FLAG_CHOICES = [...OUTPUT_FORMATS, ...FILE_OUTPUT_FORMATS] as const;

export function isFileOutputFormat(value: string | undefined): value is FileOutputFormat {
  return (FILE_OUTPUT_FORMATS as readonly string[]).includes(value ?? '');
}
