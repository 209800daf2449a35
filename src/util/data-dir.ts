// Where the tool keeps what it makes for later (the undo records): CONTACTS_DATA_DIR, else
// beside the config in CONTACTS_CONFIG_DIR (one directory holds all the tool keeps, as tests and
// CI jobs want), else the platform's data directory, as env-paths names it for conf's config.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const DATA_DIR_ENV = 'CONTACTS_DATA_DIR';
/** As env-paths names `contacts-cli` for conf (its suffix `nodejs`): beside the config directory. */
const PROJECT = 'contacts-cli-nodejs';

/** The data directory for this environment (read from `env`, never from elsewhere but the home). */
export function dataDir(env: NodeJS.ProcessEnv): string {
  const own = env[DATA_DIR_ENV]?.trim();
  if (own) return resolve(own);
  const config = env.CONTACTS_CONFIG_DIR?.trim();
  if (config) return join(resolve(config), 'data');
  const home = env.HOME?.trim() || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', PROJECT);
  if (process.platform === 'win32') {
    const local = env.LOCALAPPDATA?.trim() || join(home, 'AppData', 'Local');
    return join(local, PROJECT, 'Data');
  }
  const xdg = env.XDG_DATA_HOME?.trim();
  return join(xdg || join(home, '.local', 'share'), PROJECT);
}

/** Where undo records are kept. */
export function undoDir(env: NodeJS.ProcessEnv): string {
  return join(dataDir(env), 'undo');
}
