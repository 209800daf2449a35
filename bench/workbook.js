// Workbook import memory: a 100,000-row .xlsx (ids typed as numbers, a date column, shared
// strings stored after the sheet, as Excel stores them) imported by the real `contacts import`
// into a mock in its own process; the importer's peak RSS against issue 31's 200 MB. --bin runs
// another build's importer (DIR/bin/contacts.js) on the same workbook instead of this one's.
// Usage: npm run build && node bench/workbook.js [--rows 100000] [--bin ../other-checkout]
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WorkbookWriter } from '@cj-tech-master/excelts';
import { measureChild } from './lib/measure.js';
import { ask } from './lib/worker.js';

const KEY = 'bk_bench_key';
const AGENT = 'bench-workbook';
const BIN = fileURLToPath(new URL('../bin/contacts.js', import.meta.url));
const LIMIT_MB = 200;

async function child() {
  const { startMockServer } = await import('../dist/mock/server.js');
  const mock = await startMockServer({ port: 0 });
  mock.store.defineAttribute(AGENT, { name: 'plan', type: 'text' });
  mock.store.defineAttribute(AGENT, { name: 'seats', type: 'number' });
  mock.store.defineAttribute(AGENT, { name: 'signed_up', type: 'date' });
  process.on('message', (msg) => {
    if (msg.type === 'count') process.send({ type: 'count', count: mock.store.contacts(AGENT).length });
  });
  process.send({ type: 'url', url: mock.url });
}

async function writeWorkbook(file, rows) {
  const workbook = new WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet('Contacts');
  sheet
    .addRow(['Record ID', 'First Name', 'Last Name', 'Email', 'Phone Number', 'plan', 'seats', 'signed_up'])
    .commit();
  for (let i = 1; i <= rows; i++) {
    const row = sheet.addRow([
      100000 + i,
      `First${i}`,
      `Last${i}`,
      `contact${i}@example.com`,
      `+44 20 7946 ${String(i % 10000).padStart(4, '0')}`,
      i % 2 ? 'pro' : 'free',
      i % 50,
      new Date(Date.UTC(2024, 0, 1 + (i % 365))),
    ]);
    row.getCell(8).numFmt = 'yyyy-mm-dd';
    row.commit();
  }
  sheet.commit();
  // A second sheet the import must read past and ignore.
  const notes = workbook.addWorksheet('Notes');
  notes.addRow(['exported for the benchmark']).commit();
  notes.commit();
  await workbook.commit();
}

async function main() {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '100000' }, bin: { type: 'string' } },
  });
  const rows = Number(values.rows);
  const bin = values.bin ? join(values.bin, 'bin', 'contacts.js') : BIN;
  const dir = mkdtempSync(join(tmpdir(), 'contacts-bench-workbook-'));
  const mock = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: 'inherit' });
  try {
    const { url } = await new Promise((resolve) => mock.once('message', resolve));
    const file = join(dir, 'contacts.xlsx');
    await writeWorkbook(file, rows);
    const size = statSync(file).size;

    const started = process.hrtime.bigint();
    const run = spawn(process.execPath, [bin, 'import', file, '--agent', AGENT, '-o', 'json', '-q'], {
      env: { PATH: process.env.PATH, HOME: dir, CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { code, seconds, stdout, peakMb } = await measureChild(run, started);
    if (code !== 0) throw new Error(`import exited ${code}: ${stdout}`);
    const summary = JSON.parse(stdout);
    const { count } = await ask(mock, { type: 'count' }, 'count');
    console.log(
      `import of a ${rows}-row .xlsx (${(size / 1e6).toFixed(1)} MB) into the local mock, node ${process.version}` +
        (values.bin ? `, the importer of ${values.bin}` : ''),
    );
    console.log(
      `${Math.round(rows / seconds)} rows/s, ${seconds.toFixed(1)} s, peak RSS ${Math.round(peakMb)} MB (limit ${LIMIT_MB}), ` +
        `landed ${count}/${rows}, rejected ${summary.rejected}`,
    );
    if (count !== rows || peakMb > LIMIT_MB) process.exitCode = 1;
  } finally {
    mock.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--child')) await child();
else await main();
