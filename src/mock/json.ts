// Response bodies to JSON text. A frozen body never changes, so its text is computed once and
// kept while the body lives: the handler's list envelopes are frozen and cached per page, which
// makes a repeated list GET a lookup.
const cache = new WeakMap<object, string>();

/** `JSON.stringify(body)`, from the cache for a frozen object or array. */
export function toJson(body: unknown): string {
  if (typeof body !== 'object' || body === null || !Object.isFrozen(body))
    return JSON.stringify(body) ?? 'null';
  let json = cache.get(body);
  if (json === undefined) {
    json = JSON.stringify(body);
    cache.set(body, json);
  }
  return json;
}
