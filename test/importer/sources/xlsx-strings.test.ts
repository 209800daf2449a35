import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/importer/errors.js';
import { readSharedStrings, SHARED_STRINGS_LIMITS } from '../../../src/importer/sources/xlsx-strings.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** The XML in pieces of `size` bytes (cutting tags, entities and characters anywhere). */
async function* pieces(xml: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(xml);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function table(xml: string, size = 1 << 16, limits = SHARED_STRINGS_LIMITS) {
  const strings = await readSharedStrings(pieces(xml, size), 'book.xlsx', limits);
  return Array.from({ length: strings.count }, (_, i) => strings.get(i));
}

describe('shared strings', () => {
  const xml =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN}" count="9" uniqueCount="9">` +
    '<si><t>external_id</t></si>' +
    '<si><t xml:space="preserve">  Ada &amp; Co </t></si>' +
    '<si><t/></si><si/><si />' +
    // Rich text: the runs' text joined, their formatting dropped.
    '<si><r><rPr><b/><sz val="11"/></rPr><t>Zoë</t></r><r><t xml:space="preserve"> Ñandú</t></r></si>' +
    // A phonetic reading is not the text.
    '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>' +
    '<si><t>&lt;a&gt; &#233;&#x20AC; &quot;q&quot; &apos;</t></si>' +
    '<si>\n  <t><![CDATA[a <b> & c]]></t>\n</si>' +
    '</sst>';
  const expected = [
    'external_id',
    '  Ada & Co ',
    '',
    '',
    '',
    'Zoë Ñandú',
    '東京',
    '<a> é€ "q" \'',
    'a <b> & c',
  ];

  it('reads plain, rich, empty and escaped strings, leaving phonetic readings out', async () => {
    expect(await table(xml)).toEqual(expected);
  });

  it('reads the same table however the XML is cut into chunks', async () => {
    for (const size of [1, 2, 3, 5, 7, 13, 64]) expect(await table(xml, size)).toEqual(expected);
  });

  it('reads tags with a namespace prefix', async () => {
    const prefixed = `<x:sst xmlns:x="${MAIN}"><x:si><x:t>one</x:t></x:si><x:si><x:r><x:t>t</x:t></x:r><x:r><x:t>wo</x:t></x:r></x:si></x:sst>`;
    expect(await table(prefixed, 3)).toEqual(['one', 'two']);
  });

  it('holds thousands of strings, and has none past the end', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `s${i}`);
    const strings = await readSharedStrings(
      pieces(`<sst>${many.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`, 1000),
      'book.xlsx',
    );
    expect(strings.count).toBe(10_000);
    expect([0, 4095, 4096, 8191, 8192, 9999].map((i) => strings.get(i))).toEqual([
      's0',
      's4095',
      's4096',
      's8191',
      's8192',
      's9999',
    ]);
    expect([10_000, -1, 1.5].map((i) => strings.get(i))).toEqual([undefined, undefined, undefined]);
  });
});

describe('the limits of a shared-strings table', () => {
  const limits = { maxStrings: 100, maxTextBytes: 1000, maxStringChars: 300 };

  it('refuses more strings than the limit, even empty ones', async () => {
    const error = await table(`<sst>${'<si><t/></si>'.repeat(101)}</sst>`, 1 << 16, limits).catch((e) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect(error.message).toBe(
      "book.xlsx: the workbook's shared strings (xl/sharedStrings.xml) hold more than the 100 strings " +
        'this tool reads: save the sheet as CSV and import that',
    );
    expect(await table(`<sst>${'<si><t/></si>'.repeat(100)}</sst>`, 1 << 16, limits)).toHaveLength(100);
  });

  it('refuses more text than the limit', async () => {
    const xml = `<sst>${`<si><t>${'x'.repeat(250)}</t></si>`.repeat(5)}</sst>`;
    await expect(table(xml, 1 << 16, limits)).rejects.toThrow(
      'hold more than the 1000 bytes of text this tool reads',
    );
  });

  it('refuses a string longer than a record, named by its place in the table', async () => {
    const xml = `<sst><si><t>a</t></si><si><t>${'x'.repeat(301)}</t></si></sst>`;
    await expect(table(xml, 1 << 16, limits)).rejects.toThrow(
      'hold a string longer than 300 characters (string 2), far more than a cell of a contact',
    );
  });

  it('stops reading a string that never ends soon after its limit, whatever follows', async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from('<sst><si><t>');
      const chunk = Buffer.from('y'.repeat(100));
      for (;;) {
        read += chunk.length;
        yield chunk;
      }
    }
    await expect(readSharedStrings(endless(), 'book.xlsx', limits)).rejects.toThrow('(string 1)');
    // The XML of a string (markup included) is held up to four times the limit, at least 64 KiB.
    expect(read).toBeLessThan(64 * 1024 + 200);
  });
});
