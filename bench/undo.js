// What recording an import's undo costs, on production's terms (issue 29): the real
// `contacts import FILE --agent bench -q` with its undo record (the default) and with `--no-undo`,
// taking turns, each against a fresh `contacts serve --mock --latency 80 --rate-limit 10` seeded
// with the same directory, server and importer pinned to separate cores. Prints each run's wall
// time and where it went (start-up, reads, local work, batches, exit, from the server's request
// log), the requests and 429s, and the ratio of the medians; then a small file into a large
// directory (the one-line note, created contacts only), and `contacts undo --yes` of a smaller
// import (all updates, then half updates and half new), checked field by field against the seed,
// with the undo's requests by method and where its time went.
// Usage: npm run build && node bench/undo.js [--rows 10000] [--rounds 3] [--only update,half,small,undo]
//        [--small-rows 50] [--small-dir 20000] [--undo-rows 1000] [--undo-kinds update,half]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureChild } from './lib/measure.js';
import { BIN, pinned, serve } from './lib/serve.js';

const KEY = 'bk_bench_undo_key';
const AGENT = 'bench';
/** The link: a service 80 ms away that answers 10 requests a second. */
const LINK = ['--latency', '80', '--rate-limit', '10'];
const NOTE = 'Recording only the contacts this import creates';
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    'small-rows': { type: 'string', default: '50' },
    'small-dir': { type: 'string', default: '20000' },
    'undo-rows': { type: 'string', default: '1000' },
    'undo-kinds': { type: 'string', default: 'update,half' },
    'server-cpu': { type: 'string', default: '0' },
    'client-cpu': { type: 'string', default: '1' },
  },
});
const rows = Number(values.rows);
const rounds = Number(values.rounds);
const smallRows = Number(values['small-rows']);
const smallDir = Number(values['small-dir']);
const undoRows = Number(values['undo-rows']);
const undoKinds = values['undo-kinds'].split(',');
const only = values.only?.split(',');
const want = (name) => !only || only.includes(name);
const dir = mkdtempSync(join(tmpdir(), 'contacts-undo-bench-'));
let runs = 0;

// ---- the directory and the files ------------------------------------------------------------

const phone = (i) => `+44207946${String(i % 10000).padStart(4, '0')}`;
/** The seeded contact `u<i>`, as the contract writes it. */
const seeded = (i) => ({
  external_id: `u${i}`,
  name: `Contact ${i}`,
  email: `contact${i}@example.com`,
  phonenumber: phone(i),
  custom_attributes: { plan: i % 2 ? 'pro' : 'free', seats: i % 50 },
});

/** A seed file (`serve --seed`) of contacts u1..u<count> with their two attributes defined. */
function writeSeed(count) {
  const file = join(dir, `seed-${count}.json`);
  const contacts = Array.from({ length: count }, (_, k) => seeded(k + 1));
  const attributes = [
    { name: 'plan', type: 'text' },
    { name: 'seats', type: 'number' },
  ];
  writeFileSync(file, JSON.stringify({ agents: { [AGENT]: { attributes, contacts } } }));
  return { file, count };
}

/**
 * A CSV whose rows update u<i> for each i of `updates` (a new name, both attributes, and every
 * tenth a new email) and create u<j> for each j of `creates`.
 */
function writeCsv(name, updates, creates) {
  const lines = ['External ID,Full Name,Email,Phone,plan,seats'];
  for (const i of updates) {
    const email = i % 10 === 0 ? `moved${i}@example.com` : `contact${i}@example.com`;
    lines.push(`u${i},Renamed ${i},${email},${phone(i)},${['team', 'pro', 'free'][i % 3]},${(i + 7) % 50}`);
  }
  for (const j of creates) lines.push(`u${j},New ${j},new${j}@example.com,${phone(j)},pro,${j % 50}`);
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, rows: lines.length - 1 };
}

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

// ---- one run --------------------------------------------------------------------------------

const MODES = { 'no-undo': ['--no-undo'], default: [], undoable: ['--undoable'] };

/** A fresh server seeded with `seed`, on the link. */
async function seededServer(seed) {
  return serve({
    cpu: values['server-cpu'],
    env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1' },
    key: KEY,
    flags: [...LINK, '--seed', seed.file, '--seed-agent', AGENT],
  });
}

/** A command of the CLI on the client's core, as a user types it, with a home of its own. */
async function cli(server, home, args) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CONTACTS_CONFIG_DIR: join(home, 'config'),
    CONTACTS_BASE_URL: server.url,
    CONTACTS_API_KEY: KEY,
    NO_COLOR: '1',
  };
  // The seed's own requests (none) and anything before are not the command's.
  server.reset();
  const t0 = performance.now();
  const started = process.hrtime.bigint();
  const child = pinned(values['client-cpu'], [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const measured = await measureChild(child, started);
  // Let the last log lines arrive.
  await new Promise((r) => setTimeout(r, 200));
  return { ...measured, stderr, t0, entries: [...server.entries], log: { ...server.log } };
}

/**
 * Where the import's wall time went, from the server's log: start-up (to the first request),
 * reads (to the end of the last GET before the first batch), local work (from there to the
 * first batch: the undo record's inserts, the first batch's rows), the batches (first POST sent
 * to last answered), and exit (the record closed, the process gone).
 */
function phases(r) {
  const at = (t) => (t - r.t0) / 1000;
  const posts = r.entries.filter((e) => e.method === 'POST');
  const firstPost = posts.length ? Math.min(...posts.map((e) => e.start)) : Number.POSITIVE_INFINITY;
  const reads = r.entries.filter((e) => e.method === 'GET' && e.start < firstPost);
  const first = r.entries.length ? at(Math.min(...r.entries.map((e) => e.start))) : 0;
  const readsEnd = reads.length ? at(Math.max(...reads.map((e) => e.end))) : first;
  const postStart = posts.length ? at(firstPost) : readsEnd;
  const postEnd = posts.length ? at(Math.max(...posts.map((e) => e.end))) : postStart;
  return {
    startup: first,
    reads: readsEnd - first,
    local: postStart - readsEnd,
    batches: postEnd - postStart,
    exit: r.seconds - postEnd,
    gets: r.entries.filter((e) => e.method === 'GET').length,
  };
}

async function importRun(seed, csv, mode, { quiet = true, extra = [] } = {}) {
  const server = await seededServer(seed);
  const home = join(dir, `home-${++runs}`);
  mkdirSync(home);
  try {
    const r = await cli(server, home, [
      'import',
      csv.file,
      '--agent',
      AGENT,
      '-o',
      'json',
      ...(quiet ? ['-q'] : []),
      ...MODES[mode],
      ...extra,
    ]);
    if (r.code !== 0) throw new Error(`import (${mode}) exited ${r.code}: ${r.stderr}${r.stdout}`);
    const summary = JSON.parse(r.stdout);
    if (summary.created + summary.updated !== csv.rows)
      throw new Error(`import (${mode}) landed ${summary.created + summary.updated} of ${csv.rows}`);
    return { mode, ...r, summary, phases: phases(r), server, home };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** One import, timed; its server stopped and its home removed. */
async function timedImport(seed, csv, mode, options) {
  const r = await importRun(seed, csv, mode, options);
  await r.server.stop();
  rmSync(r.home, { recursive: true, force: true });
  return r;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);

function showRun(r, label) {
  const p = r.phases;
  console.log(
    `  ${label.padEnd(10)} ${f2(r.seconds).padStart(6)} s  (importer ${f2(r.summary.duration_ms / 1000)} s, CPU ${f2(r.cpuSeconds)} s, ` +
      `RSS ${r.peakMb.toFixed(0)} MB)  requests ${r.log.requests} (GET ${p.gets}, POST ${r.log.posts}), 429s ${r.log.throttled}\n` +
      `  ${''.padEnd(10)} start-up ${f2(p.startup)}  reads ${f2(p.reads)}  local ${f2(p.local)}  batches ${f2(p.batches)}  exit ${f2(p.exit)} s`,
  );
}

/** Alternates the modes, the order turning each round, and reports each run and the medians. */
async function compare(title, seed, csv, modes, options) {
  console.log(`\n${title}`);
  const all = Object.fromEntries(modes.map((m) => [m, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? modes : [...modes].reverse();
    for (const mode of order) {
      const r = await timedImport(seed, csv, mode, options);
      all[mode].push(r);
      showRun(r, `${mode} ${round}`);
    }
  }
  const med = Object.fromEntries(modes.map((m) => [m, median(all[m].map((r) => r.seconds))]));
  for (const m of modes)
    console.log(`  ${m.padEnd(10)} median ${f2(med[m])} s  (${all[m].map((r) => f2(r.seconds)).join(', ')})`);
  for (const m of modes.filter((m) => m !== 'no-undo'))
    console.log(
      `  ${m} / no-undo = ${f2(med[m] / med['no-undo'])} (by round: ${all[m].map((r, k) => f2(r.seconds / all['no-undo'][k].seconds)).join(', ')})`,
    );
  return all;
}

// ---- the undo, checked against the seed ------------------------------------------------------

/** Every contact of the agent, a page of 1,000 at a time, waiting out the rate limit's 429s. */
async function listAll(url) {
  const contacts = [];
  for (let page = 1; ; page++) {
    for (;;) {
      const res = await fetch(`${url}/api/v1/chatbots/${AGENT}/contacts?per_page=1000&page=${page}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
        continue;
      }
      if (!res.ok) throw new Error(`list page ${page}: ${res.status} ${await res.text()}`);
      const body = await res.json();
      contacts.push(...body.data);
      if (page >= body.pages.total_pages) return contacts;
      break;
    }
  }
}

/** The contacts that differ from the seed (or are missing, or are not in it). */
function differences(contacts, count) {
  const differ = [];
  const byId = new Map(contacts.map((c) => [c.external_id, c]));
  for (let i = 1; i <= count; i++) {
    const want = seeded(i);
    const c = byId.get(want.external_id);
    byId.delete(want.external_id);
    const got = c && {
      external_id: c.external_id,
      name: c.name,
      email: c.email,
      phonenumber: c.phonenumber,
      custom_attributes: c.custom_attributes,
    };
    if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(want.external_id);
  }
  return [...differ, ...byId.keys()];
}

/**
 * The undo's requests by method, its GETs by kind (directory pages, contacts by id, the rest:
 * the attribute definitions), and where its time went from the server's log: start-up (to the
 * first request), reads (to the end of the last request before the first write: the plan's
 * reads, the attribute definitions, the first chunk read again), the writes (first DELETE, POST
 * or PATCH sent to the last answered, the later chunks' reading again inside), and exit.
 */
function undoRequests(r, agentPath) {
  const count = (method) => r.entries.filter((e) => e.method === method).length;
  const gets = r.entries.filter((e) => e.method === 'GET');
  const pages = gets.filter((e) => e.path === agentPath).length;
  const byId = gets.filter((e) => e.path.startsWith(`${agentPath}/`)).length;
  const writes = r.entries.filter((e) => e.method !== 'GET');
  const at = (t) => (t - r.t0) / 1000;
  const first = r.entries.length ? at(Math.min(...r.entries.map((e) => e.start))) : 0;
  const writeStart = writes.length ? Math.min(...writes.map((e) => e.start)) : Number.POSITIVE_INFINITY;
  const before = r.entries.filter((e) => e.start < writeStart);
  const readsEnd = before.length ? at(Math.max(...before.map((e) => e.end))) : first;
  const writesStart = writes.length ? at(writeStart) : readsEnd;
  const writesEnd = writes.length ? at(Math.max(...writes.map((e) => e.end))) : writesStart;
  const after = gets.filter((e) => e.start >= writeStart);
  return {
    line:
      `requests ${r.log.requests} (GET ${gets.length}: ${pages} pages, ${byId} by id, ${gets.length - pages - byId} other; ` +
      `DELETE ${count('DELETE')}, POST ${count('POST')}, PATCH ${count('PATCH')}), 429s ${r.log.throttled}; ` +
      `${f1(r.log.requests / r.seconds)} requests/s`,
    phases:
      `start-up ${f2(first)}  reads ${f2(readsEnd - first)} (${before.length} requests)  ` +
      `writes ${f2(writesEnd - writesStart)} (${writes.length} writes, ${after.length} GETs among them)  exit ${f2(r.seconds - writesEnd)} s`,
  };
}

/**
 * `contacts undo --yes` of an import into a directory of `undoRows`, then the directory checked
 * against the seed. `update`: every contact updated (the undo restores them all, batch upserts
 * of 1,000); `half`: half of them updated and as many new (the new deleted one request each).
 */
async function undoCase(kind) {
  const half = undoRows / 2;
  const seed = writeSeed(undoRows);
  const csv =
    kind === 'update'
      ? writeCsv('undo-update.csv', range(1, undoRows), [])
      : writeCsv('undo-half.csv', range(1, half), range(undoRows + 1, undoRows + half));
  console.log(
    kind === 'update'
      ? `\ncontacts undo --yes of an import of ${csv.rows} rows (all updates) into a directory of ${undoRows}`
      : `\ncontacts undo --yes of an import of ${csv.rows} rows (${half} updates, ${half} new) into a directory of ${undoRows}`,
  );
  const results = join(dir, `undo-${kind}-results.csv`);
  const imported = await importRun(seed, csv, 'default', { extra: ['--results', results] });
  try {
    showRun(imported, 'import');
    const undo = await cli(imported.server, imported.home, [
      'undo',
      results,
      '--agent',
      AGENT,
      '--yes',
      '-o',
      'json',
    ]);
    if (undo.code !== 0) throw new Error(`undo exited ${undo.code}: ${undo.stderr}${undo.stdout}`);
    const s = JSON.parse(undo.stdout);
    const req = undoRequests(undo, `/api/v1/chatbots/${AGENT}/contacts`);
    console.log(
      `  undo       ${f2(undo.seconds).padStart(6)} s  (CPU ${f2(undo.cpuSeconds)} s, RSS ${undo.peakMb.toFixed(0)} MB)  ` +
        `deleted ${s.deleted}, restored ${s.restored}, kept ${s.kept}, failed ${s.failed}\n` +
        `  ${''.padEnd(10)} ${req.line}\n` +
        `  ${''.padEnd(10)} ${req.phases}`,
    );
    const differ = differences(await listAll(imported.server.url), undoRows);
    console.log(
      differ.length
        ? `  after the undo, ${differ.length} contacts differ from the seed: ${differ.slice(0, 10).join(', ')}`
        : `  after the undo, the directory equals the seed, field for field (${undoRows} contacts)`,
    );
    if (differ.length) process.exitCode = 1;
  } finally {
    await imported.server.stop();
  }
}

// ---- the scenarios --------------------------------------------------------------------------

try {
  console.log(
    `node ${process.version}; serve --mock ${LINK.join(' ')}; server on CPU ${values['server-cpu']}, ` +
      `importer on CPU ${values['client-cpu']}; ${rounds} rounds, a fresh seeded server each run`,
  );
  const seed = want('update') || want('half') ? writeSeed(rows) : undefined;
  if (want('update')) {
    const csv = writeCsv('update.csv', range(1, rows), []);
    await compare(`${rows} rows updating every contact of a directory of ${rows}`, seed, csv, [
      'no-undo',
      'default',
    ]);
  }
  if (want('half')) {
    const half = rows / 2;
    const csv = writeCsv('half.csv', range(1, half), range(rows + 1, rows + half));
    await compare(`${rows} rows into a directory of ${rows}: ${half} updates, ${half} new`, seed, csv, [
      'no-undo',
      'default',
    ]);
  }
  if (want('small')) {
    const big = writeSeed(smallDir);
    const half = smallRows / 2;
    const csv = writeCsv('small.csv', range(1, half), range(smallDir + 1, smallDir + half));
    // Not quiet: the note is what this case checks.
    const all = await compare(
      `${smallRows} rows (${half} updates, ${half} new) into a directory of ${smallDir}`,
      big,
      csv,
      ['no-undo', 'default', 'undoable'],
      { quiet: false },
    );
    const notes = all.default.map((r) => r.stderr.split('\n').find((l) => l.startsWith(NOTE)));
    const unwanted = [...all['no-undo'], ...all.undoable].filter((r) => r.stderr.includes(NOTE)).length;
    console.log(
      notes.every(Boolean)
        ? `  the default run said, each time: ${notes[0]}`
        : `  the note was missing from ${notes.filter((n) => !n).length} of ${notes.length} default runs`,
    );
    if (unwanted) console.log(`  the note was said by ${unwanted} --no-undo or --undoable runs`);
    if (!notes.every(Boolean) || unwanted) process.exitCode = 1;
  }
  if (want('undo')) for (const kind of undoKinds) await undoCase(kind);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
