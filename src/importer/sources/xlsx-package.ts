// The parts of an .xlsx zip that the streaming reader needs, found through the package's own
// relationships (whatever part names and targets its writer chose), re-fed to the reader as one
// zip stream in the order and under the names it expects.
import { createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, inflateRawSync } from 'node:zlib';

export interface WorkbookPackage {
  /** A zip of the workbook, its relationships, styles, shared strings and worksheets, in that order. */
  stream: Readable;
  sharedStrings: boolean;
  /** The relationship ids of the worksheets (chart sheets have none): the sheets that hold rows. */
  worksheetIds: Set<string>;
}

/**
 * What is wrong with a zip that cannot be read as a workbook: `damaged` for a file cut short or
 * broken, `not-a-workbook` for a sound zip that holds no workbook (a .docx, an .ods, any archive),
 * with what it does look like.
 */
export class WorkbookPackageError extends Error {
  constructor(
    readonly reason: 'damaged' | 'not-a-workbook',
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
export async function openWorkbookPackage(path: string): Promise<WorkbookPackage> {
  const handle = await open(path, 'r');
  let parts: Part[];
  let sharedStrings: boolean;
  let worksheetIds: Set<string>;
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
    const strings = target('sharedStrings')[0]?.entry ?? find(FED.sharedStrings);
    sharedStrings = strings !== undefined;
    worksheetIds = new Set(sheets.map((s) => s.id));
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
    parts = [
      { name: FED.rels, data: Buffer.from(rewritten) },
      { name: FED.workbook, entry: workbook },
      ...(styles ? [{ name: FED.styles, entry: styles }] : []),
      ...(strings ? [{ name: FED.sharedStrings, entry: strings }] : []),
      ...sheets.map((s, i) => ({ name: FED.sheet(i + 1), entry: s.entry })),
    ];
    // Where each entry's data starts (after its local header's name and extra field).
    for (const part of parts) if (part.entry) part.dataStart = await dataStart(handle, part.entry);
  } finally {
    await handle.close();
  }
  return { stream: Readable.from(zipStream(path, parts)), sharedStrings, worksheetIds };
}

interface Part {
  /** The name the reader sees. */
  name: string;
  /** Bytes written here (stored), or an entry of the file copied as it is compressed. */
  data?: Buffer;
  entry?: ZipEntry;
  dataStart?: number;
}

/**
 * The parts as a zip of their own: a fresh local header for each (its sizes given up front, so
 * the reader never has to look for where the data ends), the entry's compressed bytes copied
 * from the file, and an end record.
 */
async function* zipStream(path: string, parts: Part[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    const { data, entry } = part;
    const method = data ? 0 : entry!.method;
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(data ? crc32(data) : entry!.crc, 14);
    header.writeUInt32LE(data ? data.length : entry!.compressedSize, 18);
    header.writeUInt32LE(data ? data.length : entry!.size, 22);
    header.writeUInt16LE(name.length, 26);
    yield Buffer.concat([header, name]);
    if (data) yield data;
    else if (entry!.compressedSize > 0) {
      const start = part.dataStart!;
      yield* createReadStream(path, { start, end: start + entry!.compressedSize - 1 });
    }
  }
  const end = Buffer.alloc(22);
  EOCD.copy(end);
  yield end;
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

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlUnescape(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return XML_ENTITIES[name] ?? whole;
  });
}

function xmlEscape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);
}
