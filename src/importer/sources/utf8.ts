// Telling UTF-8 from the legacy encodings a file may be in: where UTF-8 breaks, and which
// encoding the bytes look like instead.

/** A guess for a file that is not UTF-8: NUL bytes mean UTF-16, anything else a Windows code page. */
export function legacyEncoding(sample: Buffer): { name: string; label: string } {
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
