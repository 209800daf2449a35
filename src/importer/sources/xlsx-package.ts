// The parts of an .xlsx zip that the streaming reader needs, found through the package's own
// relationships (whatever part names and targets its writer chose), re-fed to the reader as one
// zip stream in the order and under the names it expects. Every part is inflated here, never to
// more than the zip's directory says it holds: the parts held whole (the workbook, the styles, the
// shared strings) are refused from the directory when larger than their limits, and a sheet's row
// is refused once its XML passes the limit of a record, before the reader holds it.
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, createInflateRaw, inflateRawSync } from 'node:zlib';
import { ContactsError } from '../../core/error.js';
import { MAX_RECORD_CHARS, sizeText } from './record-limit.js';
import { xmlUnescape } from './xlsx-strings.js';

export interface WorkbookPackage {
  /**
   * A zip of the workbook, its relationships, styles and worksheets, in that order, every part
   * stored (inflated here). The shared strings are not in it: see `sharedStrings`.
   */
  stream: Readable;
  /** The XML of the shared-strings part, uncompressed, as it streams; undefined without one. */
  sharedStrings: (() => AsyncIterable<Buffer>) | undefined;
  /** The relationship ids of the worksheets (chart sheets have none): the sheets that hold rows. */
  worksheetIds: Set<string>;
  /**
   * Whether a worksheet, by its relationship id, holds a value (its XML read to the first);
   * `sharedString` gives a shared string's text, to tell one of spaces.
   */
  holdsValue(id: string, sharedString?: (index: number) => string | undefined): Promise<boolean>;
  /** Says a sheet's row was read: the sheet's XML from here on counts towards the next row. */
  rowRead(): void;
  /**
   * Rejects when `stream` fails (a part damaged, a row too large). The reader does not always pass
   * its input's error on to the sheet being read: a caller races its reads against this.
   */
  failure: Promise<never>;
}

export interface PackageOptions {
  /** Bytes of a sheet's XML between two rows at most (default: the limit of a record, 16 MiB). */
  maxRowBytes?: number | undefined;
}

/**
 * What is wrong with a zip that cannot be read as a workbook: `damaged` for a file cut short or
 * broken, `not-a-workbook` for a sound zip that holds no workbook (a .docx, an .ods, any archive),
 * with what it does look like; `too-large` for a part held whole that is larger than this tool
 * holds, and `row-too-large` for a sheet's row past the limit of a record.
 */
export class WorkbookPackageError extends ContactsError {
  constructor(
    readonly reason: 'damaged' | 'not-a-workbook' | 'too-large' | 'row-too-large',
    message: string,
    readonly looksLike?: string,
  ) {
    super(message);
  }
}

const REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Where the reader looks for each part, whatever the writer called it. */
const FED = {
  workbook: 'xl/workbook.xml',
  rels: 'xl/_rels/workbook.xml.rels',
  styles: 'xl/styles.xml',
  sharedStrings: 'xl/sharedStrings.xml',
  sheet: (n: number) => `xl/worksheets/sheet${n}.xml`,
};
const DEFAULT_WORKBOOK = 'xl/workbook.xml';
/** Relationship parts are small; a bigger one is not a workbook's. */
const MAX_RELS_BYTES = 4 * 1024 * 1024;
/** The workbook and styles parts, each held whole (as objects) while the sheets are read. */
export const MAX_HELD_PART_BYTES = 16 * 1024 * 1024;
/** The shared strings' XML; the table read from it has limits of its own (xlsx-strings.ts). */
export const MAX_SHARED_STRINGS_XML_BYTES = 256 * 1024 * 1024;
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;
/** End of central directory: the record every zip archive ends with (and a comment of up to 64 KiB). */
const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const EOCD_REACH = 22 + 0xffff;

interface ZipEntry {
  /** As stored, with `\` read as `/` and no leading `/`. */
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where its local header starts. */
  start: number;
}

/**
 * Open the workbook zip at `path`: read its directory and relationships, then return the stream
 * of the parts the reader needs. Only the directory and the relationship parts are read here;
 * the rest is streamed from the file as the reader pulls it.
 */
export async function openWorkbookPackage(
  path: string,
  options: PackageOptions = {},
): Promise<WorkbookPackage> {
  const handle = await open(path, 'r');
  let parts: Part[];
  let strings: Part | undefined;
  let worksheetIds: Set<string>;
  let sheetsById: Map<string, Part>;
  try {
    const entries = await zipDirectory(handle);
    const byName = new Map(entries.map((e) => [e.name.toLowerCase(), e]));
    const find = (name: string) => byName.get(name.toLowerCase());

    const rootRels = find('_rels/.rels');
    const office = rootRels
      ? relationships(await readEntry(handle, rootRels)).find((r) => r.type.endsWith('/officeDocument'))
      : undefined;
    const workbookName = office ? resolvePart('', office.target) : DEFAULT_WORKBOOK;
    const workbook = find(workbookName);
    if (!workbook) {
      throw new WorkbookPackageError(
        'not-a-workbook',
        `the zip archive holds no workbook (${workbookName})`,
        zipKind(byName),
      );
    }
    const relsEntry = find(
      posix.join(posix.dirname(workbookName), '_rels', `${posix.basename(workbookName)}.rels`),
    );
    const rels = relsEntry ? relationships(await readEntry(handle, relsEntry)) : [];
    const target = (type: string) =>
      rels
        .filter((r) => r.type.endsWith(`/${type}`))
        .map((r) => ({ id: r.id, entry: find(resolvePart(workbookName, r.target)) }))
        .filter((r): r is { id: string; entry: ZipEntry } => r.entry !== undefined);

    const sheets = target('worksheet');
    const styles = target('styles')[0]?.entry ?? find(FED.styles);
    const stringsEntry = target('sharedStrings')[0]?.entry ?? find(FED.sharedStrings);
    worksheetIds = new Set(sheets.map((s) => s.id));
    refuseLarger(workbook, MAX_HELD_PART_BYTES, 'the workbook part');
    if (styles) refuseLarger(styles, MAX_HELD_PART_BYTES, "the workbook's styles");
    if (stringsEntry) {
      refuseLarger(stringsEntry, MAX_SHARED_STRINGS_XML_BYTES, "the workbook's shared strings");
      strings = {
        name: FED.sharedStrings,
        entry: stringsEntry,
        dataStart: await dataStart(handle, stringsEntry),
      };
    }
    const rewritten =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      sheets
        .map(
          (s, i) =>
            `<Relationship Id="${xmlEscape(s.id)}" Type="${REL_TYPE}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join('') +
      '</Relationships>';
    const sheetParts = sheets.map((s, i) => ({ name: FED.sheet(i + 1), entry: s.entry, sheet: true }));
    sheetsById = new Map(sheets.map((s, i) => [s.id, sheetParts[i]!]));
    parts = [
      { name: FED.rels, data: Buffer.from(rewritten) },
      { name: FED.workbook, entry: workbook },
      ...(styles ? [{ name: FED.styles, entry: styles }] : []),
      ...sheetParts,
    ];
    // Where each entry's data starts (after its local header's name and extra field).
    for (const part of parts) if (part.entry) part.dataStart = await dataStart(handle, part.entry);
  } finally {
    await handle.close();
  }
  const rows = new RowGuard(options.maxRowBytes ?? MAX_RECORD_CHARS);
  const stringsPart = strings;
  let failed: (error: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => {
    failed = reject;
  });
  failure.catch(() => {});
  async function* stream(): AsyncGenerator<Buffer> {
    try {
      yield* zipStream(path, parts, rows);
    } catch (error) {
      failed(error);
      throw error;
    }
  }
  return {
    stream: Readable.from(stream()),
    sharedStrings: stringsPart && (() => inflated(path, stringsPart)),
    worksheetIds,
    holdsValue: async (id, sharedString) => {
      const part = sheetsById.get(id);
      return part ? sheetHoldsValue(path, part, sharedString) : false;
    },
    rowRead: () => rows.rowRead(),
    failure,
  };
}

interface Part {
  /** The name the reader sees. */
  name: string;
  /** Bytes written here, or an entry of the file, inflated as it is read. */
  data?: Buffer;
  entry?: ZipEntry;
  dataStart?: number;
  /** A worksheet: its rows are measured as its XML streams. */
  sheet?: boolean;
}

/** Sheet XML read at most to tell whether a sheet holds a value; past it, it is taken to. */
const MAX_VALUE_SCAN_BYTES = 16 * 1024 * 1024;
/** Text carried from one piece of a sheet's XML to the next, for an element cut between them. */
const SCAN_CARRY = 4096;
const SHEET_DATA_RE = /<(?:\w+:)?sheetData\s*(\/)?>/;
/**
 * A cell's opening tag (its attributes: `t="s"` names a shared string), a value or text with its
 * content (`<v>12</v>`, `<t xml:space="preserve">Ann</t>`), or the end of the rows.
 */
const TOKEN_RE = /<(?:\w+:)?c\b([^>]*)>|<(?:\w+:)?(v|t)(?:\s[^>]*)?>([^<]*)<|<\/(?:\w+:)?sheetData>/g;

/**
 * Whether a sheet's cells hold a value: its rows' XML read to the first value that is not blank
 * (a shared string's looked up with `sharedString`). A cell with a style alone (`<c r="A1"
 * s="1"/>`), a cell of spaces, an empty formula result, and what follows the rows (Excel's data
 * validations, `<xm:f>Contacts!$A$2:$A$9</xm:f>`) are none.
 */
async function sheetHoldsValue(
  path: string,
  part: Part,
  sharedString: ((index: number) => string | undefined) | undefined,
): Promise<boolean> {
  let inData = false;
  let carry = '';
  let scanned = 0;
  let shared = false;
  // UTF-8, a character cut between two pieces joined again: a no-break space is blank too.
  const decoder = new TextDecoder();
  for await (const chunk of inflated(path, part)) {
    scanned += chunk.length;
    let text = carry + decoder.decode(chunk, { stream: true });
    if (!inData) {
      const start = SHEET_DATA_RE.exec(text);
      if (start?.[1]) return false;
      if (!start) {
        carry = text.slice(-SCAN_CARRY);
        continue;
      }
      inData = true;
      text = text.slice(start.index + start[0].length);
    }
    TOKEN_RE.lastIndex = 0;
    let done = 0;
    for (let token = TOKEN_RE.exec(text); token; token = TOKEN_RE.exec(text)) {
      done = TOKEN_RE.lastIndex;
      if (token[0].startsWith('</')) return false;
      if (token[1] !== undefined) {
        shared = /\bt=["']s["']/.test(token[1]) && !token[1].endsWith('/');
        continue;
      }
      const content = token[3]!;
      if (!content.trim()) continue;
      if (token[2] === 'v' && shared && sharedString) {
        if (sharedString(Number(content))?.trim()) return true;
        continue;
      }
      return true;
    }
    if (scanned > MAX_VALUE_SCAN_BYTES) return true;
    // A value's closing `<` held back by the regular expression comes again with the next piece.
    carry = text.slice(Math.max(done, text.length - SCAN_CARRY));
  }
  return false;
}

/** Refuses, from the zip's directory, a part held whole that would expand past `max` bytes. */
function refuseLarger(entry: ZipEntry, max: number, what: string): void {
  if (entry.size <= max) return;
  throw new WorkbookPackageError(
    'too-large',
    `${what} (${entry.name}) would expand to ${Math.ceil(entry.size / 1024 / 1024)} MiB, ` +
      `more than the ${sizeText(max, 'bytes')} this tool reads`,
  );
}

/**
 * The XML of a sheet between two rows, counted as it streams to the reader: the reader holds a
 * row whole before handing it on, so a row is refused here once its XML passes the limit.
 */
class RowGuard {
  #sinceRow = 0;
  constructor(readonly maxBytes: number) {}

  rowRead(): void {
    this.#sinceRow = 0;
  }

  sheetStarts(): void {
    this.#sinceRow = 0;
  }

  add(bytes: number): void {
    this.#sinceRow += bytes;
    if (this.#sinceRow > this.maxBytes) {
      throw new WorkbookPackageError(
        'row-too-large',
        `a row whose XML passes ${sizeText(this.maxBytes, 'bytes')}, far more than a contact`,
      );
    }
  }
}

/**
 * The parts as a zip of their own: a fresh local header for each (its sizes given up front, so
 * the reader never has to look for where the data ends), the entry's bytes inflated here and
 * wrapped in deflate's stored blocks, and an end record.
 */
async function* zipStream(path: string, parts: Part[], rows: RowGuard): AsyncGenerator<Buffer> {
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    const { data, entry } = part;
    header.writeUInt16LE(data ? 0 : 8, 8);
    header.writeUInt32LE(data ? crc32(data) : entry!.crc, 14);
    header.writeUInt32LE(data ? data.length : storedSize(entry!.size), 18);
    header.writeUInt32LE(data ? data.length : entry!.size, 22);
    header.writeUInt16LE(name.length, 26);
    yield Buffer.concat([header, name]);
    if (data) yield data;
    else if (part.sheet) {
      rows.sheetStarts();
      for await (const chunk of storedBlocks(inflated(path, part), entry!.size)) {
        rows.add(chunk.length);
        yield chunk;
      }
    } else yield* storedBlocks(inflated(path, part), entry!.size);
  }
  const end = Buffer.alloc(22);
  EOCD.copy(end);
  yield end;
}

/** Bytes a stored deflate block holds at most. */
const STORED_BLOCK = 0xffff;
const STORED_HEADER = 5;

/** What `size` bytes take as stored deflate blocks (an empty part is one empty block). */
const storedSize = (size: number) => size + STORED_HEADER * Math.max(1, Math.ceil(size / STORED_BLOCK));

/**
 * `size` bytes as a deflate stream of stored blocks (RFC 1951, 3.2.4): its length is known before
 * a byte is read, and the reader's inflater hands its XML parser small pieces, as it does for any
 * deflated part. (Stored as they are, a part reaches the parser in pieces so large that the
 * events of each live long enough to make the garbage collector's work many times longer.)
 */
async function* storedBlocks(bytes: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let done = 0;
  // Bytes of the current block still to come.
  let left = 0;
  const header = () => {
    left = Math.min(STORED_BLOCK, size - done);
    const block = Buffer.alloc(STORED_HEADER);
    block[0] = done + left === size ? 1 : 0;
    block.writeUInt16LE(left, 1);
    block.writeUInt16LE(~left & 0xffff, 3);
    return block;
  };
  if (size === 0) yield header();
  for await (const chunk of bytes) {
    for (let at = 0; at < chunk.length; ) {
      if (left === 0) yield header();
      const piece = chunk.subarray(at, at + left);
      at += piece.length;
      left -= piece.length;
      done += piece.length;
      yield piece;
    }
  }
}

/**
 * An entry's bytes, uncompressed, as they stream from the file: exactly as many as the zip's
 * directory says, so a part that would expand past what the directory promised (a zip bomb) is
 * refused as it passes that size.
 */
async function* inflated(path: string, part: Part): AsyncGenerator<Buffer> {
  const entry = part.entry!;
  const damaged = (why: string) => new WorkbookPackageError('damaged', `${entry.name}: ${why}`);
  let size = 0;
  if (entry.compressedSize > 0) {
    const start = part.dataStart!;
    const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1 });
    const bytes = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
    if (bytes !== raw) raw.on('error', (error) => bytes.destroy(error));
    try {
      for await (const chunk of bytes as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > entry.size)
          throw damaged(`it expands past the ${entry.size} bytes its zip directory gives`);
        yield chunk;
      }
    } catch (error) {
      if (error instanceof WorkbookPackageError) throw error;
      throw damaged('the zip archive is damaged');
    } finally {
      raw.destroy();
      bytes.destroy();
    }
  }
  if (size !== entry.size)
    throw damaged(`it holds ${size} bytes where its zip directory gives ${entry.size}`);
}

/** The entries listed in the zip's central directory. */
async function zipDirectory(handle: FileHandle): Promise<ZipEntry[]> {
  const damaged = (why: string) => new WorkbookPackageError('damaged', why);
  const { size } = await handle.stat();
  const tail = Buffer.alloc(Math.min(size, EOCD_REACH));
  await handle.read(tail, 0, tail.length, size - tail.length);
  const at = tail.lastIndexOf(EOCD);
  if (at === -1 || at + 22 > tail.length) throw damaged('the file ends early (is it cut short?)');
  const count = tail.readUInt16LE(at + 10);
  const directorySize = tail.readUInt32LE(at + 12);
  const directoryStart = tail.readUInt32LE(at + 16);
  if (directoryStart === 0xffffffff || count === 0xffff)
    throw damaged('a zip64 archive (over 4 GB): save it as CSV');
  if (directorySize > MAX_DIRECTORY_BYTES || directoryStart + directorySize > size) {
    throw damaged('its zip directory is damaged (is the file cut short?)');
  }
  const directory = Buffer.alloc(directorySize);
  await handle.read(directory, 0, directorySize, directoryStart);
  const found: ZipEntry[] = [];
  for (let p = 0; p + 46 <= directory.length && found.length < count; ) {
    if (directory.readUInt32LE(p) !== 0x02014b50) throw damaged('its zip directory is damaged');
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    const name = directory
      .toString('utf8', p + 46, p + 46 + nameLength)
      .replace(/\\/g, '/')
      .replace(/^\/+/, '');
    found.push({
      name,
      flags: directory.readUInt16LE(p + 8),
      method: directory.readUInt16LE(p + 10),
      crc: directory.readUInt32LE(p + 16),
      compressedSize: directory.readUInt32LE(p + 20),
      size: directory.readUInt32LE(p + 24),
      start: directory.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  if (found.length === 0) throw damaged('the zip archive is empty');
  for (const e of found) {
    if (e.compressedSize === 0xffffffff || e.size === 0xffffffff || e.start === 0xffffffff)
      throw damaged('a zip64 archive (over 4 GB): save it as CSV');
    if (e.start + e.compressedSize > directoryStart) throw damaged('its zip directory is damaged');
  }
  return found;
}

/** Where an entry's data begins: after its local header, whose name and extra field may differ in length from the directory's. */
async function dataStart(handle: FileHandle, entry: ZipEntry): Promise<number> {
  const check = (why: string) => new WorkbookPackageError('damaged', `${entry.name}: ${why}`);
  if (entry.flags & 0x1) throw check('it is encrypted: save the workbook without a password');
  if (entry.method !== 0 && entry.method !== 8)
    throw check(`compressed with a method zip readers rarely know (${entry.method}): save it again`);
  const header = Buffer.alloc(30);
  const { bytesRead } = await handle.read(header, 0, 30, entry.start);
  if (bytesRead < 30 || header.readUInt32LE(0) !== 0x04034b50) throw check('the zip archive is damaged');
  return entry.start + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/** A small entry's bytes, uncompressed. */
async function readEntry(handle: FileHandle, entry: ZipEntry): Promise<string> {
  const start = await dataStart(handle, entry);
  if (entry.compressedSize > MAX_RELS_BYTES || entry.size > MAX_RELS_BYTES)
    throw new WorkbookPackageError('damaged', `${entry.name}: too large for a relationships part`);
  const raw = Buffer.alloc(entry.compressedSize);
  await handle.read(raw, 0, raw.length, start);
  try {
    const bytes = entry.method === 8 ? inflateRawSync(raw, { maxOutputLength: MAX_RELS_BYTES }) : raw;
    return bytes.toString('utf8');
  } catch {
    throw new WorkbookPackageError('damaged', `${entry.name}: the zip archive is damaged`);
  }
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

/** The internal relationships of a `.rels` part (attributes in any order, any namespace prefix). */
function relationships(xml: string): Relationship[] {
  const found: Relationship[] = [];
  for (const [, attributes] of xml.matchAll(/<(?:[\w.-]+:)?Relationship\s([^>]*)>/g)) {
    const a: Record<string, string> = {};
    for (const [, key, double, single] of attributes!.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
      a[key!] = xmlUnescape(double ?? single ?? '');
    if (a.TargetMode === 'External' || !a.Id || !a.Type || !a.Target) continue;
    found.push({ id: a.Id, type: a.Type, target: a.Target });
  }
  return found;
}

/**
 * The part a relationship points at, from the part that holds it: a target is relative to that
 * part's folder (`worksheets/sheet1.xml` from `xl/workbook.xml`) or absolute in the package
 * (`/xl/worksheets/sheet1.xml`, as openpyxl and .NET writers put it).
 */
function resolvePart(source: string, target: string): string {
  let path = target.replace(/\\/g, '/').replace(/[?#].*$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not percent-encoded after all: the name as written.
  }
  const joined = path.startsWith('/') ? path : posix.join(posix.dirname(source), path);
  return posix.normalize(joined).replace(/^(\.\.\/|\/)+/, '');
}

/** What a zip without a workbook looks like, for the message that refuses it. */
function zipKind(byName: Map<string, ZipEntry>): string {
  if (byName.has('word/document.xml')) return 'a Word document (.docx)';
  if (byName.has('ppt/presentation.xml')) return 'a PowerPoint presentation (.pptx)';
  if (byName.has('mimetype') && byName.has('content.xml')) return 'an OpenDocument file (.ods, .odt)';
  return 'a zip archive';
}

function xmlEscape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);
}
