// Workbooks built byte by byte for the importer's tests: a zip of deflated parts whose directory
// may be made to lie about what a part expands to, as a hostile file's does.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  data: string | Buffer;
  /** The uncompressed size the directory gives; default the true one. */
  declaredSize?: number;
}

/** A zip of deflated entries in the order given, with a central directory. */
export function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const data = Buffer.from(part.data);
    const deflated = deflateRawSync(data);
    const name = Buffer.from(part.name);
    const size = part.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += 30 + name.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A cell holding shared string `index`. */
export const shared = (index: number) => ` t="s"><v>${index}</v>`;
/** A cell holding `text` inline. */
export const inline = (text: string) => ` t="inlineStr"><is><t>${text}</t></is>`;

/** A column's letters: A for 0, Z for 25, AA for 26. */
function column(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A worksheet of these rows; each cell is its `<c>` element's attributes and content. */
export function sheetXml(rows: string[][]): string {
  const body = rows
    .map((cells, r) => {
      const row = cells.map((c, i) => `<c r="${column(i)}${r + 1}"${c}</c>`).join('');
      return `<row r="${r + 1}">${row}</row>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${body}</sheetData></worksheet>`;
}

/** A shared-strings part holding `strings` (plain text, escaped here). */
export function stringsXml(strings: string[]): string {
  const escaped = strings.map((s) => `<si><t>${s.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</t></si>`);
  return `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">${escaped.join('')}</sst>`;
}

export interface WorkbookParts {
  /** The XML of the one sheet, "Contacts". */
  sheet: string;
  /** The XML of the shared strings; none without it. */
  strings?: string;
  styles?: string;
  /** Sizes the directory gives instead of the true ones, by part name (`xl/sharedStrings.xml`). */
  declared?: Record<string, number>;
}

/** A workbook of one sheet as a zip. */
export function workbookZip(parts: WorkbookParts): Buffer {
  const entries: ZipPart[] = [
    { name: '[Content_Types].xml', data: '<Types/>' },
    {
      name: '_rels/.rels',
      data: `<Relationships xmlns="${PKG}"><Relationship Id="r1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Contacts" sheetId="1" r:id="rs"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data:
        `<Relationships xmlns="${PKG}"><Relationship Id="rs" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>` +
        (parts.strings === undefined
          ? ''
          : `<Relationship Id="rt" Type="${R}/sharedStrings" Target="sharedStrings.xml"/>`) +
        (parts.styles === undefined ? '' : `<Relationship Id="ry" Type="${R}/styles" Target="styles.xml"/>`) +
        '</Relationships>',
    },
    { name: 'xl/worksheets/sheet1.xml', data: parts.sheet },
  ];
  if (parts.strings !== undefined) entries.push({ name: 'xl/sharedStrings.xml', data: parts.strings });
  if (parts.styles !== undefined) entries.push({ name: 'xl/styles.xml', data: parts.styles });
  for (const entry of entries) {
    const declared = parts.declared?.[entry.name];
    if (declared !== undefined) entry.declaredSize = declared;
  }
  return zipOf(entries);
}
