// Telling a file that is not text (a picture, a program, an archive) from one in a text encoding,
// by its first bytes, so that it is refused instead of read as UTF-16 or Windows-1252 garbage.
import { ImportError } from '../errors.js';

/** A file given to the import that holds no text, with what it looks like (`a PNG image`). */
export class NotTextError extends ImportError {
  readonly file: string;
  readonly looksLike: string;
  constructor(file: string, looksLike: string) {
    super(
      `${file} is not a text file (it looks like ${looksLike}): ` +
        'export the contacts as CSV, a workbook (.xlsx), vCard or JSON',
    );
    this.file = file;
    this.looksLike = looksLike;
  }
}

/** Signatures at the start of common files that are not text. */
const SIGNATURES: { bytes: (number | string)[]; at?: number; kind: string }[] = [
  { bytes: [0x89, 'PNG\r\n', 0x1a, 0x0a], kind: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image' },
  { bytes: ['GIF87a'], kind: 'a GIF image' },
  { bytes: ['GIF89a'], kind: 'a GIF image' },
  { bytes: ['WEBP'], at: 8, kind: 'a WebP image' },
  { bytes: ['ftyp'], at: 4, kind: 'a HEIC image or an MP4 video' },
  { bytes: ['II*', 0], kind: 'a TIFF image' },
  { bytes: ['MM', 0, '*'], kind: 'a TIFF image' },
  { bytes: ['%PDF-'], kind: 'a PDF document' },
  { bytes: [0x7f, 'ELF'], kind: 'an executable program (ELF)' },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], kind: 'an executable program (Mach-O)' },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], kind: 'an executable program (Mach-O)' },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], kind: 'an executable program (Mach-O) or a Java class' },
  { bytes: [0x1f, 0x8b], kind: 'a gzip archive' },
  { bytes: [0xfd, '7zXZ', 0], kind: 'an xz archive' },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], kind: 'a zstd archive' },
  { bytes: ['7z', 0xbc, 0xaf, 0x27, 0x1c], kind: 'a 7-Zip archive' },
  { bytes: ['Rar!', 0x1a, 0x07], kind: 'a RAR archive' },
  { bytes: ['PK', 0x03, 0x04], kind: 'a zip archive' },
  { bytes: ['PK', 0x05, 0x06], kind: 'an empty zip archive' },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    kind: 'an Excel 97-2003 (.xls) or other Office 97-2003 file',
  },
  { bytes: ['SQLite format 3', 0], kind: 'an SQLite database' },
];

const MAGIC = SIGNATURES.map(({ bytes, at = 0, kind }) => ({
  at,
  kind,
  bytes: Buffer.concat(
    bytes.map((b) => (typeof b === 'string' ? Buffer.from(b, 'latin1') : Buffer.from([b]))),
  ),
}));

/**
 * What the first bytes of a file say it is when it is not text: a known signature (a PNG image,
 * a zip archive), a Windows program (`MZ` and a header of NUL bytes), else undefined.
 */
export function binaryKind(sample: Buffer): string | undefined {
  for (const { at, bytes, kind } of MAGIC) {
    if (sample.length >= at + bytes.length && sample.subarray(at, at + bytes.length).equals(bytes))
      return kind;
  }
  // `MZ` could open a CSV header; a program's header has NUL bytes right after it.
  if (sample[0] === 0x4d && sample[1] === 0x5a && sample.subarray(2, 64).includes(0))
    return 'an executable program (Windows)';
  return undefined;
}

/**
 * Whether decoded text holds what no text file does: NULs, or control characters beyond a
 * text's tabs and line breaks, more than a stray one or two (a NUL pasted into a cell of a long
 * export is a typo, not a sign of binary data).
 */
export function looksBinary(text: string): boolean {
  let nuls = 0;
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) nuls++;
    else if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x0b && c !== 0x1a)
      controls++;
  }
  return nuls * 1000 > text.length || (controls > 8 && controls * 100 > text.length);
}
