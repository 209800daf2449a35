// What several benchmarks measure of a child process: its wall time, its stdout, its peak
// resident memory (VmHWM) and the CPU time it used (user + system), both polled from /proc while
// it runs (0 where /proc is missing; the CPU time of its last 50 ms is not seen).
import { readFileSync } from 'node:fs';

/**
 * Waits for `child` (spawned with stdout piped) to end. Resolves with its exit code, wall time
 * from `started` (process.hrtime.bigint()), stdout, peak RSS in MB and CPU seconds.
 */
export function measureChild(child, started) {
  return new Promise((resolve, reject) => {
    let peakKb = 0;
    let cpuTicks = 0;
    const poll = setInterval(() => {
      try {
        // taskset execs node in place: the same pid.
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
        // Fields 14 and 15 of /proc/PID/stat (after the parenthesised name): utime, stime.
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        cpuTicks = Number(fields[11]) + Number(fields[12]);
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
      // Linux counts CPU time in ticks of 1/100 s (USER_HZ) on every architecture Node runs on.
      resolve({ code, seconds, stdout, peakMb: peakKb / 1024, cpuSeconds: cpuTicks / 100 });
    });
  });
}
