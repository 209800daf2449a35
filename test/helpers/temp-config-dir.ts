// A throwaway config directory for store tests, and a watch on the user's real config
// directory so a test that strays there fails instead of quietly rewriting it.
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

export interface TempConfigDir {
  /** The mkdtemp directory; removed by cleanup. */
  root: string;
  /** `CONTACTS_CONFIG_DIR`: not created yet, so the store's own mkdir (and its mode) is tested. */
  dir: string;
  /** Only `CONTACTS_CONFIG_DIR`: nothing from the real environment leaks in. */
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export async function tempConfigDir(): Promise<TempConfigDir> {
  const root = await mkdtemp(path.join(tmpdir(), 'contacts-cli-config-'));
  const dir = path.join(root, 'config');
  return {
    root,
    dir,
    env: { CONTACTS_CONFIG_DIR: dir },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Where conf (env-paths) puts `contacts-cli`'s config when CONTACTS_CONFIG_DIR is not set. */
export function realConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const name = 'contacts-cli-nodejs';
  if (process.platform === 'darwin') return path.join(homedir(), 'Library', 'Preferences', name);
  if (process.platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(homedir(), 'AppData', 'Roaming'), name, 'Config');
  }
  return path.join(env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), name);
}

/** Existence and modification times of the real config dir and file, to compare before/after. */
export function snapshotRealConfig(): string {
  const dir = realConfigDir();
  const file = path.join(dir, 'config.json');
  const stamp = (p: string) => (existsSync(p) ? `${statSync(p).mtimeMs}:${statSync(p).mode}` : 'absent');
  return `${dir}=${stamp(dir)} ${file}=${stamp(file)}`;
}
