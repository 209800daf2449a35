// Hostile inputs (issue 30, item 12): a small workbook whose shared-strings table holds a hundred
// million entries, and a JSON array holding one record of hundreds of megabytes. Each is imported
// by the real `contacts import` against the embedded mock (`--mock`, in a temporary directory);
// the benchmark reports how the import ends, how long it took and its peak RSS (VmHWM).
// Usage: npm run build && node bench/hostile-inputs.js [--strings 100000000] [--record-mb 300]
//        [--lie] [--only workbook|json] [--bin path/to/contacts.js]
// --lie: the zip's directory gives the shared strings 1 MiB, whatever they expand to.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { crc32, createDeflateRaw } from 'node:zlib';
import { measureChild } from './lib/measure.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** Writes to `out`, waiting for it to drain when its buffer is full. */
function writer(out) {
  return (data) => (out.write(data) ? undefined : new Promise((resolve) => out.once('drain', resolve)));
}

/**
 * A zip of deflated entries, each given as an async generator of its bytes (so a part of a
 * gigabyte never sits in memory): sizes and CRC follow each entry in a data descriptor, and the
 * central directory at the end gives them all.
 */
async function writeZip(file, entries) {
  const out = createWriteStream(file);
  const write = writer(out);
  let offset = 0;
  const central = [];
  const put = async (buffer) => {
    await write(buffer);
    offset += buffer.length;
  };
  for (const [name, produce, declared] of entries) {
    const nameBytes = Buffer.from(name);
    const start = offset;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x08, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(nameBytes.length, 26);
    await put(Buffer.concat([local, nameBytes]));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const deflate = createDeflateRaw({ level: 9 });
    const drained = (async () => {
      for await (const chunk of deflate) {
        compressed += chunk.length;
        await put(chunk);
      }
    })();
    const feed = writer(deflate);
    for await (const data of produce()) {
      crc = crc32(data, crc);
      size += data.length;
      await feed(data);
    }
    deflate.end();
    await drained;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await put(descriptor);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x08, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(compressed, 20);
    entry.writeUInt32LE(declared ?? size, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(start, 42);
    central.push(entry, nameBytes);
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await put(Buffer.concat([directory, end]));
  await new Promise((resolve) => out.end(resolve));
}

const text = (s) =>
  async function* () {
    yield Buffer.from(s);
  };

/** A workbook of one contact whose shared-strings table holds `count` more strings, all empty. */
async function writeWorkbook(file, count, lie) {
  const sheet =
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>` +
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
    '<row r="2"><c r="A2" t="inlineStr"><is><t>x1</t></is></c><c r="B2" t="inlineStr"><is><t>Ada</t></is></c></row>' +
    '</sheetData></worksheet>';
  async function* strings() {
    yield Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}"><si><t>external_id</t></si><si><t>name</t></si>`,
    );
    const per = 1 << 16;
    const block = Buffer.from('<si><t/></si>'.repeat(per));
    for (let left = count; left > 0; left -= per)
      yield left >= per ? block : block.subarray(0, left * '<si><t/></si>'.length);
    yield Buffer.from('</sst>');
  }
  await writeZip(file, [
    ['[Content_Types].xml', text('<Types/>')],
    [
      '_rels/.rels',
      text(
        `<Relationships xmlns="${PKG}"><Relationship Id="r1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    ],
    [
      'xl/workbook.xml',
      text(
        `<workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Contacts" sheetId="1" r:id="rs"/></sheets></workbook>`,
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      text(
        `<Relationships xmlns="${PKG}">` +
          `<Relationship Id="rs" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rt" Type="${R}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    ],
    ['xl/worksheets/sheet1.xml', text(sheet)],
    ['xl/sharedStrings.xml', strings, lie ? 1024 * 1024 : undefined],
  ]);
}

/** A JSON array of one record whose name is `mb` MiB long. */
async function writeJson(file, mb) {
  const out = createWriteStream(file);
  const write = writer(out);
  await write('[{"external_id":"big","name":"');
  const block = Buffer.alloc(1024 * 1024, 'a');
  for (let i = 0; i < mb; i++) await write(block);
  await write('"}]\n');
  await new Promise((resolve) => out.end(resolve));
}

/** `contacts import FILE --mock` in `dir`: how it ended, its time and peak RSS. */
async function importRun(bin, dir, file) {
  const started = process.hrtime.bigint();
  const run = spawn(
    process.execPath,
    [bin, 'import', file, '--mock', '--agent', 'bench', '-o', 'json', '-q'],
    {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  run.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const result = await measureChild(run, started);
  let outcome = stderr.trim().split('\n')[0] ?? '';
  if (result.code === 0) {
    const summary = JSON.parse(result.stdout);
    outcome = `rows ${summary.rows}, created ${summary.created}, rejected ${summary.rejected}`;
  }
  return { ...result, outcome };
}

async function main() {
  const { values } = parseArgs({
    options: {
      strings: { type: 'string', default: '100000000' },
      'record-mb': { type: 'string', default: '300' },
      only: { type: 'string' },
      lie: { type: 'boolean', default: false },
      bin: { type: 'string', default: fileURLToPath(new URL('../bin/contacts.js', import.meta.url)) },
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'contacts-bench-hostile-'));
  const cases = [];
  if (values.only !== 'json') {
    const count = Number(values.strings);
    cases.push({
      label: `workbook, ${count.toLocaleString('en')} shared strings${values.lie ? ', directory saying 1 MiB' : ''}`,
      file: join(dir, 'strings.xlsx'),
      write: (file) => writeWorkbook(file, count, values.lie),
    });
  }
  if (values.only !== 'workbook') {
    const mb = Number(values['record-mb']);
    cases.push({
      label: `JSON array, one ${mb} MiB record`,
      file: join(dir, 'record.json'),
      write: (file) => writeJson(file, mb),
    });
  }
  try {
    console.log(`node ${process.version}, ${values.bin}`);
    for (const c of cases) {
      await c.write(c.file);
      const size = statSync(c.file).size / 1024 / 1024;
      const run = await importRun(values.bin, dir, c.file);
      console.log(
        `${c.label} (${size.toFixed(1)} MiB file): exit ${run.code}, ${run.seconds.toFixed(1)} s, ` +
          `peak RSS ${Math.round(run.peakMb)} MB\n  ${run.outcome.replaceAll(dir, '$TMP')}`,
      );
      rmSync(c.file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
