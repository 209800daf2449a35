// UTF-8 text of an input, chunk by chunk, and the record shape shared by the JSON readers.
import { REJECT_KEYS } from './types.js';

/** Decoded text in the input's own chunks; a split multi-byte character is joined, a BOM dropped. */
export async function* decodeUtf8(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

export type JsonRecord = { record: Record<string, unknown>; text?: string; error?: string };

/**
 * A parsed JSON value as a source record: objects pass without the keys a rejects file adds;
 * anything else is kept as text and rejected.
 */
export function jsonRecord(value: unknown): JsonRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { record: {}, text: JSON.stringify(value), error: 'Expected a JSON object' };
  }
  const record = { ...(value as Record<string, unknown>) };
  delete record[REJECT_KEYS.line];
  delete record[REJECT_KEYS.error];
  if (REJECT_KEYS.raw in record) {
    const raw = record[REJECT_KEYS.raw];
    return {
      record: {},
      text: typeof raw === 'string' ? raw : JSON.stringify(raw),
      error: `Not JSON in an earlier import: replace this record (its "${REJECT_KEYS.raw}") with the fixed JSON`,
    };
  }
  return { record };
}
