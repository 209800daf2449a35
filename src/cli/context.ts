// What every command gets: the streams, the settings in force (flag > env > profile), and,
// on first use, a client (or an embedded mock with its client) and the output format.
import { resolve } from 'node:path';
import type { ContactsClient } from '../client/client.js';
import { isFileOutputFormat } from '../config/output-formats.js';
import type { ResolvedSettings } from '../config/resolve.js';
import { envSwitch, SWITCHES } from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
import type { MockServer } from '../mock/server.js';
import { EMBEDDED_MOCK_AGENT, MOCK_DATA } from './defaults.js';
import { type KeyOrigin, KeyRefusedError, UsageError } from './errors.js';
import type { CliIo } from './io.js';
import { chooseFormat, type OutputFormat } from './output/format.js';
import { createIo, type Io } from './output/terminal.js';
import { visible } from './output/visible.js';
import type { ContextOptions } from './program.js';

/** The key the embedded mock accepts: it checks keys, so the client sends a well-formed one. */
const EMBEDDED_MOCK_KEY = 'bk_embedded_mock';

export class CommandContext {
  readonly io: Io;
  readonly options: ContextOptions;
  readonly #cli: CliIo;
  #store?: Promise<ConfigStore>;
  #settings?: Promise<ResolvedSettings>;
  #client?: Promise<ContactsClient>;
  #mayCreateProfile = false;
  #retryReporter?: (line: string) => void;
  #mock?: MockServer;
  /** Where the key the client sends came from; unset in mock mode, whose key is its own. */
  #keyOrigin?: KeyOrigin;

  constructor(cli: CliIo, options: ContextOptions) {
    this.#cli = cli;
    this.options = options;
    cli.secrets ??= [];
    this.io = createIo({
      secrets: cli.secrets,
      stdout: cli.stdout,
      stderr: cli.stderr,
      stdin: cli.stdin,
      env: cli.env,
      quiet: options.quiet,
      // commander's --no-color gives color:false; without it, the environment decides.
      color: options.color === false ? false : undefined,
      truncate: options.truncate,
    });
  }

  get env(): NodeJS.ProcessEnv {
    return this.#cli.env;
  }

  get cwd(): string {
    return this.#cli.cwd;
  }

  /** Whether commands run against the embedded mock (`--mock` or CONTACTS_MOCK=1). */
  get mockMode(): boolean {
    return this.options.mock === true || envSwitch(this.env, 'mock');
  }

  /** `--no-input` or CONTACTS_NO_INPUT=1: scripts under a terminal that must never be asked. */
  get noInput(): boolean {
    return this.options.input === false || envSwitch(this.env, 'no-input');
  }

  /**
   * Called before a prompt: under --no-input the question becomes an error that names the flag
   * answering it (`--yes`, `--with-key`), so a script learns what to pass.
   */
  mayPrompt(question: string, answer: { flag: string; hint: string }): void {
    if (!this.noInput) return;
    const why = this.options.input === false ? '--no-input' : SWITCHES['no-input'].env;
    throw new UsageError(`${question}: not asked, since ${why} is set; pass ${answer.flag}`, {
      hint: answer.hint,
    });
  }

  /** Asks for a non-zero exit once the command has finished normally. */
  setExitCode(code: number): void {
    this.#cli.exitCode = code;
  }

  store(): Promise<ConfigStore> {
    this.#store ??= import('../config/store.js').then((m) => m.openConfigStore({ env: this.env }));
    return this.#store;
  }

  /**
   * Where retry notices go instead of a line each: a long import shows them in its one
   * progress line.
   */
  reportRetriesTo(reporter: (line: string) => void): void {
    this.#retryReporter = reporter;
  }

  /**
   * Ctrl-C: the first press calls `onFirst` (stop cleanly, keep what is needed to resume); a
   * second press ends the process at once. Handled here rather than with `process.once`: a
   * once-listener is gone when a spinner's signal-exit hook looks, which then kills the process
   * with the first press and the summary is never printed. Returns the unsubscribe function.
   */
  onInterrupt(onFirst: () => void): () => void {
    const signals = this.#cli.signals;
    if (!signals) return () => {};
    let pressed = 0;
    const listener = () => {
      pressed += 1;
      if (pressed === 1) onFirst();
      else this.#cli.exitNow?.(130);
    };
    signals.on('SIGINT', listener);
    return () => signals.off('SIGINT', listener);
  }

  /**
   * For the commands that create a profile by writing to it (`auth login`, `config set`): a
   * --profile the file does not hold yet is not a typo there. Call before `settings()`.
   */
  mayCreateProfile(): void {
    this.#mayCreateProfile = true;
  }

  /** Settings in force. Reading them never loads conf; only commands that write the file do. */
  settings(): Promise<ResolvedSettings> {
    this.#settings ??= (async () => {
      const [{ resolveSettings }, store] = await Promise.all([
        import('../config/resolve.js'),
        this.#store ?? import('../config/store.js').then((m) => m.openConfigReader({ env: this.env })),
      ]);
      const settings = resolveSettings({
        // A workbook is asked for by the command that writes one (export, template): it is not
        // a setting, and the commands that print data refuse it in format().
        flags: {
          ...this.options,
          output: isFileOutputFormat(this.options.output) ? undefined : this.options.output,
        },
        env: this.env,
        store,
        requireExistingProfile: !this.#mayCreateProfile,
      });
      for (const warning of settings.warnings) this.io.warn(warning);
      return settings;
    })();
    return this.#settings;
  }

  /**
   * The agent to address, or a usage error that says how to set one. The embedded mock is its
   * own world: it takes the agent given for this run (--agent, CONTACTS_AGENT), else its own
   * default, never the profile's, which names an agent of the service.
   */
  async agent(): Promise<string> {
    const settings = await this.settings();
    if (this.mockMode) return givenForRun(settings) ?? EMBEDDED_MOCK_AGENT;
    const { requireAgent } = await import('../config/resolve.js');
    return requireAgent(settings);
  }

  /**
   * Notes `line` about what the agent holds (nothing, say); `why` is empty unless the embedded
   * mock used its own default agent, which it then names, with the profile's agent it left aside.
   */
  async noteAboutAgent(line: (why: string) => string): Promise<void> {
    const settings = await this.settings();
    const mockDefault = this.mockMode && givenForRun(settings) === undefined;
    this.io.note(line(mockDefault ? " (the mock's default; --agent picks another)" : ''));
    if (mockDefault && settings.agentSource === 'profile') {
      this.io.note(`The profile's agent ${settings.agent} is for the service, not for --mock.`);
    }
  }

  async format(): Promise<OutputFormat> {
    const settings = await this.settings();
    return chooseFormat({ flag: this.options.output, profile: settings.output, isTTY: this.io.isTTY.stdout });
  }

  /** The API client, pointed at the embedded mock in mock mode. */
  client(): Promise<ContactsClient> {
    this.#client ??= this.#createClient();
    return this.#client;
  }

  async #createClient(): Promise<ContactsClient> {
    const { ContactsClient } = await import('../client/client.js');
    const debug = this.options.debug
      ? (line: string) => this.io.stderr.write(`[debug] ${visible(line)}\n`)
      : undefined;
    // The service stores the rest and says what it dropped: say it too, once per set of fields.
    const warned = new Set<string>();
    const onIgnoredFields = (e: { paths: string[]; count: number; requestId: string | undefined }) => {
      const key = e.paths.join(',');
      if (warned.has(key)) return;
      warned.add(key);
      const more = e.count > e.paths.length ? ` and ${e.count - e.paths.length} more` : '';
      this.io.warn(
        `the service ignored fields it does not know: ${e.paths.join(', ')}${more}` +
          (e.requestId ? ` (request ${e.requestId})` : ''),
      );
    };
    const onRetry = (e: { attempt: number; delayMs: number; quick: boolean; error: Error }) => {
      // Nothing there yet: the error says it once if the last try fails too.
      if (e.quick) return;
      const line = `retrying in ${(e.delayMs / 1000).toFixed(1)}s (attempt ${e.attempt + 1}): ${e.error.message}`;
      if (this.#retryReporter) this.#retryReporter(line);
      else this.io.note(line);
    };
    if (this.mockMode) {
      const { startEmbeddedMock } = await import('./embedded-mock.js');
      const { checkMockDataFile } = await import('./output-paths.js');
      const { mkdir } = await import('node:fs/promises');
      const { dirname } = await import('node:path');
      const dataFile = this.mockDataFile();
      await mkdir(dirname(dataFile), { recursive: true });
      await checkMockDataFile(this, dataFile, {
        flag: 'CONTACTS_MOCK_DATA',
        value: this.env.CONTACTS_MOCK_DATA,
      });
      this.#mock = await startEmbeddedMock(dataFile);
      return new ContactsClient({
        baseUrl: this.#mock.url,
        apiKey: EMBEDDED_MOCK_KEY,
        // In this process: no proxy stands between.
        proxy: false,
        debug,
        onRetry,
        onIgnoredFields,
      });
    }
    const settings = await this.settings();
    const { requireApiKey, requireBaseUrl } = await import('../config/resolve.js');
    const apiKey = requireApiKey(settings);
    const baseUrl = requireBaseUrl(settings);
    this.#cli.secrets?.push(apiKey);
    if (settings.apiKeySource !== 'none') {
      this.#keyOrigin = {
        source: settings.apiKeySource,
        file: settings.apiKeyFile,
        profile: settings.profile,
        configPath: settings.configPath,
      };
    }
    const { proxyFromEnv } = await import('../client/proxy.js');
    return new ContactsClient({
      baseUrl,
      apiKey,
      proxy: proxyFromEnv(this.env),
      debug,
      onRetry,
      onIgnoredFields,
      ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
      ...(settings.timeout === undefined ? {} : { timeoutMs: settings.timeout }),
    });
  }

  /**
   * A command's error as the user should read it: a 401 names where the refused key came from
   * (CONTACTS_API_KEY, the key file, the profile), so the hint says what to change.
   */
  async explain(error: unknown): Promise<unknown> {
    if (this.#keyOrigin === undefined) return error;
    const { AuthenticationError } = await import('../client/errors.js');
    return error instanceof AuthenticationError ? new KeyRefusedError(error, this.#keyOrigin) : error;
  }

  /**
   * A command a user can paste to run `args` in the same setting as this run: the global options
   * that chose the service (`--mock`, `--profile`, `--base-url`, `-o`) kept, values shell-quoted.
   */
  commandLine(args: string[], extra: Record<string, string | undefined> = {}): string {
    const words = ['contacts'];
    if (this.options.mock) words.push('--mock');
    if (this.options.profile) words.push('--profile', this.options.profile);
    if (this.options.baseUrl) words.push('--base-url', this.options.baseUrl);
    if (this.options.insecureHttp) words.push('--insecure-http');
    words.push(...args);
    for (const [flag, value] of Object.entries(extra)) if (value !== undefined) words.push(flag, value);
    if (this.options.output) words.push('-o', this.options.output);
    return words.map(shellWord).join(' ');
  }

  /**
   * The service commands write to, as an undo record names it: the base URL, or the embedded
   * mock's database (its URL changes each run).
   */
  async service(): Promise<string> {
    if (this.mockMode) return `mock:${this.mockDataFile()}`;
    const { requireBaseUrl } = await import('../config/resolve.js');
    return requireBaseUrl(await this.settings()).replace(/\/+$/, '');
  }

  /** Where the embedded mock keeps its state between commands: a SQLite database. */
  mockDataFile(): string {
    return resolve(this.cwd, this.env.CONTACTS_MOCK_DATA ?? MOCK_DATA);
  }

  /** Closes connections, stops the embedded mock and closes its database. */
  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (client) await (await client.catch(() => undefined))?.close();
    await this.#mock?.close();
  }
}

/** The agent given for this run (--agent, or its variable), not the profile's. */
function givenForRun(settings: ResolvedSettings): string | undefined {
  return settings.agentSource === 'flag' || settings.agentSource === 'env' ? settings.agent : undefined;
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
