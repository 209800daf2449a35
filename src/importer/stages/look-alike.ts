// External ids that differ only in their Unicode form: "José" typed on one machine and pasted
// from another (NFC, NFD) look the same to a person but are two keys, so two contacts.
// Only ids that have another Unicode form are kept (by their NFC form): an id of CJK ideographs
// or of plain ASCII has none, so a file of a million of them costs a few normalisations each and
// no memory. Every non-ASCII id is still looked up, so a look-alike is caught in either order
// when both spellings have another form (José in NFC and NFD), and when the odd spelling comes
// first. Not caught: a plain id first, then a single character that normalises into it (Ω, then
// the ohm sign; 郎, then its compatibility ideograph U+F92C; `K`, then the kelvin sign), since
// those targets are common letters and ideographs and keeping every id holding one would cost
// the memory this saves.

const NON_ASCII_RE = /[\u0080-\uffff]/;
const MARKS_RE = /\p{M}\p{M}/u;

/** Whether `id` (whose NFC form is `nfc`) has another Unicode form, so a look-alike. */
export function hasLookAlike(id: string, nfc: string): boolean {
  if (nfc !== id || nfc !== id.normalize('NFD')) return true;
  // Two combining marks in a row can come in the other order; precomposed letters were caught above.
  return MARKS_RE.test(id);
}

export class LookAlikeIds {
  /** The NFC form of each id kept, with the first id written in it and its line. */
  readonly #seen = new Map<string, { id: string; line: number }>();

  /** How many ids are kept (what the check costs in memory). */
  get size(): number {
    return this.#seen.size;
  }

  /** A sentence naming the earlier id this one only looks like, or null. */
  check(id: string, line: number): string | null {
    if (!NON_ASCII_RE.test(id)) return null;
    const form = id.normalize('NFC');
    const earlier = this.#seen.get(form);
    if (!earlier) {
      if (hasLookAlike(id, form)) this.#seen.set(form, { id, line });
      return null;
    }
    if (earlier.id === id) return null;
    return (
      `external_id ${JSON.stringify(id)} looks like ${JSON.stringify(earlier.id)} (line ${earlier.line})` +
      ' but is written with other Unicode code points (NFC and NFD forms): they are two contacts'
    );
  }
}
