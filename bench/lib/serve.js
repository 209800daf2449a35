// A real `contacts serve --mock` child process for the benchmarks of a link (latency, rate
// limit): pinned to its own core with taskset, its request log (stderr) read as it comes, and
// the command under test pinned to another core.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/contacts.js', import.meta.url));
export const HAS_TASKSET = existsSync('/usr/bin/taskset');

/** `taskset -c CPU node ...`, or plain node where taskset is missing. */
export function pinned(cpu, args, options) {
  return HAS_TASKSET
    ? spawn('taskset', ['-c', cpu, process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}

// `GET /api/v1/chatbots/bench/contacts 200 84.5ms req_...`; `---` when no answer was sent.
const LOG_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\S+) (\d{3}|---) ([\d.]+)ms/;

/**
 * `contacts serve --mock --in-memory --port 0 --key KEY ...flags` on `cpu`. Its `log` counts the
 * requests, POSTs and 429s its log shows; `entries` holds each request (method, path, status,
 * and its start and end in `performance.now()` time: the end is when the line arrived here).
 */
export async function serve({ cpu, env, key, flags }) {
  const child = pinned(cpu, [BIN, 'serve', '--mock', '--in-memory', '--port', '0', '--key', key, ...flags], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { requests: 0, posts: 0, throttled: 0 };
  const entries = [];
  let buffered = '';
  child.stderr.on('data', (chunk) => {
    const now = performance.now();
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) {
      const m = LOG_LINE.exec(line);
      if (!m) continue;
      log.requests++;
      if (m[1] === 'POST') log.posts++;
      if (m[3] === '429') log.throttled++;
      const ms = Number(m[4]);
      entries.push({ method: m[1], path: m[2], status: m[3], start: now - ms, end: now });
    }
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  const reset = () => {
    Object.assign(log, { requests: 0, posts: 0, throttled: 0 });
    entries.length = 0;
  };
  return {
    url,
    log,
    entries,
    reset,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
