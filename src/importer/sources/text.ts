// The text of an input, chunk by chunk, in its encoding (UTF-8 checked strictly, a BOM telling
// UTF-16 apart), and the record shape shared by the JSON readers.

import { jsonDepthExceeds } from '../../api/json-depth.js';
import { MAX_JSON_DEPTH } from '../../api/limits.js';
import { ImportError, SourceParseError } from '../errors.js';
import type { OpenedInput } from './input.js';
import { REJECT_KEYS } from './types.js';

/**
 * Decoded text in the input's own chunks; a split multi-byte character is joined and a BOM
 * dropped. UTF-8 (the default) is checked: a byte sequence that is not UTF-8 stops the read with
 * an error naming the line, the byte and the encoding the file looks like, rather than turning
 * `José` into `Jos\uFFFD` without a word. Other encodings decode as the label says.
 */
export async function* decodeText(input: OpenedInput): AsyncGenerator<string> {
  if (input.encoding !== 'utf-8') {
    const decoder = new TextDecoder(input.encoding);
    for await (const chunk of input.chunks) {
      const text = decoder.decode(chunk, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
    return;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let column = 1;
  // The last bytes of the previous chunk: an invalid sequence may begin there.
  let tail: Buffer = Buffer.alloc(0);
  for await (const chunk of input.chunks) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw invalidUtf8(input, Buffer.concat([tail, chunk]), tail.length, line, column);
    }
    if (text) {
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
  const looks = looksLike(input.sample);
  return new SourceParseError({
    file: input.name,
    line,
    column,
    reason:
      `not valid UTF-8 (byte 0x${(byte ?? 0).toString(16).toUpperCase().padStart(2, '0')}); ` +
      `it looks like ${looks.name}: run again with --encoding ${looks.label}`,
  });
}

/** A guess for a file that is not UTF-8: NUL bytes mean UTF-16, anything else a Windows code page. */
function looksLike(sample: Buffer): { name: string; label: string } {
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) evenNul++;
      else oddNul++;
    }
  }
  if (oddNul > sample.length / 8) return { name: 'UTF-16 (little-endian) without a BOM', label: 'utf-16le' };
  if (evenNul > sample.length / 8) return { name: 'UTF-16 (big-endian) without a BOM', label: 'utf-16be' };
  return { name: 'Windows-1252 (Latin-1, what Excel writes on Windows)', label: 'windows-1252' };
}

/** Offset of the first byte that cannot start or continue a UTF-8 sequence (its length if none). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= bytes.length) {
      // A sequence cut by the end of the buffer: valid as far as it goes.
      for (let k = 1; i + k < bytes.length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
      return bytes.length;
    }
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
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
