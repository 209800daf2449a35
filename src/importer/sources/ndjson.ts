// NDJSON (JSON Lines): one JSON object a line; a line that is not JSON is a reject, not a failure.
import { jsonNumberProblem } from '../../api/json-numbers.js';
import { MAX_BODY_BYTES } from '../../api/limits.js';
import type { OpenedInput } from './input.js';
import { MAX_RECORD_CHARS, sizeText } from './record-limit.js';
import { decodeText, jsonRecord } from './text.js';
import type { ImportSource, SourceRecord } from './types.js';

export interface NdjsonOptions {
  /** Longest line sent, in characters; a longer one is rejected unparsed, its text kept. */
  maxLineLength?: number;
  /**
   * Longest line kept for the rejects file (default 16 MiB, the limit of a record); a longer one
   * is rejected without its text, dropped as it streams: one line needs no other to be read.
   */
  maxKeptLength?: number | undefined;
}

export function openNdjson(input: OpenedInput, options: NdjsonOptions = {}): ImportSource {
  return {
    name: input.name,
    format: 'ndjson',
    records: lines(input, options.maxLineLength ?? MAX_BODY_BYTES, options.maxKeptLength ?? MAX_RECORD_CHARS),
    close: () => input.destroy(),
  };
}

async function* lines(input: OpenedInput, maxLength: number, maxKept: number): AsyncGenerator<SourceRecord> {
  let line = 1;
  let row = 0;
  let carry = '';
  // Past the keep limit, the rest of the line is dropped as it arrives rather than held in memory.
  let dropping = false;
  const ready: SourceRecord[] = [];

  const finish = (text: string) => {
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    row++;
    if (text.length > maxLength) {
      // No request could carry it; the line is kept as written, for the user to fix.
      ready.push({
        row,
        line,
        record: {},
        text,
        error: `Line is longer than ${maxLength} characters, more than one request may carry`,
      });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      ready.push({ row, line, record: {}, text, error: `Invalid JSON: ${(error as Error).message}` });
      return;
    }
    const problem = jsonNumberProblem(text);
    if (problem) {
      ready.push({ row, line, record: {}, text, error: `${problem.path || 'the value'}: ${problem.reason}` });
      return;
    }
    ready.push({ row, line, ...jsonRecord(value, text) });
  };

  const dropped = () => {
    ready.push({
      row: ++row,
      line,
      record: {},
      error: `Line is longer than ${sizeText(maxKept)}: rejected, and too long to keep in the rejects file`,
    });
  };

  try {
    for await (const text of decodeText(input)) {
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        if (dropping) dropping = false;
        else if (carry.length + (nl - from) > maxKept) dropped();
        else finish(carry + text.slice(from, nl));
        carry = '';
        line++;
        from = nl + 1;
      }
      if (!dropping && from < text.length) {
        carry += text.slice(from);
        if (carry.length > maxKept) {
          dropped();
          carry = '';
          dropping = true;
        }
      }
      yield* ready;
      ready.length = 0;
    }
    if (!dropping && carry) finish(carry);
    yield* ready;
  } finally {
    input.destroy();
  }
}
