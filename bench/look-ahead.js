// The importer's look-ahead on a wide CSV whose date column never decides its order: a 100 MB,
// 44-column file, every date `3/4/2024`, imported with --dry-run against the mock in the same
// process. The import stops with the date-order error either way; what is measured is how much
// it held (peak RSS) and how long it read before it stopped.
// Usage: npm run build && node bench/look-ahead.js [--mb 100]
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '100' } } });
const dir = mkdtempSync(join(tmpdir(), 'bench-look-ahead-'));
const file = join(dir, 'wide.csv');
try {
  const out = createWriteStream(file);
  out.write(
    `${['external_id', 'name', 'joined', ...Array.from({ length: 41 }, (_, i) => `c${i}`)].join(',')}\n`,
  );
  const filler = Array.from({ length: 41 }, (_, k) => `value-${k}-${'y'.repeat(40)}`).join(',');
  let rows = 0;
  for (let bytes = 0; bytes < Number(values.mb) * 1024 * 1024; ) {
    rows++;
    const line = `u${rows},Name ${rows},3/4/2024,${filler}\n`;
    bytes += line.length;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));

  const { startMockServer } = await import('../dist/mock/server.js');
  const { ContactsClient } = await import('../dist/client/client.js');
  const { runImport } = await import('../dist/importer/pipeline.js');
  const mock = await startMockServer({ port: 0 });
  mock.store.defineAttribute('bench', { name: 'joined', type: 'date' });
  const client = new ContactsClient({ baseUrl: mock.url, apiKey: 'bk_bench_key', agentId: 'bench' });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  let outcome;
  try {
    const report = await runImport({ client, agentId: 'bench', input: file, dryRun: true });
    outcome = `imported ${report.rows} rows`;
  } catch (error) {
    outcome = `stopped: ${error.message.slice(0, 100)}...`;
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`${rows} rows, ${values.mb} MB: ${outcome}`);
  console.log(
    `peak RSS ${Math.round(peak / 1024 / 1024)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await client.close();
  await mock.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
