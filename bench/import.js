// Import throughput and memory: a 100,000-row CSV imported into a local mock by the real
// `contacts import`, beside the mock's own upsert capacity (autocannon, same concurrency) in
// the same run; then peak RSS of the importer for a 1,000,000-row file. With --compare DIR, the
// importer of another built checkout (DIR/bin/contacts.js) and this one's take turns against the
// same mock, --rounds times each way (rows/s, CPU and peak RSS), importer and mock pinned to
// separate CPUs where taskset is.
// Usage: npm run build && node bench/import.js [--rows 100000] [--big 1000000] [--concurrency 8]
//        node bench/import.js --compare ../other-checkout [--rounds 5] [--rows 100000]
import { execFileSync, fork, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureChild } from './lib/measure.js';
import { ask } from './lib/worker.js';

const KEY = 'bk_bench_key';
const BIN = fileURLToPath(new URL('../bin/contacts.js', import.meta.url));
// The mock on CPU 0 and the importer on CPU 1, so neither takes the other's core.
const PIN = existsSync('/usr/bin/taskset') && availableParallelism() >= 2;

// ---- child: the mock, in its own process so it never shares an event loop with the load -------

async function child() {
  const { startMockServer } = await import('../dist/mock/server.js');
  const mock = await startMockServer({ port: 0 });
  const defineAttributes = (agent) => {
    mock.store.defineAttribute(agent, { name: 'plan', type: 'text' });
    mock.store.defineAttribute(agent, { name: 'seats', type: 'number' });
  };
  process.on('message', (msg) => {
    if (msg.type === 'agent') {
      // Every phase starts from an empty mock: contacts left by the previous one would make it
      // slower (bigger maps, more GC) and tilt the comparison.
      mock.reset();
      defineAttributes(msg.agent);
      process.send({ type: 'ready' });
    } else if (msg.type === 'count') {
      process.send({ type: 'count', count: mock.store.contacts(msg.agent).length });
    }
  });
  process.send({ type: 'url', url: mock.url });
}

// ---- parent -----------------------------------------------------------------------------------

function row(i) {
  return `u${i},Contact ${i},contact${i}@example.com,+44 20 7946 ${String(i % 10000).padStart(4, '0')},${i % 2 ? 'pro' : 'free'},${i % 50}\n`;
}

async function writeCsv(file, rows) {
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? undefined : new Promise((r) => out.once('drain', r)));
  await write('External ID,Full Name,Email,Phone,plan,seats\n');
  for (let i = 1; i <= rows; i++) await write(row(i));
  await new Promise((r) => out.end(r));
}

/** Runs `contacts import`: wall time, peak RSS (VmHWM) and the summary it prints. */
async function importRun(file, agent, url, extra, bin = BIN) {
  const started = process.hrtime.bigint();
  const argv = [bin, 'import', file, '--agent', agent, '-o', 'json', '-q', ...extra];
  const child = spawn(
    PIN ? 'taskset' : process.execPath,
    PIN ? ['-c', '1', process.execPath, ...argv] : argv,
    {
      env: { PATH: process.env.PATH, HOME: tmpdir(), CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: url },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const { code, seconds, stdout, peakMb, cpuSeconds } = await measureChild(child, started);
  if (code !== 0) throw new Error(`import exited ${code}: ${stdout}`);
  return { seconds, peakMb, cpuSeconds, summary: JSON.parse(stdout) };
}

async function mockCapacity(url, agent, connections, duration) {
  const { default: autocannon } = await import('autocannon');
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: `/api/v1/chatbots/${agent}/contacts`,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        setupRequest: (req) => {
          const i = ++n;
          const body = {
            external_id: `u${i}`,
            name: `Contact ${i}`,
            email: `contact${i}@example.com`,
            phonenumber: '+44 20 7946 0958',
            custom_attributes: { plan: 'pro', seats: String(i % 50) },
          };
          return { ...req, body: JSON.stringify(body) };
        },
      },
    ],
  });
  return result.requests.average;
}

async function parent() {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' },
      big: { type: 'string', default: '1000000' },
      concurrency: { type: 'string', default: '8' },
      duration: { type: 'string', default: '5' },
      compare: { type: 'string' },
      rounds: { type: 'string', default: '5' },
    },
  });
  const rows = Number(values.rows);
  const big = Number(values.big);
  const concurrency = Number(values.concurrency);
  const dir = mkdtempSync(join(tmpdir(), 'contacts-import-bench-'));
  const worker = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: 'inherit' });
  // -a: every thread of the mock's process, whenever Node started it.
  if (PIN) execFileSync('taskset', ['-a', '-cp', '0', String(worker.pid)], { stdio: 'ignore' });
  try {
    const { url } = await new Promise((resolve) => worker.once('message', resolve));
    const file = join(dir, 'contacts.csv');
    await writeCsv(file, rows);
    if (values.compare) {
      await compare(worker, url, file, rows, concurrency, values.compare, Number(values.rounds));
      return;
    }

    await ask(worker, { type: 'agent', agent: 'capacity' }, 'ready');
    const capacity = await mockCapacity(url, 'capacity', concurrency, Number(values.duration));

    await ask(worker, { type: 'agent', agent: 'single' }, 'ready');
    const single = await importRun(file, 'single', url, ['--concurrency', String(concurrency)]);
    const landedSingle = (await ask(worker, { type: 'count', agent: 'single' }, 'count')).count;

    await ask(worker, { type: 'agent', agent: 'batch' }, 'ready');
    const batch = await importRun(file, 'batch', url, [
      '--concurrency',
      String(concurrency),
      '--batch-size',
      '500',
    ]);
    const landedBatch = (await ask(worker, { type: 'count', agent: 'batch' }, 'count')).count;

    console.log(
      `import of a ${rows}-row CSV into the local mock, concurrency ${concurrency}, node ${process.version}`,
    );
    console.log(
      `mock upsert capacity (autocannon, ${concurrency} connections): ${Math.round(capacity)} req/s`,
    );
    const line = (name, r, landed) =>
      console.log(
        `${name.padEnd(22)} ${(rows / r.seconds).toFixed(0).padStart(7)} rows/s  ${r.seconds.toFixed(1).padStart(6)} s  ` +
          `${(rows / r.seconds / capacity).toFixed(2)}x capacity  peak RSS ${r.peakMb.toFixed(0)} MB  landed ${landed}/${rows}`,
      );
    line('single rows', single, landedSingle);
    line('batches of 500', batch, landedBatch);

    if (big > 0) {
      const bigFile = join(dir, 'big.csv');
      await writeCsv(bigFile, big);
      await ask(worker, { type: 'agent', agent: 'big' }, 'ready');
      const r = await importRun(bigFile, 'big', url, [
        '--concurrency',
        String(concurrency),
        '--batch-size',
        '1000',
      ]);
      const landed = (await ask(worker, { type: 'count', agent: 'big' }, 'count')).count;
      console.log(
        `${big}-row CSV (batches of 1000): ${(big / r.seconds).toFixed(0)} rows/s, ${r.seconds.toFixed(1)} s, ` +
          `peak RSS ${r.peakMb.toFixed(0)} MB, landed ${landed}/${big}`,
      );
    }
  } finally {
    worker.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two importers, the same mock: each mode alternates this build and the other, round by round. */
async function compare(worker, url, file, rows, concurrency, otherDir, rounds) {
  const other = join(otherDir, 'bin', 'contacts.js');
  if (!existsSync(other)) throw new Error(`--compare: no ${other} (build that checkout first)`);
  const modes = [
    ['single rows', ['--concurrency', String(concurrency)]],
    ['batches of 500', ['--concurrency', String(concurrency), '--batch-size', '500']],
  ];
  const median = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  console.log(
    `${rows}-row CSV, concurrency ${concurrency}, ${rounds} rounds, node ${process.version}` +
      `${PIN ? ', mock on CPU 0, importer on CPU 1' : ''}`,
  );
  for (const [mode, extra] of modes) {
    const figures = { this: [], other: [] };
    const cpu = { this: [], other: [] };
    const peak = { this: [], other: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always meets a warmer machine.
      const order = round % 2 ? ['other', 'this'] : ['this', 'other'];
      for (const who of order) {
        const agent = `${who}-${round}-${mode.length}`;
        await ask(worker, { type: 'agent', agent }, 'ready');
        const r = await importRun(file, agent, url, extra, who === 'this' ? BIN : other);
        const landed = (await ask(worker, { type: 'count', agent }, 'count')).count;
        if (landed !== rows) throw new Error(`${who} landed ${landed} of ${rows}`);
        figures[who].push(rows / r.seconds);
        cpu[who].push(r.cpuSeconds);
        peak[who].push(r.peakMb);
      }
    }
    const a = median(figures.this);
    const b = median(figures.other);
    const runs = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
    console.log(`${mode}: this   ${runs(figures.this)} rows/s, median ${a.toFixed(0)}`);
    console.log(`${mode}: other  ${runs(figures.other)} rows/s, median ${b.toFixed(0)}`);
    console.log(`${mode}: this / other = ${(a / b).toFixed(3)}`);
    // The importer's own cost, whether or not the mock is what bounds the rows/s.
    const secs = (xs) => xs.map((x) => x.toFixed(2)).join(' ');
    console.log(
      `${mode}: importer CPU s, this ${secs(cpu.this)} (median ${median(cpu.this).toFixed(2)}), ` +
        `other ${secs(cpu.other)} (median ${median(cpu.other).toFixed(2)})`,
    );
    const mbs = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
    console.log(
      `${mode}: peak RSS MB, this ${mbs(peak.this)} (median ${median(peak.this).toFixed(0)}), ` +
        `other ${mbs(peak.other)} (median ${median(peak.other).toFixed(0)})`,
    );
  }
}

if (process.argv.includes('--child')) await child();
else await parent();
