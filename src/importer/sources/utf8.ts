// Telling UTF-8 from the legacy encodings a file may be in: where UTF-8 breaks, and which
// encoding the bytes look like instead.

/** A guess for a file that is not UTF-8: NUL bytes mean UTF-16, anything else a Windows code page. */
export function legacyEncoding(sample: Uint8Array): { name: string; label: string } {
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
  return (
    eastAsianEncoding(sample) ?? {
      name: 'Windows-1252 (Latin-1, what Excel writes on Windows)',
      label: 'windows-1252',
    }
  );
}

interface DoubleByte {
  name: string;
  label: string;
  /** A byte that starts a character of two. */
  lead: (b: number) => boolean;
  /** A byte that may end one. */
  trail: (b: number) => boolean;
  /** A character of the code page's everyday set: its kana and first level of kanji, its Hangul. */
  common: (lead: number, trail: number) => boolean;
  /** A byte that is a character alone past ASCII (Shift_JIS's half-width katakana). */
  single?: (b: number) => boolean;
  /**
   * Share of its characters whose second byte is past ASCII too, at least. A code page's text has
   * many: most kanji and hanzi, hiragana, a good part of katakana. Windows-1252's curly quotes and
   * accents are each followed by a letter (`O’Brien`: 0x92 0x42, a Shift_JIS kanji by its bytes).
   */
  highTrails: number;
}

const between = (b: number, from: number, to: number) => b >= from && b <= to;

/**
 * The code pages Excel writes a CSV in on Japanese, Chinese, Korean and Taiwanese Windows. Each is
 * told by its structure (every byte past ASCII a lead byte with its trail byte) and by how much of
 * the text falls in its everyday characters; another code page's text, or Latin-1's accents,
 * breaks the structure or falls outside them. Korean comes before Chinese: Hangul's bytes are
 * GBK's everyday hanzi too, where Chinese text also has hanzi past them.
 */
const DOUBLE_BYTE: readonly DoubleByte[] = [
  {
    name: 'Shift_JIS (the code page of Japanese Windows and phones)',
    label: 'shift_jis',
    lead: (b) => between(b, 0x81, 0x9f) || between(b, 0xe0, 0xfc),
    trail: (b) => between(b, 0x40, 0x7e) || between(b, 0x80, 0xfc),
    // Symbols, kana and full-width letters (0x81-0x84); the first level of kanji (0x88-0x98).
    common: (lead) => between(lead, 0x81, 0x84) || between(lead, 0x88, 0x98),
    single: (b) => between(b, 0xa1, 0xdf),
    // Katakana's second bytes are mostly ASCII's (`ア` 0x83 0x41).
    highTrails: 0.2,
  },
  {
    name: 'EUC-KR (the code page of Korean Windows)',
    label: 'euc-kr',
    lead: (b) => between(b, 0x81, 0xfe),
    trail: (b) => between(b, 0x41, 0x5a) || between(b, 0x61, 0x7a) || between(b, 0x81, 0xfe),
    // KS X 1001's symbols and its Hangul syllables.
    common: (lead, trail) => (between(lead, 0xa1, 0xa3) || between(lead, 0xb0, 0xc8)) && trail >= 0xa1,
    highTrails: 0.5,
  },
  {
    name: 'GBK (the code page of Chinese Windows)',
    label: 'gbk',
    lead: (b) => between(b, 0x81, 0xfe),
    trail: (b) => between(b, 0x40, 0x7e) || between(b, 0x80, 0xfe),
    // GB2312's symbols and its hanzi (names take many of its second level: 梓, 婷, 鑫).
    common: (lead, trail) => (between(lead, 0xa1, 0xa3) || between(lead, 0xb0, 0xf7)) && trail >= 0xa1,
    highTrails: 0.5,
  },
  {
    name: 'Big5 (the code page of Taiwanese Windows)',
    label: 'big5',
    lead: (b) => between(b, 0x81, 0xfe),
    trail: (b) => between(b, 0x40, 0x7e) || between(b, 0xa1, 0xfe),
    // Symbols and the characters of its two levels.
    common: (lead) => between(lead, 0xa1, 0xa3) || between(lead, 0xa4, 0xf9),
    // Three in five of its characters' second bytes are past ASCII.
    highTrails: 0.4,
  },
];

/** Share of the characters past ASCII that must be everyday ones, and how many at least. */
const COMMON_SHARE = 0.9;
const MIN_CHARACTERS = 2;

/** The East Asian code page the bytes are in, if every byte fits one and its text is everyday text. */
function eastAsianEncoding(sample: Uint8Array): { name: string; label: string } | undefined {
  let best: { share: number; page: DoubleByte } | undefined;
  for (const page of DOUBLE_BYTE) {
    let common = 0;
    let total = 0;
    let high = 0;
    let fits = true;
    for (let i = 0; i < sample.length && fits; i++) {
      const b = sample[i]!;
      // Half-width katakana (a phone's readings of names, `ﾔﾏﾀﾞ`) neither count for nor against it.
      if (b < 0x80 || page.single?.(b)) continue;
      // A character cut by the end of the sample says nothing.
      if (i + 1 === sample.length) break;
      total++;
      const trail = sample[i + 1]!;
      if (!page.lead(b) || !page.trail(trail)) fits = false;
      else if (page.common(b, trail)) common++;
      if (trail >= 0x80) high++;
      i++;
    }
    if (!fits || total < MIN_CHARACTERS || high < total * page.highTrails) continue;
    const share = common / total;
    if (share >= COMMON_SHARE && (best === undefined || share > best.share)) best = { share, page };
  }
  return best && { name: best.page.name, label: best.page.label };
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
