// An exclusive lock across processes for a read-modify-write of the config file: a lock file
// beside it, created with O_EXCL and naming its holder (pid, host). A lock whose holder is gone
// (its pid dead on this host) is broken; another is waited for, up to a timeout.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { ConfigError } from './errors.js';

/** How long a change waits for another process's, by default: a holder keeps it for milliseconds. */
export const LOCK_TIMEOUT_MS = 10_000;
const FIRST_WAIT_MS = 5;
const LONGEST_WAIT_MS = 100;

export interface FileLockOptions {
  /** How long to wait for another holder before giving up. Default `LOCK_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Waits between tries (tests inject one). */
  sleep?: (ms: number) => Promise<void>;
  /** The clock, in milliseconds (tests inject one). */
  now?: () => number;
  /** Whether a process of this host runs (tests inject one). */
  isAlive?: (pid: number) => boolean;
}

/** What a lock file holds: who made it, and a token only that holder knows. */
interface LockOwner {
  pid: number;
  host: string;
  token: string;
  since: string;
}

/**
 * Runs `change` holding the lock `lockPath` (created with mode 0600), and removes the lock after,
 * whatever `change` does. Throws a ConfigError when another holder keeps it past the timeout.
 */
export async function withFileLock<T>(
  lockPath: string,
  change: () => T | Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const release = await acquire(lockPath, options);
  try {
    return await change();
  } finally {
    release();
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<() => void> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const isAlive = options.isAlive ?? processAlive;
  const host = hostname();
  const me: LockOwner = {
    pid: process.pid,
    host,
    token: randomBytes(8).toString('hex'),
    since: new Date(now()).toISOString(),
  };
  const deadline = now() + (options.timeoutMs ?? LOCK_TIMEOUT_MS);
  let wait = FIRST_WAIT_MS;
  for (;;) {
    if (create(lockPath, me)) return () => release(lockPath, me.token);
    const holder = owner(lockPath);
    // Released in between: try again at once.
    if (holder === 'gone') continue;
    if (holder !== 'unknown' && holder.host === host && !isAlive(holder.pid)) {
      if (breakStale(lockPath, holder.token, me, isAlive)) continue;
    }
    if (now() >= deadline) throw lockedError(lockPath, holder);
    await sleep(wait);
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  }
}

/** Makes the file with `who` in it if it does not exist; false if it does. */
function create(file: string, who: LockOwner): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotLock(file, error);
  }
  try {
    fs.writeSync(fd, JSON.stringify(who));
  } catch (error) {
    fs.closeSync(fd);
    removeIf(file);
    throw cannotLock(file, error);
  }
  fs.closeSync(fd);
  return true;
}

/**
 * Who holds the lock: `gone` when there is no lock file, `unknown` when it names no one (being
 * written this instant, or left half-written).
 */
function owner(file: string): LockOwner | 'gone' | 'unknown' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw cannotLock(file, error);
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (
      Number.isInteger(parsed.pid) &&
      typeof parsed.host === 'string' &&
      typeof parsed.token === 'string' &&
      typeof parsed.since === 'string'
    ) {
      return parsed as LockOwner;
    }
  } catch {
    // Not JSON: said as unknown.
  }
  return 'unknown';
}

/**
 * Removes a lock whose holder is dead, if it is still that holder's (`token`): under a second
 * lock (`.break`), so that two processes breaking it at once cannot take away the fresh lock
 * one of them, or a third, made meanwhile. Returns whether to try the lock again at once; false
 * while another process breaks it.
 */
function breakStale(
  lockPath: string,
  token: string,
  me: LockOwner,
  isAlive: (pid: number) => boolean,
): boolean {
  const breaker = `${lockPath}.break`;
  if (!create(breaker, me)) {
    // A breaker killed in the midst of it (these steps take no time) left its own lock.
    const other = owner(breaker);
    if (other === 'gone') return true;
    if (other !== 'unknown' && other.host === me.host && !isAlive(other.pid)) removeIf(breaker);
    return false;
  }
  try {
    const holder = owner(lockPath);
    if (holder !== 'gone' && holder !== 'unknown' && holder.token === token) removeIf(lockPath);
  } finally {
    removeIf(breaker);
  }
  return true;
}

/** Removes the lock if it is still ours (a holder that was taken for dead may find another's). */
function release(lockPath: string, token: string): void {
  const holder = owner(lockPath);
  if (holder !== 'gone' && holder !== 'unknown' && holder.token === token) removeIf(lockPath);
}

function removeIf(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotLock(file, error);
  }
}

/** Whether a process runs on this host: signal 0 tests for it (EPERM: it runs, as someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedError(lockPath: string, holder: LockOwner | 'unknown'): ConfigError {
  const who =
    holder === 'unknown'
      ? 'a lock that names no process'
      : `process ${holder.pid} on ${holder.host}, since ${holder.since}`;
  return new ConfigError('file', `The config file is locked by another change (${who}): ${lockPath}`, {
    hint: `Another contacts command is changing the config file; try again. If none is running, remove ${lockPath}.`,
  });
}

function cannotLock(file: string, error: unknown): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError('file', `Cannot lock the config file (${file}): ${reason}`, {
    hint: 'Check that the config directory exists and is yours to write.',
    cause: error,
  });
}
