// The mock beside the servers a user would pick instead, in one run on this machine: json-server
// 0.17 (a stateful JSON-file REST mock) and Prism 5 (a stateless mock of our OpenAPI document).
// Each server runs alone on CPU 0 and wrk loads it from CPU 1 (10 connections, 5 s a workload);
// every workload starts on a fresh server. The peers are installed into a folder of their own
// (not the project's dependencies). Run `npm run build` first, then
//   node bench/peers.js [--rounds 1] [--duration 5] [--connections 10] [--peers-dir DIR] [--only mock,json-server,prism]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PEERS = { 'json-server': '0.17.4', '@stoplight/prism-cli': '5.14.2' };
const KEY = 'bk_bench_peers_key_0001';
const AGENT = 'bench';
const SEEDED = 5_000;
const SERVER_CPU = '0';
const LOAD_CPU = '1';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'peers-dir': { type: 'string', default: join(tmpdir(), 'contacts-cli-bench-peers') },
    only: { type: 'string', default: 'mock,json-server,prism' },
    rounds: { type: 'string', default: '1' },
  },
});
const only = new Set(args.only.split(','));
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`--rounds must be a whole number of at least 1, got ${args.rounds}`);
  process.exit(2);
}

for (const tool of ['wrk', 'taskset']) {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
  } catch {
    console.error(
      `bench/peers.js needs ${tool} (Debian: apt-get install ${tool === 'wrk' ? 'wrk' : 'util-linux'})`,
    );
    process.exit(2);
  }
}
if (!existsSync(join(ROOT, 'dist/openapi.json'))) {
  console.error('Run `npm run build` first: the mock and Prism both serve from dist/.');
  process.exit(2);
}

function installPeers(dir) {
  const ready = Object.entries(PEERS).every(([name, version]) => {
    const file = join(dir, 'node_modules', name, 'package.json');
    return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).version === version;
  });
  if (ready) return;
  console.error(
    `Installing ${Object.entries(PEERS)
      .map(([n, v]) => `${n}@${v}`)
      .join(' ')} into ${dir} ...`,
  );
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...Object.entries(PEERS).map(([n, v]) => `${n}@${v}`),
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

const contact = (id) => ({
  external_id: id,
  name: `Contact ${id}`,
  email: `${id}@example.com`,
  phonenumber: '+14155550132',
});

async function waitFor(url, headers = {}) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

function pinned(cmd, argv, opts = {}) {
  const child = spawn('taskset', ['-c', SERVER_CPU, cmd, ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...opts,
  });
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
  });
  child.output = () => err;
  return child;
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/** The port a child prints on its first stdout line that holds a URL. */
function urlFrom(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /http:\/\/[^\s]+:(\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${child.output()}`)));
  });
}

// ---- the servers: each returns { base, paths, stop } on a fresh state -----------------------------

async function startMock({ seeded, data }) {
  const dir = mkdtempSync(join(tmpdir(), 'peers-mock-'));
  const argv = [join(ROOT, 'bin/contacts.js'), 'serve', '--mock', '--port', '0', '--quiet'];
  argv.push(...(data ? ['--data', join(dir, 'mock.db')] : ['--in-memory']));
  const child = pinned(process.execPath, argv, {
    cwd: dir,
    env: { ...process.env, CONTACTS_CONFIG_DIR: dir },
  });
  const base = await urlFrom(child);
  const prefix = `/api/v1/chatbots/${AGENT}/contacts`;
  const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  for (let i = 0; i < seeded; i += 1000) {
    const users = Array.from({ length: Math.min(1000, seeded - i) }, (_, j) => contact(`seed-${i + j}`));
    const res = await fetch(`${base}${prefix}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ users }),
    });
    if (!res.ok) throw new Error(`seeding the mock: ${res.status} ${await res.text()}`);
  }
  return {
    base,
    headers: auth,
    one: `${prefix}/seed-1`,
    page: `${prefix}?page=2&per_page=100`,
    post: prefix,
    stop: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startJsonServer({ seeded }) {
  const dir = mkdtempSync(join(tmpdir(), 'peers-json-server-'));
  const contacts = Array.from({ length: seeded }, (_, i) => ({ id: `seed-${i}`, ...contact(`seed-${i}`) }));
  writeFileSync(join(dir, 'db.json'), JSON.stringify({ contacts }));
  const bin = join(args['peers-dir'], 'node_modules/json-server/lib/cli/bin.js');
  // json-server 0.17 takes no port 0: ask the system for a free one.
  const port = await freePort();
  const server = pinned(process.execPath, [bin, '--port', String(port), '--quiet', 'db.json'], { cwd: dir });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/contacts/seed-1`);
  return {
    base,
    headers: { 'content-type': 'application/json' },
    one: '/contacts/seed-1',
    page: '/contacts?_page=2&_limit=100',
    post: '/contacts',
    stop: async () => {
      await stop(server);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startPrism() {
  const port = await freePort();
  const bin = join(args['peers-dir'], 'node_modules/@stoplight/prism-cli/dist/index.js');
  const child = pinned(
    process.execPath,
    [bin, 'mock', '--port', String(port), '--host', '127.0.0.1', '--errors', join(ROOT, 'dist/openapi.json')],
    {
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  await waitFor(`${base}/api/v1/chatbots/${AGENT}/contacts/seed-1`, headers);
  const prefix = `/api/v1/chatbots/${AGENT}/contacts`;
  return {
    base,
    headers,
    one: `${prefix}/seed-1`,
    page: `${prefix}?page=2&per_page=100`,
    post: prefix,
    stop: () => stop(child),
  };
}

async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// ---- wrk --------------------------------------------------------------------------------------------

function luaScript(method, path, headers, unique) {
  const hdrs = Object.entries(headers)
    .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    .join('\n');
  const body = unique
    ? `counter = counter + 1
  local id = "w" .. counter
  return wrk.format("POST", ${JSON.stringify(path)}, nil, '{"external_id":"' .. id .. '","name":"Bench ' .. id .. '","email":"' .. id .. '@example.com","phonenumber":"+14155550132"}')`
    : `return wrk.format(${JSON.stringify(method)}, ${JSON.stringify(path)})`;
  return `${hdrs}
counter = 0
request = function()
  ${body}
end
`;
}

function wrk(base, method, path, headers, unique) {
  const dir = mkdtempSync(join(tmpdir(), 'peers-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, luaScript(method, path, headers, unique));
  try {
    const out = execFileSync(
      'taskset',
      ['-c', LOAD_CPU, 'wrk', '-t1', `-c${args.connections}`, `-d${args.duration}s`, '-s', script, base],
      { encoding: 'utf8' },
    );
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const bad = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
    const errors = /Socket errors:.*/.exec(out)?.[0];
    return { rps, bad, errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const WORKLOADS = [
  { name: 'GET one contact', seeded: SEEDED, run: (s) => wrk(s.base, 'GET', s.one, s.headers, false) },
  { name: 'GET a page of 100', seeded: SEEDED, run: (s) => wrk(s.base, 'GET', s.page, s.headers, false) },
  { name: 'POST create', seeded: 0, run: (s) => wrk(s.base, 'POST', s.post, s.headers, true) },
  {
    name: `POST after ${SEEDED / 1000}k stored`,
    seeded: SEEDED,
    run: (s) => wrk(s.base, 'POST', s.post, s.headers, true),
  },
  {
    name: 'POST create, --data (SQLite)',
    seeded: 0,
    data: true,
    against: 'POST create',
    run: (s) => wrk(s.base, 'POST', s.post, s.headers, true),
  },
];

const SERVERS = [
  { name: 'mock', start: startMock },
  { name: 'json-server', start: startJsonServer, skipData: true },
  { name: 'prism', start: startPrism, skipData: true },
].filter((s) => only.has(s.name));

if (SERVERS.some((s) => s.name !== 'mock')) installPeers(args['peers-dir']);

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const loadAtStart = load();
const rows = WORKLOADS.map((w) => ({ workload: w.name, against: w.against, runs: {} }));
let failed = false;
// Round after round over every workload and server, so a burst of other load falls on each
// side alike; a cell's figure is its best round, the one least disturbed.
for (let round = 1; round <= rounds; round++) {
  for (const [i, w] of WORKLOADS.entries()) {
    const row = rows[i];
    for (const server of SERVERS) {
      if (w.data && server.skipData) continue;
      const s = await server.start({ seeded: w.seeded, data: w.data });
      try {
        const r = w.run(s);
        row.runs[server.name] = [...(row.runs[server.name] ?? []), r.rps];
        row[server.name] = Math.max(row[server.name] ?? 0, r.rps);
        if (r.bad || r.errors) {
          // Prism answers examples and may refuse a request; json-server has no such checks.
          console.error(`${server.name}, ${w.name}: ${r.bad} non-2xx answers ${r.errors ?? ''}`);
          if (server.name === 'mock') failed = true;
        }
      } finally {
        await s.stop();
      }
    }
  }
}

const fmt = (n) => (n === undefined ? '-' : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0));
console.log(
  `wrk -t1 -c${args.connections} -d${args.duration}s, server on CPU ${SERVER_CPU}, wrk on CPU ${LOAD_CPU}; req/s${rounds > 1 ? `, best of ${rounds} rounds` : ''}; Node ${process.version}`,
);
console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${load()} at the end`);
console.log(
  ['workload'.padEnd(32), ...SERVERS.map((s) => s.name.padStart(12)), '  mock / best peer'].join(''),
);
for (const row of rows) {
  // The --data row has no peer figures of its own: it is set beside the peers' POST create.
  const against = row.against ? rows.find((r) => r.workload === row.against) : row;
  const peers = SERVERS.filter((s) => s.name !== 'mock' && against?.[s.name] !== undefined).map(
    (s) => against[s.name],
  );
  const ratio =
    row.mock !== undefined && peers.length
      ? `${(row.mock / Math.max(...peers)).toFixed(1)}x${row.against ? ` (of the peers' ${row.against})` : ''}`
      : '';
  console.log(
    [row.workload.padEnd(32), ...SERVERS.map((s) => fmt(row[s.name]).padStart(12)), `  ${ratio}`].join(''),
  );
}
if (rounds > 1) {
  console.log('every round, in order:');
  for (const row of rows) {
    const runs = SERVERS.filter((s) => row.runs[s.name]).map(
      (s) => `${s.name} ${row.runs[s.name].map(fmt).join(', ')}`,
    );
    console.log(`  ${row.workload}: ${runs.join('; ')}`);
  }
}
if (failed) {
  console.error('The mock answered non-2xx: the figures compare different work.');
  process.exit(1);
}
