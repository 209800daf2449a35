// Start-up time of the `contacts` binary beside bare `node -e ""`, measured in the same run,
// interleaved so that machine noise falls on every case alike.
// With --floors, also the floor of the stack: the same request from a bundle of only commander
// and node:http, then commander and undici's parts the client uses, then those and zod.
// Usage: npm run build && node bench/startup.js [--runs 30] [--floors]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'rolldown';
import { startMockServer } from '../dist/mock/server.js';
import { lazyRequires } from '../rolldown.config.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '30' }, floors: { type: 'boolean', default: false } },
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
  ...(values.floors ? await floors() : []),
];

/**
 * The least a `get` can cost on each stack: a bundle of one commander command that sends the
 * request, reads the JSON answer and prints the contact, built as the binary is (rolldown, the
 * same lazy requires) and, where undici parses, with the WebAssembly flag main() sets. Built
 * under node_modules so that the packages resolve.
 */
async function floors() {
  const dir = join(fileURLToPath(new URL('../node_modules/.cache/', import.meta.url)), 'startup-floors');
  mkdirSync(dir, { recursive: true });
  const command = (send, parse = 'JSON.parse(text)') => `
import { Command } from 'commander';
${send.imports}
const program = new Command('contacts');
program.command('get <id>').option('-o, --output <format>').action(async (id) => {
  const url = new URL(\`/api/v1/chatbots/\${process.env.CONTACTS_AGENT}/contacts/\${id}\`, process.env.CONTACTS_BASE_URL);
  const headers = { authorization: \`Bearer \${process.env.CONTACTS_API_KEY}\`, accept: 'application/json' };
  const text = await (${send.code});
  process.stdout.write(\`\${JSON.stringify(${parse}.data, null, 2)}\\n\`);
});
await program.parseAsync();
`;
  const nodeHttp = {
    imports: "import { request } from 'node:http';",
    code: `new Promise((resolve, reject) => {
      request(url, { headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c) => { text += c; }).on('end', () => resolve(text));
      }).on('error', reject).end();
    })`,
  };
  const undici = {
    imports: `import { setFlagsFromString } from 'node:v8';
import apiRequest from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';
setFlagsFromString('--liftoff-only');`,
    code: `(async () => {
      const dispatcher = new Agent();
      const res = await apiRequest.call(dispatcher, { origin: url.origin, path: url.pathname, method: 'GET', headers });
      const text = await res.body.text();
      await dispatcher.close();
      return text;
    })()`,
  };
  const zodSchema = `import * as z from 'zod';
const Contact = z.object({
  id: z.string(), external_id: z.string(), name: z.string().nullable(), email: z.string().nullable(),
  phonenumber: z.string().nullable(),
  custom_attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  stripe_accounts: z.array(z.object({ label: z.string() })), created_at: z.number(), updated_at: z.number(),
});
const Envelope = z.object({ message: z.string(), data: Contact });`;
  const probes = [
    { name: 'floor: commander+node:http', source: command(nodeHttp) },
    { name: 'floor: commander+undici', source: command(undici) },
    {
      name: 'floor: +zod (1 schema)',
      source: command(
        { ...undici, imports: `${undici.imports}\n${zodSchema}` },
        'Envelope.parse(JSON.parse(text))',
      ),
    },
  ];
  const out = [];
  for (const [i, probe] of probes.entries()) {
    const input = join(dir, `probe${i}.mjs`);
    writeFileSync(input, probe.source);
    await build({
      input,
      platform: 'node',
      plugins: [lazyRequires({ strict: false })],
      output: { file: join(dir, `probe${i}.bundle.mjs`), format: 'esm' },
      logLevel: 'warn',
    });
    out.push({
      name: probe.name,
      args: [join(dir, `probe${i}.bundle.mjs`), 'get', 'u1', '-o', 'json'],
    });
  }
  return out;
}

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
