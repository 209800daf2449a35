// The names `--format` takes and the format each means, and every file extension the tool knows:
// dependency-free, so the CLI declares its choices from them without loading the importer.
import type { ImportFormat } from './format.js';

export const FORMAT_ALIASES = {
  csv: 'csv',
  tsv: 'csv',
  json: 'json',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  xlsx: 'xlsx',
  vcard: 'vcard',
  vcf: 'vcard',
} as const satisfies Record<string, ImportFormat>;

export const FORMAT_NAMES = Object.keys(FORMAT_ALIASES) as (keyof typeof FORMAT_ALIASES)[];

/** How slash dates such as 3/4/2024 read (`--date-order`): month first, or day first. */
export const DATE_ORDERS = ['mdy', 'dmy'] as const;

/** What `export` and `template` write, and a results file is written as (CSV or NDJSON of these). */
export type WrittenFormat = 'csv' | 'json' | 'ndjson' | 'xlsx';

export interface FileType {
  /** What the importer (and `delete --from`) reads a file of this name as. */
  readonly reads?: ImportFormat;
  /** What a file written under this name holds (`export --out`, `template --out`, `--results`). */
  readonly written?: WrittenFormat;
  /** What such a file is, for a refusal to write it (or to read it). */
  readonly is?: string;
  /** A file the importer cannot read: what to do instead. */
  readonly instead?: string;
}

/** Every file extension the tool knows: what it reads each as, writes under it, or refuses. */
const FILE_TYPES: Readonly<Record<string, FileType>> = {
  '.csv': { reads: 'csv', written: 'csv' },
  // Tab-separated, read as such; `export` refuses the name, as it writes commas.
  '.tsv': { reads: 'csv' },
  '.json': { reads: 'json', written: 'json' },
  '.ndjson': { reads: 'ndjson', written: 'ndjson' },
  '.jsonl': { reads: 'ndjson', written: 'ndjson' },
  '.xlsx': { reads: 'xlsx', written: 'xlsx' },
  // Macro-enabled and template workbooks hold their sheets the same way.
  '.xlsm': { reads: 'xlsx', is: 'a macro-enabled workbook' },
  '.xltx': { reads: 'xlsx' },
  '.vcf': { reads: 'vcard', is: 'vCards' },
  '.vcard': { reads: 'vcard', is: 'vCards' },
  '.xls': {
    is: 'an Excel 97-2003 workbook',
    instead: 'open it in a spreadsheet and save it as .xlsx or CSV',
  },
  '.xlsb': {
    is: 'an Excel binary workbook',
    instead: 'open it in a spreadsheet and save it as .xlsx or CSV',
  },
  '.ods': { is: 'an OpenDocument spreadsheet', instead: 'save it as .xlsx or CSV' },
  '.numbers': { is: 'a Numbers document', instead: 'export it as Excel (.xlsx) or CSV' },
};

/** What the tool knows of an extension (`.csv`, any case), or undefined. */
export function fileType(extension: string): FileType | undefined {
  const ext = extension.toLowerCase();
  return Object.hasOwn(FILE_TYPES, ext) ? FILE_TYPES[ext] : undefined;
}
