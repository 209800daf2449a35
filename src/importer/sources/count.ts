// A quick count of the records an input holds, for progress: one streaming pass over its text,
// nothing assembled. The pass reads the text as the import will, so a file that is not in its
// encoding (not UTF-8, say) is refused here, before a single row is sent.
import { jsonParser } from 'stream-json/parser.js';
import type { CsvDelimiter } from '../format.js';
import type { OpenedInput } from './input.js';
import { MAX_RECORD_CHARS } from './record-limit.js';
import { decodeText } from './text.js';

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
  for await (const text of decodeText(input)) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) quoted = !quoted;
      else if (!quoted && (c === LF || c === CR)) {
        if (content) records++;
        content = false;
      } else if (c !== SPACE && c !== TAB && c !== delim) content = true;
    }
  }
  if (content) records++;
  return Math.max(0, records - 1);
}

/** NDJSON records: lines that are not blank (a line that is not JSON is still a row: a reject). */
export async function countNdjsonRows(input: OpenedInput): Promise<number> {
  let records = 0;
  let content = false;
  for await (const text of decodeText(input)) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === LF) {
        if (content) records++;
        content = false;
      } else if (c !== SPACE && c !== TAB && c !== CR) content = true;
    }
  }
  if (content) records++;
  return records;
}

/**
 * Elements of the top-level JSON array; stops quietly at a syntax error, or once an element is
 * longer than a record may be (the import reports either): the tokenizer holds a string whole
 * until it ends, so no more than that is ever held.
 */
export async function countJsonRows(input: OpenedInput, maxRecordChars = MAX_RECORD_CHARS): Promise<number> {
  const tokenize = jsonParser({ streamValues: false });
  let depth = 0;
  let elements = 0;
  // Characters fed since an element last ended.
  let within = 0;
  try {
    for await (const text of decodeText(input)) {
      let out: ReturnType<typeof tokenize>;
      try {
        out = tokenize(text);
      } catch {
        // A progress estimate: what was counted before the syntax error stands.
        break;
      }
      let ended = false;
      if (typeof out !== 'symbol') {
        for (const { name } of out.values) {
          if (depth === 1 && name !== 'endArray' && name !== 'keyValue') elements++;
          if (name === 'startObject' || name === 'startArray') depth++;
          else if (name === 'endObject' || name === 'endArray') depth--;
          if (depth <= 1) ended = true;
        }
      }
      within = ended ? 0 : within + text.length;
      if (within > maxRecordChars) break;
    }
  } finally {
    input.destroy();
  }
  return elements;
}
