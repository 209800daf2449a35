// What several benchmarks measure of a child process: its wall time, its stdout and its peak
// resident memory (VmHWM, polled from /proc while it runs; 0 where /proc is missing).
import { readFileSync } from 'node:fs';

/**
 * Waits for `child` (spawned with stdout piped) to end. Resolves with its exit code, wall time
 * from `started` (process.hrtime.bigint()), stdout and peak RSS in MB.
 */
export function measureChild(child, started) {
  return new Promise((resolve, reject) => {
    let peakKb = 0;
    const poll = setInterval(() => {
      try {
        // taskset execs node in place: the same pid.
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // exited between ticks
      }
    }, 50);
    let stdout = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.on('error', (error) => {
      clearInterval(poll);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(poll);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({ code, seconds, stdout, peakMb: peakKb / 1024 });
    });
  });
}
