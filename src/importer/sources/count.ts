// A quick count of the records an input holds, for progress: one streaming pass, nothing assembled.
import { jsonParser } from 'stream-json/parser.js';
import type { CsvDelimiter } from '../format.js';
import type { OpenedInput } from './input.js';
import { decodeUtf8 } from './text.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * CSV data rows: records (line ends outside quotes) holding a character other than spaces, quotes
 * and delimiters, less the header. That is what the CSV source yields, blank rows skipped.
 */
export async function countCsvRows(input: OpenedInput, delimiter: CsvDelimiter): Promise<number> {
  const delim = delimiter.charCodeAt(0);
  let records = 0;
  let quoted = false;
  let content = false;
  let first = true;
  for await (const chunk of input.chunks) {
    let i = 0;
    if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    first = false;
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === QUOTE) quoted = !quoted;
      else if (!quoted && (b === LF || b === CR)) {
        if (content) records++;
        content = false;
      } else if (b !== SPACE && b !== TAB && b !== delim) content = true;
    }
  }
  if (content) records++;
  return Math.max(0, records - 1);
}

/** NDJSON records: lines that are not blank (a line that is not JSON is still a row: a reject). */
export async function countNdjsonRows(input: OpenedInput): Promise<number> {
  let records = 0;
  let content = false;
  for await (const chunk of input.chunks) {
    for (const b of chunk) {
      if (b === LF) {
        if (content) records++;
        content = false;
      } else if (b !== SPACE && b !== TAB && b !== CR) content = true;
    }
  }
  if (content) records++;
  return records;
}

/** Elements of the top-level JSON array; stops quietly at a syntax error (the import reports it). */
export async function countJsonRows(input: OpenedInput): Promise<number> {
  const tokenize = jsonParser({ streamValues: false });
  let depth = 0;
  let elements = 0;
  try {
    for await (const text of decodeUtf8(input.chunks)) {
      const out = tokenize(text);
      if (typeof out === 'symbol') continue;
      for (const { name } of out.values) {
        if (depth === 1 && name !== 'endArray' && name !== 'keyValue') elements++;
        if (name === 'startObject' || name === 'startArray') depth++;
        else if (name === 'endObject' || name === 'endArray') depth--;
      }
    }
  } catch {
    // A progress estimate: what was counted before the error stands.
  } finally {
    input.destroy();
  }
  return elements;
}
