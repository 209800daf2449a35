// Response bodies to JSON text. A frozen body never changes, so its text is computed once and
// kept while the body lives: the handler's list envelopes are frozen and cached per page, which
// makes a repeated list GET a lookup. A store that has just made a record's text (the SQLite
// store writes it) hands it over, and a success envelope around that record is its text inside
// the envelope's, not a second serialisation.
const cache = new WeakMap<object, string>();
/**
 * Texts handed over by a store, until the answer about their record takes them: held only that
 * long (a record kept for later would otherwise keep its text too, out of the young
 * generation). At most `FRESH_LIMIT` texts of `FRESH_CHARS` characters in all; past either
 * (records written and never answered alone, as after a failed commit) they start over.
 */
let fresh = new Map<object, string>();
let freshChars = 0;
const FRESH_LIMIT = 1024;
const FRESH_CHARS = 1024 * 1024;

/** `JSON.stringify(body)`, from the cache for a frozen object or array. */
export function toJson(body: unknown): string {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body) ?? 'null';
  if (!Object.isFrozen(body)) {
    const envelope = body as { message?: unknown; data?: unknown };
    const { data } = envelope;
    if (typeof data === 'object' && data !== null && typeof envelope.message === 'string') {
      const text = fresh.get(data) ?? cache.get(data);
      if (text !== undefined && isEnvelope(envelope)) {
        if (fresh.delete(data)) freshChars -= text.length;
        return `{"message":${JSON.stringify(envelope.message)},"data":${text}}`;
      }
    }
    return JSON.stringify(body) ?? 'null';
  }
  let json = cache.get(body);
  if (json === undefined) {
    json = JSON.stringify(body);
    cache.set(body, json);
  }
  return json;
}

/**
 * Keeps `json` as the text of `value`, a frozen object, for the answer about it (once): it must
 * be `JSON.stringify(value)`.
 */
export function rememberJson(value: object, json: string): void {
  if (!Object.isFrozen(value) || json.length > FRESH_CHARS) return;
  if (fresh.size >= FRESH_LIMIT || freshChars + json.length > FRESH_CHARS) {
    fresh = new Map();
    freshChars = 0;
  }
  fresh.set(value, json);
  freshChars += json.length;
}

/** Exactly the keys `message` then `data`: the text `toJson` composes is then `JSON.stringify`'s. */
function isEnvelope(body: object): boolean {
  let n = 0;
  for (const key in body) {
    if (n > 1 || key !== (n === 0 ? 'message' : 'data')) return false;
    n++;
  }
  return n === 2;
}
