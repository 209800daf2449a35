// External ids that differ only in their Unicode form: "José" typed on one machine and pasted
// from another (NFC, NFD) look the same to a person but are two keys, so two contacts.
// Only non-ASCII ids can have another form, so plain ids cost one test and no memory.

const NON_ASCII_RE = /[\u0080-\uffff]/;

export class LookAlikeIds {
  /** Each NFC form met, with the first id written in it and its line. */
  readonly #seen = new Map<string, { id: string; line: number }>();

  /** A sentence naming the earlier id this one only looks like, or null. */
  check(id: string, line: number): string | null {
    if (!NON_ASCII_RE.test(id)) return null;
    const form = id.normalize('NFC');
    const earlier = this.#seen.get(form);
    if (!earlier) {
      this.#seen.set(form, { id, line });
      return null;
    }
    if (earlier.id === id) return null;
    return (
      `external_id ${JSON.stringify(id)} looks like ${JSON.stringify(earlier.id)} (line ${earlier.line})` +
      ' but is written with other Unicode code points (NFC and NFD forms): they are two contacts'
    );
  }
}
