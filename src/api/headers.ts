// The contract's own response headers (revision 2): the request id every response carries, and
// the fields a write dropped. The mock writes them and the client reads them with these.

/** Unique per response, errors included: what a user quotes to support. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** Comma-separated dotted paths of the fields a write dropped because the service does not know them. */
export const IGNORED_FIELDS_HEADER = 'x-contacts-ignored';
/** How many fields were dropped in all, when `x-contacts-ignored` could not name every one. */
export const IGNORED_COUNT_HEADER = 'x-contacts-ignored-count';

/**
 * Room for the list of paths. A response header must stay well under what clients accept (undici
 * and Node refuse a response whose headers pass 16 KiB): a body with thousands of unknown keys
 * would otherwise make its own (committed) write look like a failed connection.
 */
export const MAX_IGNORED_HEADER_LENGTH = 2048;

const utf8 = new TextEncoder();

/**
 * A path as header text: anything outside visible ASCII (a header carries no other character;
 * Node refuses to send one), `%` and `,` (the list's separator) percent-encoded as UTF-8. The
 * keys come from request bodies, so they can hold anything, control characters included. Past
 * `max` characters the path is cut between two characters (never inside an escape) and ends
 * with an encoded `…`.
 */
export function encodeHeaderPath(path: string, max = Number.POSITIVE_INFINITY): string {
  const pieces: string[] = [];
  let length = 0;
  for (const ch of path) {
    const code = ch.codePointAt(0)!;
    let piece = ch;
    if (!(code > 0x20 && code < 0x7f && ch !== '%' && ch !== ',')) {
      piece = '';
      for (const byte of utf8.encode(ch)) piece += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    if (length + piece.length > max) {
      while (pieces.length > 0 && length + ELLIPSIS.length > max) length -= pieces.pop()!.length;
      return `${pieces.join('')}${ELLIPSIS}`;
    }
    pieces.push(piece);
    length += piece.length;
  }
  return pieces.join('');
}

const ELLIPSIS = '%E2%80%A6';

export interface IgnoredFieldsHeaders {
  /** `x-contacts-ignored`: as many paths as fit in `MAX_IGNORED_HEADER_LENGTH`, each encoded. */
  value: string;
  /** How many paths the value names (fewer than the total when some did not fit). */
  listed: number;
}

/**
 * The value of `x-contacts-ignored` for these paths: as many whole paths as fit, and at least
 * the first one (a first path too long on its own is cut and ends with `…`).
 */
export function ignoredFieldsHeader(paths: readonly string[]): IgnoredFieldsHeaders {
  let value = '';
  let listed = 0;
  for (const path of paths) {
    const encoded = encodeHeaderPath(path, listed === 0 ? MAX_IGNORED_HEADER_LENGTH : undefined);
    const next = listed === 0 ? encoded : `${value},${encoded}`;
    if (listed > 0 && next.length > MAX_IGNORED_HEADER_LENGTH) break;
    value = next;
    listed++;
  }
  return { value, listed };
}

/** The response headers naming dropped fields: the list, and the count when it is cut short. */
export function ignoredFieldsHeaders(paths: readonly string[]): Record<string, string> {
  if (paths.length === 0) return {};
  const { value } = ignoredFieldsHeader(paths);
  return { [IGNORED_FIELDS_HEADER]: value, [IGNORED_COUNT_HEADER]: String(paths.length) };
}

/** The dotted paths of an `x-contacts-ignored` value, decoded. */
export function parseIgnoredFieldsHeader(value: string): string[] {
  return value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
}
