// The config file: profiles with their settings and API key, kept by `conf` in a file only its
// owner can read. `conf` is imported when a store is opened, so commands without one never load it.
// Every change is a read-modify-write under a lock file beside it (`config.json.lock`): two
// commands changing it at once both land, neither writes over the other's whole file.
import fs from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import { ConfigError } from './errors.js';
import type { FileLockOptions } from './file-lock.js';
import {
  type ProfileConfig,
  SETTING_NAMES,
  SETTINGS,
  type SettingKey,
  validateApiKey,
  validateProfileName,
  validateSetting,
} from './settings.js';

export const CONFIG_DIR_ENV = 'CONTACTS_CONFIG_DIR';
export const PROJECT_NAME = 'contacts-cli';
export const CONFIG_VERSION = 1;
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

interface ConfigFile {
  version: number;
  profiles: Record<string, ProfileConfig>;
}

/** What settings resolution needs from a store; tests may hand in a plain object. */
export interface ProfileSource {
  readonly path: string;
  getProfile(profile: string): ProfileConfig;
  /** Names of the profiles in the file. */
  profiles(): string[];
  /** Problems found on reading that do not stop it (a key in a file others can read). */
  readonly warnings?: readonly string[];
}

/**
 * The config file, read and changed. Each change reads the file again under its lock, changes
 * that one value, and writes the file whole (atomically) before the lock goes.
 */
export interface ConfigStore extends ProfileSource {
  get(profile: string, key: SettingKey): string | undefined;
  /** Validates, stores and returns the normalised value. */
  set(profile: string, key: SettingKey, value: string): Promise<string>;
  /** Returns whether the setting was there. */
  unset(profile: string, key: SettingKey): Promise<boolean>;
  /** The profile's settings (never its key), by their command-line names. */
  list(profile: string): Partial<Record<SettingKey, string>>;
  getApiKey(profile: string): string | undefined;
  setApiKey(profile: string, key: string): Promise<void>;
  /** Returns whether a key was stored. */
  deleteApiKey(profile: string): Promise<boolean>;
}

export interface OpenConfigStoreOptions {
  /** Only `CONTACTS_CONFIG_DIR` is read from it; pass the process's own env in the CLI. */
  env: NodeJS.ProcessEnv;
}

export interface OpenConfigStoreWithLockOptions extends OpenConfigStoreOptions {
  /** How a change waits for the lock (tests inject the clock and the sleep). */
  lock?: FileLockOptions;
}

/** The directory `CONTACTS_CONFIG_DIR` names, if set, made absolute. */
export function configDirFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const dir = env[CONFIG_DIR_ENV]?.trim();
  return dir ? path.resolve(dir) : undefined;
}

/** Where the config file is: in CONTACTS_CONFIG_DIR, else where conf puts it for this project. */
export async function configFilePath(env: NodeJS.ProcessEnv): Promise<string> {
  const cwd = configDirFromEnv(env);
  if (cwd) return path.join(cwd, 'config.json');
  // The same computation as conf's default (its `projectSuffix` is 'nodejs').
  const { default: envPaths } = await import('env-paths');
  return path.join(envPaths(PROJECT_NAME, { suffix: 'nodejs' }).config, 'config.json');
}

/**
 * The profiles, read-only and without loading conf (whose schema validator alone costs most of
 * a command's start-up): every command that only reads settings uses this.
 */
export async function openConfigReader({ env }: OpenConfigStoreOptions): Promise<ProfileSource> {
  const file = await configFilePath(env);
  let text: string | undefined;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadable(file, error);
  }
  let config: ConfigFile = { version: CONFIG_VERSION, profiles: {} };
  if (text !== undefined && text.trim() !== '') {
    try {
      config = parseConfigFile(JSON.parse(text), file);
    } catch (error) {
      throw error instanceof ConfigError ? error : unreadable(file, error);
    }
  }
  return {
    path: file,
    warnings: text === undefined ? [] : exposureWarnings(file, config),
    profiles: () => Object.keys(config.profiles),
    getProfile(profile: string): ProfileConfig {
      const found = config.profiles[validateProfileName(profile)];
      return found ? { ...found } : {};
    },
  };
}

/** Opens (without creating) the config file; the file is first written by a `set`. */
export async function openConfigStore({ env, lock }: OpenConfigStoreWithLockOptions): Promise<ConfigStore> {
  const { default: ConfClass } = await import('conf');
  const cwd = configDirFromEnv(env);
  // Created here, before conf gets the chance to create it with the default (0755) mode.
  if (cwd) fs.mkdirSync(cwd, { recursive: true, mode: DIR_MODE });
  let conf: Conf<ConfigFile>;
  try {
    conf = new ConfClass<ConfigFile>({
      ...(cwd ? { cwd } : { projectName: PROJECT_NAME }),
      configName: 'config',
      configFileMode: FILE_MODE,
      // Profile names may contain dots.
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
  } catch (error) {
    throw unreadable(cwd ? path.join(cwd, 'config.json') : 'the config file', error);
  }
  // conf's default directory is ours alone, so it is tightened even before the first write.
  if (!cwd) tighten(path.dirname(conf.path), DIR_MODE);
  return new FileConfigStore(conf, lock);
}

class FileConfigStore implements ConfigStore {
  readonly path: string;
  readonly #conf: Conf<ConfigFile>;
  readonly #lock: FileLockOptions | undefined;

  constructor(conf: Conf<ConfigFile>, lock: FileLockOptions | undefined) {
    this.#conf = conf;
    this.path = conf.path;
    this.#lock = lock;
  }

  profiles(): string[] {
    return Object.keys(this.#read().profiles);
  }

  getProfile(profile: string): ProfileConfig {
    const found = this.#read().profiles[validateProfileName(profile)];
    return found ? { ...found } : {};
  }

  get(profile: string, key: SettingKey): string | undefined {
    return this.getProfile(profile)[SETTINGS[key].file];
  }

  async set(profile: string, key: SettingKey, value: string): Promise<string> {
    const normalised = validateSetting(key, value);
    await this.#update(profile, (p) => {
      p[SETTINGS[key].file] = normalised;
      return true;
    });
    return normalised;
  }

  unset(profile: string, key: SettingKey): Promise<boolean> {
    return this.#remove(profile, SETTINGS[key].file);
  }

  list(profile: string): Partial<Record<SettingKey, string>> {
    const p = this.getProfile(profile);
    const out: Partial<Record<SettingKey, string>> = {};
    for (const name of SETTING_NAMES) {
      const value = p[SETTINGS[name].file];
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  getApiKey(profile: string): string | undefined {
    return this.getProfile(profile).api_key;
  }

  async setApiKey(profile: string, key: string): Promise<void> {
    const valid = validateApiKey(key);
    await this.#update(profile, (p) => {
      p.api_key = valid;
      return true;
    });
  }

  deleteApiKey(profile: string): Promise<boolean> {
    return this.#remove(profile, 'api_key');
  }

  #remove(profile: string, field: keyof ProfileConfig): Promise<boolean> {
    return this.#update(profile, (p) => {
      if (p[field] === undefined) return false;
      delete p[field];
      return true;
    });
  }

  /**
   * Under the lock: reads the file as it is now, applies `change` to the one profile, and writes
   * the file when `change` says it changed something. What other processes changed meanwhile
   * stays, since nothing from before the lock is written back.
   */
  async #update(profile: string, change: (p: ProfileConfig) => boolean): Promise<boolean> {
    const name = validateProfileName(profile);
    const dir = path.dirname(this.path);
    // The lock sits beside the file: the directory must be there (and ours alone) first.
    fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    const { withFileLock } = await import('./file-lock.js');
    return withFileLock(
      `${this.path}.lock`,
      () => {
        const file = this.#read();
        const p = { ...file.profiles[name] };
        if (!change(p)) return false;
        const profiles = { ...file.profiles };
        if (Object.keys(p).length === 0) delete profiles[name];
        else profiles[name] = p;
        this.#conf.store = { version: CONFIG_VERSION, profiles };
        // conf's mode applies when it creates the file; a file or directory made by someone else
        // (or an older version) is tightened on every write, since it now holds settings or a key.
        tighten(this.path, FILE_MODE);
        tighten(dir, DIR_MODE);
        return true;
      },
      this.#lock,
    );
  }

  #read(): ConfigFile {
    let raw: unknown;
    try {
      raw = this.#conf.store;
    } catch (error) {
      throw unreadable(this.path, error);
    }
    return parseConfigFile(raw, this.path);
  }
}

/** Checks the file's shape; a hand edit gone wrong is reported, never silently discarded. */
function parseConfigFile(raw: unknown, file: string): ConfigFile {
  if (!isRecord(raw)) throw invalid(file, 'not a JSON object');
  if (raw.version !== undefined && raw.version !== CONFIG_VERSION) {
    throw invalid(file, `unsupported version ${JSON.stringify(raw.version)} (this CLI reads version 1)`);
  }
  const profiles = raw.profiles ?? {};
  if (!isRecord(profiles)) throw invalid(file, '"profiles" is not an object');
  const out: Record<string, ProfileConfig> = {};
  for (const [name, value] of Object.entries(profiles)) {
    if (!isRecord(value)) throw invalid(file, `profile ${JSON.stringify(name)} is not an object`);
    for (const [field, v] of Object.entries(value)) {
      if (typeof v !== 'string') throw invalid(file, `profiles.${name}.${field} is not a string`);
    }
    out[name] = value as ProfileConfig;
  }
  return { version: CONFIG_VERSION, profiles: out };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(file: string, why: string): ConfigError {
  return new ConfigError('file', `Invalid config file ${file}: ${why}`, {
    hint: 'Fix or remove the file, then set values again with `contacts config set`.',
  });
}

function unreadable(file: string, error: unknown): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError('file', `Cannot read config file ${file}: ${reason}`, {
    hint: 'Fix or remove the file, then set values again with `contacts config set`.',
    cause: error,
  });
}

/**
 * As ssh does for its keys: a config file holding a key must be readable by its owner alone.
 * Said on every read until the next write tightens the modes (or the user's own chmod does).
 */
function exposureWarnings(file: string, config: ConfigFile): string[] {
  if (process.platform === 'win32') return [];
  if (!Object.values(config.profiles).some((p) => p.api_key)) return [];
  const warnings: string[] = [];
  const check = (target: string, mode: number, what: string) => {
    let actual: number;
    try {
      actual = fs.statSync(target).mode & 0o777;
    } catch {
      return;
    }
    if ((actual & 0o077) !== 0) {
      warnings.push(
        `${what} ${target} holds an API key but others can access it (mode ${octal(actual)}); ` +
          `run \`chmod ${octal(mode)} ${target}\` (the next \`contacts config set\` or \`auth login\` does it too)`,
      );
    }
  };
  check(file, FILE_MODE, 'the config file');
  check(path.dirname(file), DIR_MODE, 'the directory of the config file');
  return warnings;
}

const octal = (mode: number) => `0${mode.toString(8).padStart(3, '0')}`;

function tighten(target: string, mode: number): void {
  try {
    if ((fs.statSync(target).mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (error) {
    // Windows has no POSIX modes to set; anywhere else, a key must not sit in a readable file.
    if (process.platform !== 'win32') throw error;
  }
}
