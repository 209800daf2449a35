// The importer's own CPU on the way to the sink: opening a CSV, planning its columns, reading
// ahead, validating every row (phones placed, dates and booleans read), as a dry run against an
// empty agent of the mock in the same process (one list request; the rows are planned locally).
// CPU time (user + system) of the process over runImport, best and median of --rounds, after a
// warm-up. With --dist DIR, another build's runImport (DIR/importer/pipeline.js) is measured
// the same way, in turns with this one, so both see the same load.
// Usage: npm run build && node bench/plan-validate.js [--rows 30000] [--rounds 7] [--dist ../other/dist]
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '7' },
    dist: { type: 'string' },
  },
});
const rows = Number(values.rows);
const rounds = Number(values.rounds);

const COUNTRIES = ['United Kingdom', 'Germany', 'France', 'United States'];
const PHONES = ['020 7946 0958', '030 901820', '01 23 45 67 89', '(206) 555-0100'];

function row(i) {
  const c = i % 4;
  const date = `${(i % 28) + 1}/${(i % 12) + 1}/20${10 + (i % 15)}`;
  return `u${i},Contact ${i},contact${i}@example.com,${PHONES[c]},${COUNTRIES[c]},${date},${i % 3 ? 'yes' : 'no'},${i % 2 ? 'pro' : 'free'},${i % 50}\n`;
}

async function writeCsv(file) {
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? undefined : new Promise((r) => out.once('drain', r)));
  await write('External ID,Full Name,Email,Phone,Country,joined,vip,plan,seats\n');
  for (let i = 1; i <= rows; i++) await write(row(i));
  await new Promise((r) => out.end(r));
}

const dir = mkdtempSync(join(tmpdir(), 'bench-plan-validate-'));
const file = join(dir, 'contacts.csv');
try {
  await writeCsv(file);
  const here = new URL('../dist/', import.meta.url);
  const builds = [{ name: 'this build', dist: here }];
  if (values.dist) builds.push({ name: values.dist, dist: pathToFileURL(`${resolve(values.dist)}/`) });
  const { startMockServer } = await import(new URL('mock/server.js', here).href);
  const { ContactsClient } = await import(new URL('client/client.js', here).href);
  const mock = await startMockServer({ port: 0 });
  mock.store.defineAttribute('bench', { name: 'joined', type: 'date' });
  mock.store.defineAttribute('bench', { name: 'vip', type: 'boolean' });
  mock.store.defineAttribute('bench', { name: 'plan', type: 'text' });
  mock.store.defineAttribute('bench', { name: 'seats', type: 'number' });
  const client = new ContactsClient({ baseUrl: mock.url, apiKey: 'bk_bench_key', agentId: 'bench' });
  for (const build of builds) {
    build.runImport = (await import(new URL('importer/pipeline.js', build.dist).href)).runImport;
    build.cpu = [];
  }
  const once = async (build) => {
    const before = process.cpuUsage();
    const report = await build.runImport({ client, agentId: 'bench', input: file, dryRun: true });
    const used = process.cpuUsage(before);
    if (report.created !== rows) throw new Error(`${build.name}: ${report.created} of ${rows} rows planned`);
    return (used.user + used.system) / 1e6;
  };
  for (const build of builds) await once(build); // warm-up
  for (let r = 0; r < rounds; r++) for (const build of builds) build.cpu.push(await once(build));
  for (const build of builds) {
    const sorted = [...build.cpu].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `${build.name}: ${rows} rows, CPU best ${sorted[0].toFixed(2)} s, median ${median.toFixed(2)} s ` +
        `(${Math.round(rows / median)} rows per CPU second; rounds ${build.cpu.map((s) => s.toFixed(2)).join(' ')})`,
    );
  }
  await client.close();
  await mock.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
