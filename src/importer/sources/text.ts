// The text of an input, chunk by chunk, in its encoding (UTF-8 checked strictly, a BOM telling
// UTF-16 apart), and the record shape shared by the JSON readers.

import { jsonDepthExceeds } from '../../api/json-depth.js';
import { MAX_JSON_DEPTH } from '../../api/limits.js';
import { ImportError, SourceParseError } from '../errors.js';
import type { OpenedInput } from './input.js';
import { REJECT_KEYS } from './types.js';
import { firstInvalidUtf8, legacyEncoding } from './utf8.js';

/**
 * Decoded text in the input's own chunks; a split multi-byte character is joined and a BOM
 * dropped. UTF-8 (the default) is checked: a file whose text was plain ASCII up to its first byte
 * that is not UTF-8 is read on in the legacy encoding it looks like (said by `input.note`); a
 * file that mixes real UTF-8 with such bytes stops the read with an error naming the line, the
 * byte and the encoding, rather than turning `José` into `Jos\uFFFD` without a word. Other
 * encodings decode as the label says.
 */
export async function* decodeText(input: OpenedInput): AsyncGenerator<string> {
  const chunks = input.chunks[Symbol.asyncIterator]();
  if (input.encoding !== 'utf-8') {
    yield* decodeAs(input.encoding, chunks);
    return;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let column = 1;
  let ascii = true;
  // The last bytes of the previous chunk: an invalid sequence may begin there.
  let tail: Buffer = Buffer.alloc(0);
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const chunk = next.value;
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      const bytes = Buffer.concat([tail, chunk]);
      const legacy = ascii ? legacyStart(bytes, tail.length) : undefined;
      if (legacy === undefined) throw invalidUtf8(input, bytes, tail.length, line, column);
      const looks = legacyEncoding(bytes.subarray(legacy));
      input.note({
        code: 'encoding_guessed',
        message:
          `${input.name} is not UTF-8 (line ${line + countLines(bytes.subarray(legacy, tail.length + firstInvalidUtf8(chunk)))}): ` +
          `reading it as ${looks.name}`,
        file: input.name,
        encoding: looks.label,
      });
      yield* decodeAs(looks.label, chunks, bytes.subarray(legacy));
      return;
    }
    if (text) {
      if (ascii && NON_ASCII_RE.test(text)) ascii = false;
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) === 0x0a) {
          line++;
          column = 1;
        } else column++;
      }
      yield text;
    }
    tail = chunk.subarray(Math.max(0, chunk.length - 3));
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new SourceParseError({
      file: input.name,
      line,
      reason: 'the file ends in the middle of a UTF-8 character (is it cut short?)',
    });
  }
}

const NON_ASCII_RE = /[\u0080-\uffff]/;

/** The rest of the chunks in `encoding`, after `first` (bytes already read). */
async function* decodeAs(
  encoding: string,
  chunks: AsyncIterator<Buffer>,
  first?: Buffer,
): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  if (first) {
    const text = decoder.decode(first, { stream: true });
    if (text) yield text;
  }
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    const text = decoder.decode(next.value, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/**
 * Where legacy decoding starts in `bytes` (the previous chunk's tail, `skip` bytes, then the
 * chunk that failed), when everything decoded so far was ASCII: the bytes held back from the
 * tail (the start of what looked like a multi-byte character) and the chunk's bytes before the
 * bad one are ASCII or legacy too. Undefined when the chunk had real UTF-8 before the bad byte:
 * the file mixes encodings.
 */
function legacyStart(bytes: Buffer, skip: number): number | undefined {
  let start = skip;
  while (start > 0 && bytes[start - 1]! >= 0x80) start--;
  const chunk = bytes.subarray(skip);
  const bad = firstInvalidUtf8(chunk);
  for (let i = 0; i < bad; i++) if (chunk[i]! >= 0x80) return undefined;
  return start;
}

function countLines(bytes: Buffer): number {
  let n = 0;
  for (const b of bytes) if (b === 0x0a) n++;
  return n;
}

/**
 * The error for bytes that are not UTF-8: where the first bad byte is (lines counted from the
 * text before it), and which encoding the bytes look like, with the option that reads them.
 */
function invalidUtf8(
  input: OpenedInput,
  bytes: Buffer,
  skip: number,
  line: number,
  column: number,
): SourceParseError {
  // The kept tail may open with the continuation bytes of a character already decoded.
  let start = 0;
  while (start < skip && (bytes[start]! & 0xc0) === 0x80) start++;
  const at = start + firstInvalidUtf8(bytes.subarray(start));
  // Count lines in the valid text between the end of what was yielded and the bad byte.
  const before = bytes.subarray(skip, Math.max(skip, at)).toString('utf8');
  for (const ch of before) {
    if (ch === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  const byte = bytes[at];
  const looks = legacyEncoding(input.sample);
  return new SourceParseError({
    file: input.name,
    line,
    column,
    reason:
      `not valid UTF-8 (byte 0x${(byte ?? 0).toString(16).toUpperCase().padStart(2, '0')}); ` +
      `it looks like ${looks.name}`,
    detail: { code: 'not_utf8', file: input.name, encoding: looks.label, looks: true },
  });
}

export type JsonRecord = { record: Record<string, unknown>; text?: string; error?: string };

/**
 * A parsed JSON value as a source record: objects pass without the keys a rejects file adds;
 * anything else is kept as text and rejected, and so is a value nested too deep to be a contact
 * (its `text`, when the reader has it, is kept for the rejects file).
 */
export function jsonRecord(value: unknown, text?: string): JsonRecord {
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    return {
      record: {},
      ...(text === undefined ? {} : { text }),
      error: `Nested deeper than ${MAX_JSON_DEPTH} levels: not a contact`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { record: {}, text: text ?? JSON.stringify(value), error: 'Expected a JSON object' };
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

/** The TextDecoder label for `--encoding`, checked; the common names people type are accepted. */
export function parseEncodingOption(value: string): string {
  const wanted = value.trim().toLowerCase();
  try {
    // TextDecoder knows the WHATWG labels (latin1, cp1252, utf-16le, shift_jis...).
    return new TextDecoder(wanted).encoding;
  } catch {
    throw new ImportError(
      `Unknown encoding "${value}": expected a name such as utf-8, windows-1252 (latin1), utf-16le or utf-16be`,
    );
  }
}
