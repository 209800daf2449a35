// Start-up of the `contacts` binary beside bare `node -e 0`, measured by hyperfine in one run:
// `--version`, `--help`, and `get u1 -o json` against a running mock (`contacts serve --mock`
// pinned to CPU 0, every command to CPU 1). Each round runs every command through hyperfine
// (`-N`, warm-up runs first), the order reversed every other round so that a burst of other load
// falls on all of them alike; a median is over every round's runs. Peak RSS comes from GNU time
// (`%M`), the highest of five runs. With --compare, another checkout's build (its own
// bin/contacts.js, `npm ci && npm run build` there) runs in the same rounds against the same mock.
// With --floors, what the dependencies cost on their own, in the same rounds: Node importing
// zod, undici or commander through its public entry point, and one request to the mock over
// node:http (what the client sends with) and over undici (its answer printed, then exit).
// Usage: npm run build && node bench/startup.js [--runs 20] [--rounds 3] [--compare ../other] [--floors]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, HAS_TASKSET, serve } from './lib/serve.js';

const ROOT = dirname(dirname(BIN));

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '3' },
    compare: { type: 'string' },
    floors: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const ROUNDS = Number(args.rounds);
const KEY = 'bk_bench_startup_key';
const MOCK_CPU = '0';
const COMMAND_CPU = '1';
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

try {
  execFileSync('hyperfine', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('bench/startup.js needs hyperfine (Debian: apt-get install hyperfine)');
  process.exit(2);
}
const OTHER_BIN = args.compare ? join(resolve(args.compare), 'bin', 'contacts.js') : undefined;
if (OTHER_BIN && !existsSync(OTHER_BIN)) {
  console.error(`--compare: no ${OTHER_BIN}`);
  process.exit(2);
}

const home = mkdtempSync(join(tmpdir(), 'contacts-bench-startup-'));
const mock = await serve({ cpu: MOCK_CPU, env: { PATH: process.env.PATH }, key: KEY, flags: [] });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  CONTACTS_CONFIG_DIR: join(home, 'config'),
  CONTACTS_API_KEY: KEY,
  CONTACTS_BASE_URL: mock.url,
  CONTACTS_AGENT: 'bench',
};
const created = await fetch(`${mock.url}/api/v1/chatbots/bench/contacts`, {
  method: 'POST',
  headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
  body: JSON.stringify({ external_id: 'u1', name: 'Ada' }),
});
if (!created.ok) throw new Error(`seeding the mock: ${created.status} ${await created.text()}`);

const node = process.execPath;
const binCases = (bin, label) => [
  { name: `${label}--version`, argv: [node, bin, '--version'], expect: 'contacts version' },
  { name: `${label}--help`, argv: [node, bin, '--help'], expect: 'Usage: contacts' },
  {
    name: `${label}get u1 -o json`,
    argv: [node, bin, 'get', 'u1', '-o', 'json'],
    expect: '"external_id": "u1"',
  },
];
const REQUEST = `import('undici').then(async ({ Pool }) => {
  const res = await new Pool(process.env.CONTACTS_BASE_URL).request({
    method: 'GET',
    path: '/api/v1/chatbots/bench/contacts/u1',
    headers: { authorization: 'Bearer ' + process.env.CONTACTS_API_KEY },
  });
  process.stdout.write(await res.body.text());
  process.exit(0);
})`.replace(/\s*\n\s*/g, ' ');
const NODE_HTTP_REQUEST = `import('node:http').then(({ get }) => {
  get(process.env.CONTACTS_BASE_URL + '/api/v1/chatbots/bench/contacts/u1', {
    headers: { authorization: 'Bearer ' + process.env.CONTACTS_API_KEY },
  }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c) => { text += c; });
    res.on('end', () => { process.stdout.write(text); process.exit(0); });
  });
})`.replace(/\s*\n\s*/g, ' ');
const floorCases = [
  { name: 'floor: import zod', argv: [node, '-e', "import('zod')"], expect: '' },
  { name: 'floor: import undici', argv: [node, '-e', "import('undici')"], expect: '' },
  { name: 'floor: import commander', argv: [node, '-e', "import('commander')"], expect: '' },
  { name: 'floor: node:http request', argv: [node, '-e', NODE_HTTP_REQUEST], expect: '"external_id":"u1"' },
  { name: 'floor: undici request', argv: [node, '-e', REQUEST], expect: '"external_id":"u1"' },
];
const cases = [
  { name: 'node -e 0', argv: [node, '-e', '0'], expect: '' },
  ...binCases(BIN, 'contacts '),
  ...(OTHER_BIN ? binCases(OTHER_BIN, 'other: contacts ') : []),
  ...(args.floors ? floorCases : []),
];
// hyperfine -N splits a command as a POSIX shell would: quote what has spaces or quotes.
const quote = (arg) => (/^[\w./:=@-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

// Each command once, its output checked: a failing or wrong command would time something else.
for (const c of cases) {
  const out = execFileSync(c.argv[0], c.argv.slice(1), { cwd: ROOT, env, encoding: 'utf8' });
  if (!out.includes(c.expect)) throw new Error(`${c.argv.join(' ')} printed ${JSON.stringify(out)}`);
}

const pin = (argv) => (HAS_TASKSET ? ['taskset', '-c', COMMAND_CPU, ...argv] : argv);
const samples = new Map(cases.map((c) => [c.name, { times: [], cpu: [] }]));
const loads = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? cases : [...cases].reverse();
  const json = join(home, `round-${round}.json`);
  loads.push(loadavg()[0]);
  const [cmd, ...argv] = pin([
    'hyperfine',
    '-N',
    '--style',
    'none',
    '--warmup',
    args.warmup,
    '--runs',
    String(RUNS),
    '--export-json',
    json,
    ...order.flatMap((c) => ['--command-name', c.name, c.argv.map(quote).join(' ')]),
  ]);
  execFileSync(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (const r of JSON.parse(readFileSync(json, 'utf8')).results) {
    const s = samples.get(r.command);
    s.times.push(...r.times.map((t) => t * 1000));
    s.cpu.push((r.user + r.system) * 1000);
  }
}
loads.push(loadavg()[0]);

const peaks = new Map();
if (GNU_TIME) {
  for (const c of cases) {
    const kb = [];
    for (let i = 0; i < 5; i++) {
      const [cmd, ...argv] = pin([GNU_TIME, '-f', 'RSS_KB=%M', ...c.argv]);
      const { stderr, status } = spawnSync(cmd, argv, {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      if (status !== 0) throw new Error(`${c.argv.join(' ')} exited ${status}: ${stderr}`);
      kb.push(Number(/RSS_KB=(\d+)/.exec(stderr)?.[1]));
    }
    peaks.set(c.name, Math.max(...kb) / 1024);
  }
}
await mock.stop();
rmSync(home, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const base = median(samples.get(cases[0].name).times);
console.log(
  `start-up, node ${process.version}, ${ROUNDS} rounds x ${RUNS} runs (hyperfine -N, ${args.warmup} warm-up runs a round), ` +
    `mock on CPU ${MOCK_CPU}, commands on CPU ${COMMAND_CPU}; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
);
console.log(
  `${'command'.padEnd(36)}${'median ms'.padStart(10)}${'x node'.padStart(8)}${'CPU ms'.padStart(8)}${'peak MB'.padStart(9)}`,
);
for (const c of cases) {
  const { times, cpu } = samples.get(c.name);
  const mb = peaks.has(c.name) ? peaks.get(c.name).toFixed(1) : 'n/a';
  console.log(
    `${c.name.padEnd(36)}${median(times).toFixed(1).padStart(10)}${(median(times) / base).toFixed(2).padStart(8)}` +
      `${median(cpu).toFixed(0).padStart(8)}${mb.padStart(9)}`,
  );
}
