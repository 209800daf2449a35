// Start-up time of the `contacts` binary beside bare `node -e ""`, measured in the same run,
// interleaved so that machine noise falls on every case alike.
// The guard rails (bench/README.md): `get` against a running mock at most 150 ms and 4x bare
// Node; `--version` at most 1.5x bare Node.
// Usage: npm run build && node bench/startup.js [--runs 30]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockServer } from '../dist/mock/server.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '30' } },
});
const RUNS = Number(values.runs);
const WARMUP = 3;
const BIN = fileURLToPath(new URL('../bin/contacts.js', import.meta.url));

const home = mkdtempSync(join(tmpdir(), 'contacts-bench-'));
const mock = await startMockServer({ port: 0 });
await fetch(`${mock.url}/api/v1/chatbots/bench/contacts`, {
  method: 'POST',
  headers: { authorization: 'Bearer bk_bench_key', 'content-type': 'application/json' },
  body: JSON.stringify({ external_id: 'u1', name: 'Ada' }),
});
const env = {
  PATH: process.env.PATH,
  HOME: home,
  CONTACTS_CONFIG_DIR: join(home, 'config'),
  CONTACTS_API_KEY: 'bk_bench_key',
  CONTACTS_BASE_URL: mock.url,
  CONTACTS_AGENT: 'bench',
};

const cases = [
  { name: 'node -e ""', args: ['-e', ''] },
  { name: 'contacts --version', args: [BIN, '--version'] },
  { name: 'contacts --help', args: [BIN, '--help'] },
  { name: 'contacts get u1 -o json', args: [BIN, 'get', 'u1', '-o', 'json'] },
];

// Peak RSS comes from GNU time where the machine has it (`%M`, kilobytes): Node cannot read a
// child's peak itself. Timing is taken without it, so its own start-up does not count.
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function runOnce(args, measureMemory) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const [cmd, argv] = measureMemory
      ? [GNU_TIME, ['-f', 'RSS_KB=%M', process.execPath, ...args]]
      : [process.execPath, args];
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const kb = Number(/RSS_KB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      resolve({ ms, mb: kb / 1024 });
    });
  });
}

const samples = new Map(cases.map((c) => [c.name, []]));
const peaks = new Map(cases.map((c) => [c.name, []]));
for (let i = 0; i < WARMUP + RUNS; i++) {
  for (const c of cases) {
    const { ms } = await runOnce(c.args, false);
    if (i >= WARMUP) samples.get(c.name).push(ms);
  }
}
if (GNU_TIME) {
  for (let i = 0; i < 5; i++) for (const c of cases) peaks.get(c.name).push((await runOnce(c.args, true)).mb);
}
await mock.close();
rmSync(home, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const base = median(samples.get(cases[0].name));
console.log(`start-up time, ${RUNS} runs each (after ${WARMUP} warm-up), node ${process.version}`);
console.log(
  `${'command'.padEnd(26)}${'median ms'.padStart(10)}${'p90 ms'.padStart(9)}${'x node'.padStart(9)}${'peak MB'.padStart(10)}`,
);
for (const c of cases) {
  const xs = samples.get(c.name);
  const mb = peaks.get(c.name).length ? Math.max(...peaks.get(c.name)).toFixed(1) : 'n/a';
  console.log(
    `${c.name.padEnd(26)}${median(xs).toFixed(1).padStart(10)}${p90(xs).toFixed(1).padStart(9)}${(median(xs) / base).toFixed(2).padStart(9)}${mb.padStart(10)}`,
  );
}
