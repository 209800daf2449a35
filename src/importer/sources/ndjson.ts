// NDJSON (JSON Lines): one JSON object a line; a line that is not JSON is a reject, not a failure.
import { MAX_BODY_BYTES } from '../../api/limits.js';
import type { OpenedInput } from './input.js';
import { decodeUtf8, jsonRecord } from './text.js';
import type { ImportSource, SourceRecord } from './types.js';

export interface NdjsonOptions {
  /** Longest line kept, in characters; a longer one is skipped unread and rejected. */
  maxLineLength?: number;
}

export function openNdjson(input: OpenedInput, options: NdjsonOptions = {}): ImportSource {
  return {
    name: input.name,
    format: 'ndjson',
    records: lines(input, options.maxLineLength ?? MAX_BODY_BYTES),
    close: () => input.destroy(),
  };
}

async function* lines(input: OpenedInput, maxLength: number): AsyncGenerator<SourceRecord> {
  let line = 1;
  let row = 0;
  let carry = '';
  // Past the limit, the rest of the line is dropped as it arrives rather than held in memory.
  let dropping = false;
  const ready: SourceRecord[] = [];

  const finish = (text: string) => {
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    row++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      ready.push({ row, line, record: {}, text, error: `Invalid JSON: ${(error as Error).message}` });
      return;
    }
    ready.push({ row, line, ...jsonRecord(value) });
  };

  const tooLong = () => {
    ready.push({
      row: ++row,
      line,
      record: {},
      text: '',
      error: `Line is longer than ${maxLength} characters`,
    });
  };

  try {
    for await (const text of decodeUtf8(input.chunks)) {
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        if (dropping) dropping = false;
        else if (carry.length + (nl - from) > maxLength) tooLong();
        else finish(carry + text.slice(from, nl));
        carry = '';
        line++;
        from = nl + 1;
      }
      if (!dropping && from < text.length) {
        carry += text.slice(from);
        if (carry.length > maxLength) {
          tooLong();
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
