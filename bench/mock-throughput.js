// Throughput of the mock server beside a minimal node:http baseline, for an upsert POST and a
// list GET. The servers run in a child process so that autocannon does not share their event
// loop. Run `npm run build` first, then `node bench/mock-throughput.js [--duration S] [--rounds N]
// [--connections N] [--only upsert|list]`.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const AGENT_UPSERT = 'bench-upsert';
const AGENT_LIST = 'bench-list';
const KEY = 'bk_bench_key';
const SEEDED = 1000;
const DISTINCT_IDS = 5000;

const pct = (x) => `${(x * 100).toFixed(0)}%`;

function contactBody(n) {
  return {
    external_id: `ext-${n}`,
    name: `Contact ${n}`,
    email: `contact${n}@example.com`,
    phonenumber: '+44 20 7946 0958',
    custom_attributes: { plan: n % 2 ? 'pro' : 'free', score: n % 100, vip: n % 3 === 0 },
  };
}

// ---- child: the two servers -------------------------------------------------------------------

async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

/** What a hand-written server does at the least: read the body, parse it, answer JSON. */
function startBaseline(listPage) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let payload = listPage;
      let status = 200;
      if (req.method === 'POST') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        status = 201;
        payload = JSON.stringify({ message: 'Success', data: { id: 'ct_1', external_id: body.external_id } });
      }
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      });
      res.end(payload);
    });
  });
  return listen(server);
}

async function child() {
  const { startMockServer } = await import('../dist/mock/server.js');
  const mock = await startMockServer({ port: 0 });
  const { store } = mock;
  for (const [name, type] of [
    ['plan', 'text'],
    ['score', 'number'],
    ['vip', 'boolean'],
  ]) {
    store.defineAttribute(AGENT_UPSERT, { name, type });
    store.defineAttribute(AGENT_LIST, { name, type });
  }
  const users = Array.from({ length: SEEDED }, (_, i) => contactBody(i));
  store.batchUpsert(AGENT_LIST, { users });
  const page = store.listContacts(AGENT_LIST, { page: 2, per_page: 100 });
  const listPage = JSON.stringify({ message: 'Success', ...page });
  const baseline = await startBaseline(listPage);
  // CPU time used by this process between two asks: the servers' cost per request, which other
  // load on the machine disturbs far less than it disturbs throughput.
  let last = process.cpuUsage();
  process.on('message', () => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    process.send({ cpuMicros: used.user + used.system });
  });
  process.send({ mock: mock.url, baseline });
}

// ---- parent: the load -------------------------------------------------------------------------

async function parent() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '2' },
      connections: { type: 'string', default: '20' },
      only: { type: 'string' },
    },
  });
  const duration = Number(values.duration);
  const rounds = Number(values.rounds);
  const connections = Number(values.connections);
  const { default: autocannon } = await import('autocannon');

  const worker = fork(new URL(import.meta.url).pathname, ['--child'], { stdio: 'inherit' });
  const urls = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('exit', (code) => reject(new Error(`server process exited (${code})`)));
  });
  const serverCpu = () =>
    new Promise((resolve) => {
      worker.once('message', (m) => resolve(m.cpuMicros));
      worker.send('cpu');
    });

  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  let n = 0;
  const scenarios = {
    'upsert POST': (url) => ({
      url,
      requests: [
        {
          method: 'POST',
          path: `/api/v1/chatbots/${AGENT_UPSERT}/contacts`,
          headers,
          // A rolling external_id: the first pass creates, later passes update (a new name each pass).
          setupRequest: (req) => {
            const i = n++;
            const body = contactBody(i % DISTINCT_IDS);
            body.name = `Contact ${i % DISTINCT_IDS} pass ${Math.floor(i / DISTINCT_IDS)}`;
            return { ...req, body: JSON.stringify(body) };
          },
        },
      ],
    }),
    'list GET (per_page=100)': (url) => ({
      url: `${url}/api/v1/chatbots/${AGENT_LIST}/contacts?page=2&per_page=100`,
      headers: { authorization: `Bearer ${KEY}` },
    }),
  };

  const run = async (opts) => {
    await serverCpu();
    const result = await autocannon({ connections, duration, pipelining: 1, ...opts });
    result.cpuPerRequest = (await serverCpu()) / Math.max(1, result.requests.total);
    return result;
  };
  const best = (results) => results.reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
  const rows = [];
  for (const [name, build] of Object.entries(scenarios)) {
    if (values.only && !name.includes(values.only)) continue;
    // Warm both servers (and autocannon) up, then alternate them so that noise from other
    // processes on the machine falls on both; the best round of each is reported.
    await run({ ...build(urls.baseline), duration: 1 });
    await run({ ...build(urls.mock), duration: 1 });
    const base = [];
    const mock = [];
    for (let r = 0; r < rounds; r++) {
      base.push(await run(build(urls.baseline)));
      mock.push(await run(build(urls.mock)));
    }
    rows.push({ name, base: best(base), mock: best(mock), all: [...base, ...mock] });
  }
  worker.kill();

  const fmt = (r) =>
    `${Math.round(r.requests.average).toString().padStart(7)} req/s  p99 ${String(r.latency.p99).padStart(2)} ms  ` +
    `${r.cpuPerRequest.toFixed(0).padStart(3)} µs CPU/req`;
  console.log(
    `\nMock vs node:http baseline: ${connections} connections, best of ${rounds} rounds of ${duration}s, Node ${process.version}\n`,
  );
  console.log(
    `${'scenario'.padEnd(25)}${'baseline'.padEnd(42)}${'mock'.padEnd(42)}mock/baseline: throughput, CPU efficiency`,
  );
  for (const { name, base, mock } of rows) {
    const ratio = mock.requests.average / base.requests.average;
    const efficiency = base.cpuPerRequest / mock.cpuPerRequest;
    const flag = ratio < 0.7 ? '  (throughput below the 70% aim)' : '';
    console.log(
      `${name.padEnd(25)}${fmt(base).padEnd(42)}${fmt(mock).padEnd(42)}${pct(ratio)}, ${pct(efficiency)}${flag}`,
    );
  }
  const failed = rows.flatMap((r) => r.all).filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failed.length > 0) {
    console.error('\nSome requests failed (non-2xx or errors): the figures are not comparable.');
    process.exitCode = 1;
  }
}

if (process.argv.includes('--child')) await child();
else await parent();
