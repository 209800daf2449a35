// The default import on production's terms: the real `contacts import` (no tuning flags) against
// a real `contacts serve --mock` process with a link's latency and a rate limit, server and client
// pinned to separate cores. Prints rows/s, the share of the ceiling (rate x rows per request),
// the 80 ms / 0 ms ratio, the 429s and the requests used; then 20 refused rows in 10,000, and the
// peak RSS of a 1,000,000-row import.
// Usage: npm run build && node bench/import-link.js [--rows 50000] [--big 1000000] [--only name,...]
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureChild } from './lib/measure.js';
import { BIN, pinned, serve as serveMock } from './lib/serve.js';

const KEY = 'bk_bench_link_key';
const BATCH = 1000;
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '50000' },
    big: { type: 'string', default: '1000000' },
    only: { type: 'string' },
    'server-cpu': { type: 'string', default: '0' },
    'client-cpu': { type: 'string', default: '1' },
  },
});
const rows = Number(values.rows);
const big = Number(values.big);
const only = values.only?.split(',');
const dir = mkdtempSync(join(tmpdir(), 'contacts-link-bench-'));
const env = { PATH: process.env.PATH, HOME: dir, CONTACTS_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };

/** `contacts serve --mock` with the given flags, on the server's core. */
const serve = (flags) => serveMock({ cpu: values['server-cpu'], env, key: KEY, flags });

async function api(url, method, path, body) {
  const res = await fetch(`${url}/api/v1/chatbots/bench${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

async function writeCsv(file, count, email = (i) => `contact${i}@example.com`) {
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? undefined : new Promise((r) => out.once('drain', r)));
  await write('External ID,Full Name,Email,Phone,plan,seats\n');
  for (let i = 1; i <= count; i++) {
    await write(
      `u${i},Contact ${i},${email(i)},+44 20 7946 ${String(i % 10000).padStart(4, '0')},${i % 2 ? 'pro' : 'free'},${i % 50}\n`,
    );
  }
  await new Promise((r) => out.end(r));
}

/** The default import, as a user types it; wall time and peak RSS (VmHWM) of the process. */
async function importRun(url, file) {
  const started = process.hrtime.bigint();
  const child = pinned(values['client-cpu'], [BIN, 'import', file, '--agent', 'bench', '-o', 'json', '-q'], {
    env: { ...env, CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { code, seconds, stdout, peakMb } = await measureChild(child, started);
  if (code !== 0 && code !== 8) throw new Error(`import exited ${code}: ${stdout}`);
  return { seconds, peakMb, summary: JSON.parse(stdout), code };
}

async function scenario(name, flags, file, count, setup) {
  const server = await serve(flags);
  try {
    await api(server.url, 'POST', '/custom-attributes', { name: 'plan', type: 'text' });
    await api(server.url, 'POST', '/custom-attributes', { name: 'seats', type: 'number' });
    await setup?.(server.url);
    // The setup's own log lines are not the import's.
    await new Promise((r) => setTimeout(r, 200));
    server.reset();
    const run = await importRun(server.url, file);
    // Let the last log lines arrive.
    await new Promise((r) => setTimeout(r, 200));
    return { name, flags, count, ...run, log: { ...server.log } };
  } finally {
    await server.stop();
  }
}

const show = (r, ceiling) => {
  const rate = r.count / r.seconds;
  const s = r.summary;
  const share = ceiling ? `  ${(rate / ceiling).toFixed(2)} of ceiling ${ceiling}` : '';
  const throttled = r.log.requests ? ((100 * r.log.throttled) / r.log.requests).toFixed(1) : '0.0';
  console.log(
    `${r.name.padEnd(34)} ${rate.toFixed(0).padStart(6)} rows/s  ${r.seconds.toFixed(1).padStart(5)} s${share}` +
      ` (the importer's own figure, from its start: ${s.rows_per_second} rows/s)\n` +
      `${''.padEnd(34)} requests ${r.log.requests} (POST ${r.log.posts}), 429s ${r.log.throttled} (${throttled}%), ` +
      `client counted ${s.requests} / ${s.rate_limited}; landed ${s.created + s.updated}, rejected ${s.rejected}; peak RSS ${r.peakMb.toFixed(0)} MB`,
  );
  return rate;
};

const want = (name) => !only || only.includes(name);
try {
  console.log(
    `node ${process.version}; server on CPU ${values['server-cpu']}, client on CPU ${values['client-cpu']}`,
  );
  const file = join(dir, 'contacts.csv');
  await writeCsv(file, rows);
  const rates = {};
  if (want('limited')) {
    const r = await scenario(
      '--latency 80 --rate-limit 10',
      ['--latency', '80', '--rate-limit', '10'],
      file,
      rows,
    );
    rates.limited = show(r, 10 * BATCH);
  }
  if (want('production')) {
    // Production's own limit, 100 requests per 10 s: a file of fewer than 100 batches fits in one
    // window, so this one is three times the size.
    const prodFile = join(dir, 'production.csv');
    await writeCsv(prodFile, 3 * rows);
    const r = await scenario(
      '--latency 80 --rate-limit 100 --rate-window 10',
      ['--latency', '80', '--rate-limit', '100', '--rate-window', '10'],
      prodFile,
      3 * rows,
    );
    rates.production = show(r, 10 * BATCH);
  }
  if (want('latency')) rates.latency = show(await scenario('--latency 80', ['--latency', '80'], file, rows));
  if (want('loopback')) rates.loopback = show(await scenario('--latency 0', ['--latency', '0'], file, rows));
  if (rates.latency && rates.loopback) {
    console.log(`rows/s at 80 ms over rows/s at 0 ms: ${(rates.latency / rates.loopback).toFixed(2)}`);
  }

  if (want('refused')) {
    // Twenty emails the directory already holds: the service refuses the rows that take them (409,
    // naming each row), which no local check can know.
    const refusedFile = join(dir, 'refused.csv');
    const taken = (i) =>
      i % 500 === 7 ? `taken${Math.floor(i / 500)}@example.com` : `contact${i}@example.com`;
    await writeCsv(refusedFile, 10_000, taken);
    const r = await scenario(
      '20 refused in 10,000 (--latency 80)',
      ['--latency', '80'],
      refusedFile,
      10_000,
      (url) =>
        api(url, 'POST', '/contacts', {
          users: Array.from({ length: 20 }, (_, i) => ({
            external_id: `holder${i}`,
            email: `taken${i}@example.com`,
          })),
        }),
    );
    show(r);
  }

  if (want('big') && big > 0) {
    const bigFile = join(dir, 'big.csv');
    await writeCsv(bigFile, big);
    show(await scenario(`${big}-row CSV (--latency 0)`, ['--latency', '0'], bigFile, big));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
