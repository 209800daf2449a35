// Which reader a file needs: the format from an explicit choice, the extension or the first bytes,
// and the CSV delimiter sniffed from the header line.
import { extname, join } from 'node:path';
import { ImportError } from './errors.js';
import { FORMAT_ALIASES, fileType } from './format-names.js';

export const IMPORT_FORMATS = ['csv', 'json', 'ndjson', 'xlsx', 'vcard'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * Formats read as a header and rows, mapped by column like CSV: a workbook's sheet, and vCards
 * (whose properties the reader turns into the contact fields' columns). Their rejects are CSV.
 */
export function isTabular(format: ImportFormat): boolean {
  return format === 'csv' || format === 'xlsx' || format === 'vcard';
}

export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** An explicit format option, checked; `tsv` and `jsonl` are accepted as their formats. */
export function parseFormatOption(value: string): ImportFormat {
  const name = value.trim().toLowerCase();
  const format = Object.hasOwn(FORMAT_ALIASES, name)
    ? FORMAT_ALIASES[name as keyof typeof FORMAT_ALIASES]
    : undefined;
  if (!format) {
    throw new ImportError(
      `Unknown format "${value}": expected csv, tsv, json, ndjson, jsonl, xlsx or vcard (vcf)`,
    );
  }
  return format;
}

/**
 * The format named by the explicit option, else by the file's extension; undefined when neither
 * decides (stdin, `.txt`), and the caller then sniffs the content with `sniffFormat`.
 */
export function formatFromName(input: string, explicit?: string): ImportFormat | undefined {
  if (explicit) return parseFormatOption(explicit);
  if (input === '-') return undefined;
  const refused = refusalOf(input);
  if (refused) throw new ImportError(refused);
  return fileType(extname(input))?.reads;
}

/**
 * Why a file of this name is not read (`.xls`: a workbook format the importer has no reader
 * for), with what to do instead; undefined for any other name.
 */
export function refusalOf(input: string): string | undefined {
  const ext = extname(input).toLowerCase();
  const type = fileType(ext);
  return type?.instead ? `${input} is ${type.is} (${ext}): ${type.instead}` : undefined;
}

/** The delimiter an extension implies (`.tsv` is tab), undefined when it must be sniffed. */
export function delimiterFromName(input: string): CsvDelimiter | undefined {
  return extname(input).toLowerCase() === '.tsv' ? '\t' : undefined;
}

/** The local-file header that opens every zip archive, an .xlsx workbook among them. */
const ZIP_SIGNATURE = 'PK\u0003\u0004';
const VCARD_RE = /^BEGIN:VCARD\s*$/im;

/**
 * Guess the format of an unnamed input from its first characters: the zip signature opens a
 * workbook, `BEGIN:VCARD` a vCard file, `[` a JSON array, `{` a line of NDJSON; anything else
 * is read as CSV.
 */
export function sniffFormat(sample: string): ImportFormat {
  if (sample.startsWith(ZIP_SIGNATURE)) return 'xlsx';
  const text = sample.replace(/^\uFEFF/, '').trimStart();
  const first = text[0];
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  if (VCARD_RE.test(text.slice(0, 256).split(/\r?\n/, 1)[0] ?? '')) return 'vcard';
  return 'csv';
}

/**
 * The delimiter of a CSV sample: the candidate that occurs most often outside quotes in the
 * first record (the header). A first line with none (a report's title, `1. Summary`, or a file
 * of one column) says nothing by itself: then a candidate found in three lines in five of the
 * next ones, from the first that has any (a preamble's `Datum: 29.11.2026` has none) up to the
 * 30th, is the table's (a Teams attendance report's tab; its dates'
 * commas are fewer), the one in the most lines first; else a comma (one column: a cell's
 * `a@x.com; b@x.com` is no delimiter). Ties fall back in the order `,` `;` tab.
 */
export function sniffDelimiter(sample: string): CsvDelimiter {
  const counts = new Map<string, number>(CSV_DELIMITERS.map((d) => [d, 0]));
  const lines = new Map<string, number>(CSV_DELIMITERS.map((d) => [d, 0]));
  let seen = new Set<string>();
  let quoted = false;
  let line = 0;
  let filledLines = 0;
  let filled = false;
  const endLine = () => {
    // Lines before the first with a delimiter are a preamble (`Exportiert von: ...`): not counted.
    if (line > 0 && filled && (filledLines > 0 || seen.size > 0)) {
      filledLines++;
      for (const d of seen) lines.set(d, lines.get(d)! + 1);
    }
    seen = new Set();
    filled = false;
    line++;
  };
  for (const ch of sample.replace(/^\uFEFF/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      // The header showed one: it decides.
      if (line === 0 && [...counts.values()].some((n) => n > 0)) break;
      endLine();
      if (line >= 30) break;
      continue;
    } else if (!quoted && counts.has(ch)) {
      if (line === 0) counts.set(ch, counts.get(ch)! + 1);
      else seen.add(ch);
    }
    if (ch.trim() !== '') filled = true;
  }
  let best: CsvDelimiter = ',';
  if ([...counts.values()].some((n) => n > 0)) {
    for (const d of CSV_DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
    return best;
  }
  if (filled) endLine();
  for (const d of CSV_DELIMITERS) if (lines.get(d)! > lines.get(best)!) best = d;
  return lines.get(best)! >= 2 && lines.get(best)! >= filledLines * 0.6 ? best : ',';
}

/**
 * The rejects file that sits next to an input by default: `contacts.csv` gives
 * `contacts.rejects.csv` (and `book.xlsx` or `cards.vcf` give `book.rejects.csv`, `cards.rejects.csv`). JSON arrays are rejected as NDJSON (one record a line), so
 * `contacts.json` gives `contacts.rejects.ndjson`. Stdin's go to `stdin.rejects.<ext>` in `cwd`.
 */
export function defaultRejectsPath(input: string, format: ImportFormat, cwd = process.cwd()): string {
  return besideInput(input, format, 'rejects', cwd);
}

/** Where the fields left out of contacts that landed go: `<input>.fixes.<ext>`, as the rejects do. */
export function defaultFixesPath(input: string, format: ImportFormat, cwd = process.cwd()): string {
  return besideInput(input, format, 'fixes', cwd);
}

function besideInput(input: string, format: ImportFormat, what: string, cwd: string): string {
  const ext = input === '-' ? '' : extname(input);
  const base = input === '-' ? join(cwd, 'stdin') : input.slice(0, input.length - ext.length);
  const lower = ext.toLowerCase();
  let rejectsExt: string;
  // A workbook's or a vCard file's rejects are CSV: rows with the same columns, fixed in any editor.
  if (isTabular(format)) rejectsExt = lower === '.csv' || lower === '.tsv' ? ext : '.csv';
  else rejectsExt = lower === '.jsonl' || lower === '.ndjson' ? ext : '.ndjson';
  return `${base}.${what}${rejectsExt}`;
}
