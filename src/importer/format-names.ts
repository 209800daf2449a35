// The names `--format` takes and the format each means: dependency-free, so the CLI declares its
// choices from them without loading the importer.
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
