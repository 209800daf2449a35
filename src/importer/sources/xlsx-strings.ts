// A workbook's shared-strings table (xl/sharedStrings.xml): a sheet's text cell names a string by
// its index, anywhere in the table, so the table is held while the sheet is read. It is read from
// the XML as it streams into a compact store (the strings' UTF-8 text end to end, and where each
// ends: four bytes a string beside its text, where an array of strings takes dozens), within
// limits that keep a table of millions of empty strings from filling memory or taking minutes.
import { ImportError } from '../errors.js';
import { MAX_RECORD_CHARS, sizeText } from './record-limit.js';

export interface SharedStringsLimits {
  /** Strings in the table at most. */
  maxStrings: number;
  /** UTF-8 bytes of their text at most, all strings together. */
  maxTextBytes: number;
  /** Characters of one string at most: a cell is part of one record. */
  maxStringChars: number;
}

export const SHARED_STRINGS_LIMITS: SharedStringsLimits = {
  maxStrings: 4_000_000,
  maxTextBytes: 64 * 1024 * 1024,
  maxStringChars: MAX_RECORD_CHARS,
};

/** The strings of a workbook's table, by index: their UTF-8 text end to end, and where each ends. */
export class SharedStrings {
  #text: Buffer = Buffer.alloc(64 * 1024);
  #used = 0;
  #ends = new Uint32Array(1024);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Bytes of all the strings' text. */
  get bytes(): number {
    return this.#used;
  }

  /** The string at `index`; undefined past the end (a cell naming a string the table lacks). */
  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#count) return undefined;
    const start = index === 0 ? 0 : this.#ends[index - 1]!;
    return this.#text.toString('utf8', start, this.#ends[index]!);
  }

  /**
   * Adds a string (its UTF-8 bytes, `bytes` of them), growing the store as needed, never past
   * `maxBytes`. Copied, the string is garbage at once: holding strings cut from the XML instead
   * makes the garbage collector keep far more of every later read alive (seen by V8's counts).
   */
  add(text: string, bytes: number, maxBytes: number): void {
    if (this.#used + bytes > this.#text.length) {
      const grown = Buffer.alloc(Math.min(maxBytes, Math.max(this.#used + bytes, this.#text.length * 2)));
      this.#text.copy(grown, 0, 0, this.#used);
      this.#text = grown;
    }
    this.#used += this.#text.write(text, this.#used, 'utf8');
    if (this.#count === this.#ends.length) {
      const grown = new Uint32Array(this.#ends.length * 2);
      grown.set(this.#ends);
      this.#ends = grown;
    }
    this.#ends[this.#count++] = this.#used;
  }
}

/** Characters a closing tag may reach back into the piece of XML before (`</x:si >`, with room). */
const CLOSE_REACH = 64;
/** XML read before the table's own tag (`<sst>`), at most: its declaration and namespaces. */
const PROLOGUE_CHARS = 64 * 1024;

/**
 * Reads the table from the XML of the part, as it streams (`chunks`, uncompressed). `name` is the
 * file's, for messages; past a limit, reading stops with an error saying which.
 */
export async function readSharedStrings(
  chunks: AsyncIterable<Buffer>,
  name: string,
  limits: SharedStringsLimits = SHARED_STRINGS_LIMITS,
): Promise<SharedStrings> {
  const table = new SharedStrings();
  const refuse = (what: string) =>
    new ImportError(
      `${name}: the workbook's shared strings (xl/sharedStrings.xml) ${what}: save the sheet as CSV and import that`,
    );
  const tooLong = () =>
    refuse(
      `hold a string longer than ${sizeText(limits.maxStringChars)} (string ${table.count + 1}), ` +
        'far more than a cell of a contact',
    );
  let names: TagNames | undefined;
  const add = (xml: string) => {
    const text = stringText(xml, names!);
    if (text.length > limits.maxStringChars) throw tooLong();
    if (table.count >= limits.maxStrings)
      throw refuse(`hold more than the ${limits.maxStrings.toLocaleString('en')} strings this tool reads`);
    const bytes = text.length === 0 ? 0 : Buffer.byteLength(text);
    if (table.bytes + bytes > limits.maxTextBytes)
      throw refuse(`hold more than the ${sizeText(limits.maxTextBytes, 'bytes')} of text this tool reads`);
    table.add(text, bytes, limits.maxTextBytes);
  };
  // The XML of one string (its markup included) is held whole at most this long.
  const maxStringXml = Math.max(limits.maxStringChars * 4, PROLOGUE_CHARS);

  const decoder = new TextDecoder('utf-8');
  // Between strings: the start of a tag cut by the end of the last chunk.
  let rest = '';
  // Within a string whose end is not read yet: its XML so far, in pieces (joined once it ends),
  // and its last characters, where the closing tag may begin.
  let open: string[] | null = null;
  let openLength = 0;
  let tail = '';
  for await (const chunk of chunks) {
    let text = decoder.decode(chunk, { stream: true });
    if (open) {
      const probe = tail + text;
      const close = findClose(probe, 0, names!);
      if (!close) {
        open.push(text);
        openLength += text.length;
        tail = probe.slice(-CLOSE_REACH);
        if (openLength > maxStringXml) throw tooLong();
        continue;
      }
      const xml = open.join('') + text;
      const shift = openLength - tail.length;
      add(xml.slice(0, shift + close.start));
      text = xml.slice(shift + close.end);
      open = null;
      openLength = 0;
    }
    text = rest + text;
    rest = '';
    if (!names) {
      names = tagNames(text);
      if (!names) {
        if (text.length > PROLOGUE_CHARS)
          throw new ImportError(
            `${name}: not a readable .xlsx workbook: its shared strings are no table of strings`,
          );
        rest = text;
        continue;
      }
    }
    const { si } = names;
    let at = 0;
    for (;;) {
      const start = text.indexOf(si, at);
      if (start === -1) {
        const lt = text.lastIndexOf('<');
        if (lt >= at && lt > text.length - si.length) rest = text.slice(lt);
        break;
      }
      const after = text.charCodeAt(start + si.length);
      if (Number.isNaN(after)) {
        rest = text.slice(start);
        break;
      }
      if (after !== GT && after !== SLASH && !isSpace(after)) {
        at = start + si.length;
        continue;
      }
      const gt = text.indexOf('>', start);
      if (gt === -1) {
        rest = text.slice(start);
        break;
      }
      if (text.charCodeAt(gt - 1) === SLASH) {
        add('');
        at = gt + 1;
        continue;
      }
      const close = findClose(text, gt + 1, names);
      if (!close) {
        const held = text.slice(gt + 1);
        open = [held];
        openLength = held.length;
        tail = held.slice(-CLOSE_REACH);
        break;
      }
      add(text.slice(gt + 1, close.start));
      at = close.end;
    }
    if (rest.length > maxStringXml || openLength > maxStringXml) throw tooLong();
  }
  return table;
}

const GT = 0x3e;
const SLASH = 0x2f;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

interface TagNames {
  /** `<si`, or `<x:si` where the table's tags have a prefix. */
  si: string;
  siClose: string;
  t: string;
  tClose: string;
  tEmpty: string;
}

/** The tags of the table, with the prefix its `<sst>` tag has; undefined before that tag is read. */
function tagNames(text: string): TagNames | undefined {
  const match = /<(?:([\w.-]+):)?sst[\s>/]/.exec(text);
  if (!match) return undefined;
  const p = match[1] === undefined ? '' : `${match[1]}:`;
  return { si: `<${p}si`, siClose: `</${p}si`, t: `<${p}t>`, tClose: `</${p}t>`, tEmpty: `<${p}t/>` };
}

/** The closing tag of a string at or after `from` (`</si>`, `</si >`): where it starts and ends. */
function findClose(text: string, from: number, names: TagNames): { start: number; end: number } | undefined {
  for (
    let start = text.indexOf(names.siClose, from);
    start !== -1;
    start = text.indexOf(names.siClose, start + 1)
  ) {
    let end = start + names.siClose.length;
    while (end < text.length && isSpace(text.charCodeAt(end))) end++;
    if (end === text.length) return undefined;
    if (text.charCodeAt(end) === GT) return { start, end: end + 1 };
  }
  return undefined;
}

// The text runs of a string: `<t>` directly in it or in a rich-text run `<r>`; `<t/>` is empty.
const T_RE = /<(?:[\w.-]+:)?t(?:\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?t\s*>)/g;
// A phonetic reading (furigana over Japanese text) is not the cell's text.
const PHONETIC_RE = /<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh\s*>/g;

/** The text of one `<si>`'s content: its runs' text joined, entities and CDATA read. */
function stringText(xml: string, names: TagNames): string {
  // Most strings are one plain run: `<t>text</t>`, or `<t/>`.
  const { t, tClose } = names;
  if (xml.startsWith(t) && xml.endsWith(tClose) && xml.indexOf('<', t.length) === xml.length - tClose.length)
    return xmlUnescape(xml.slice(t.length, xml.length - tClose.length));
  if (xml === names.tEmpty || xml === '') return '';
  if (xml.includes('rPh')) xml = xml.replace(PHONETIC_RE, '');
  let text = '';
  for (const match of xml.matchAll(T_RE)) if (match[1]) text += xmlText(match[1]);
  return text;
}

/** Character data: entities decoded, and CDATA sections as written. */
function xmlText(content: string): string {
  if (!content.includes('<![CDATA[')) return xmlUnescape(content);
  let text = '';
  let at = 0;
  for (let open = content.indexOf('<![CDATA[', at); open !== -1; open = content.indexOf('<![CDATA[', at)) {
    const end = content.indexOf(']]>', open);
    if (end === -1) break;
    text += xmlUnescape(content.slice(at, open)) + content.slice(open + 9, end);
    at = end + 3;
  }
  return text + xmlUnescape(content.slice(at));
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five named entities and character references decoded; anything else left as written. */
export function xmlUnescape(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return XML_ENTITIES[name] ?? whole;
  });
}
