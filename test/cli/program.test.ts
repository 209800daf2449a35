// Parsing, help and completion, in-process through run() with captured streams.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { SETTING_NAMES, SETTINGS } from '../../src/config/settings.js';
import { VERSION } from '../../src/core/version.js';
import { runInProcess } from '../helpers/cli.js';

describe('the settings table decides the global options', () => {
  it("lists a scope 'global' setting in the program's help, a scope 'command' one only on its commands", async () => {
    const top = (await runInProcess(['--help'])).stdout;
    const options = top.slice(top.indexOf('Options:'), top.indexOf('Commands:'));
    for (const key of SETTING_NAMES) {
      const long = SETTINGS[key].flags.replace(/^-\w, /, '');
      if (SETTINGS[key].scope === 'global') expect(options).toContain(long);
      else expect(options).not.toContain(long);
    }
  });
});

describe('program parsing', () => {
  it('prints help to stdout and exits 0, listing every command', async () => {
    const r = await runInProcess(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of [
      'list',
      'get',
      'upsert',
      'update',
      'delete',
      'attrs',
      'auth',
      'config',
      'serve',
      'completion',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    }
    expect(r.stderr).toBe('');
  });

  it('prints the version, with the Node.js version and platform for bug reports', async () => {
    const line = `contacts version ${VERSION} (Node.js ${process.version}; ${process.platform} ${process.arch})\n`;
    expect(await runInProcess(['--version'])).toMatchObject({ code: 0, stdout: line });
    expect(await runInProcess(['-V', '--no-color'])).toMatchObject({ code: 0, stdout: line });
  });

  it("shows a subcommand's own options and points at `contacts --help` for the global ones", async () => {
    const r = await runInProcess(['upsert', '--help']);
    expect(r.stdout).toContain('--external-id <id>');
    expect(r.stdout).toContain('--attr <key=value>');
    expect(r.stdout).not.toContain('--output <format>');
    expect(r.stdout).not.toContain('--no-truncate');
    expect(r.stdout).toMatch(
      /Global options \([^)]*--output, [^)]*--profile[^)]*\): see `contacts --help`\.\n$/,
    );
    const get = await runInProcess(['get', '--help']);
    expect(get.stdout.trim().split('\n').length).toBeLessThan(15);
    const nested = await runInProcess(['attrs', 'define', '--help']);
    expect(nested.stdout).toContain('see `contacts --help`');
    // The program's own help still lists them all.
    const top = await runInProcess(['--help']);
    for (const flag of ['--output <format>', '--profile <name>', '--no-input', '--no-truncate']) {
      expect(top.stdout).toContain(flag);
    }
  });

  it.each([
    [['list', '--per-page', '5'], /--per-page <n>' argument '5' is invalid\. Must be 10 to 1000\./],
    [['list', '--page', 'two'], /Not a whole number/],
    [['-o', 'yaml', 'list'], /Allowed choices are table, json, ndjson, csv/],
    [['upsert', '--attr', 'novalue'], /Expected key=value/],
    [['attrs', 'define', 'x', '--type', 'money'], /Allowed choices are text, number, boolean, date/],
    [['attrs', 'define', 'x'], /required option '-t, --type <type>' not specified/],
    [['attrs', 'update', 'x', '--archive', '--unarchive'], /cannot be used with option '--unarchive'/],
    [['serve', '--mock', '--fail-rate', '2'], /Must be 0 to 1/],
    [['lsit'], /unknown command 'lsit'[\s\S]*Did you mean list\?/],
    [['get'], /missing required argument 'id'/],
  ])('rejects %j with a usage error', async (argv, message) => {
    const r = await runInProcess(argv);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('redacts a key pasted where a command belongs', async () => {
    const r = await runInProcess(['bk_pasted_secret_123456']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).not.toContain('pasted_secret');
  });

  it('exits 2 with usage when a command is missing', async () => {
    for (const argv of [[], ['attrs'], ['auth']]) {
      const r = await runInProcess(argv);
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(/^Usage: contacts/);
    }
  });

  it('never echoes a key with dots or pluses given in the wrong place', async () => {
    const r = await runInProcess(['list', '--api-key=bk_live.S3CRETtail+xyz']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).not.toContain('S3CRET');
  });

  it('refuses serve without --mock', async () => {
    const r = await runInProcess(['serve']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('serve needs --mock');
  });

  it('refuses --all with --page', async () => {
    const r = await runInProcess(['list', '--all', '--page', '2', '--agent', 'a'], {
      env: { CONTACTS_API_KEY: 'bk_x_12345678', CONTACTS_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('--all and --page');
  });
});

describe('declaring only the command named', () => {
  const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {}, cwd: '.' };
  const names = (program: { commands: readonly { name(): string; aliases(): string[] }[] }) =>
    program.commands.flatMap((c) => [c.name(), ...c.aliases()]).filter((n) => n !== 'help');

  it('lists under each declaration module the commands it declares, all of them once', async () => {
    const { buildProgram, DECLARATIONS } = await import('../../src/cli/program.js');
    const { ALL_COMMANDS } = await import('../../src/cli/commands/all-commands.js');
    const { Command } = await import('@commander-js/extra-typings');
    for (const d of DECLARATIONS) {
      const program = new Command('contacts');
      (await d.load())(program, io);
      expect(names(program)).toEqual(d.names);
    }
    // All of them: the same, in the same order, and completion.
    const all = [...DECLARATIONS.flatMap((d) => d.names), 'completion'];
    expect(names(await buildProgram(io))).toEqual(all);
    const program = new Command('contacts');
    for (const declare of ALL_COMMANDS) declare(program, io);
    expect(names(program)).toEqual(all);
  });

  it('finds the command word past the global options and their values', async () => {
    const { buildProgram, commandWord } = await import('../../src/cli/program.js');
    const program = await buildProgram(io, ['get']);
    // The contact commands are declared together, in one module.
    expect(names(program)).toEqual(['list', 'ls', 'get', 'upsert', 'update', 'delete', 'rm']);
    const word = (...argv: string[]) => commandWord(program, argv);
    expect(word('get', 'u1')).toBe('get');
    expect(word('--profile', 'get', 'list')).toBe('list');
    expect(word('--profile=ci', '-o', 'json', '--mock', 'rm', 'u1')).toBe('rm');
    expect(word('-qo', 'json', 'ls')).toBe('ls');
    expect(word('-ojson', 'ls')).toBe('ls');
    expect(word('--base-url', 'http://x', '--debug', 'import', 'f.csv')).toBe('import');
    // An option that is not the program's, `--`, help: every command is declared.
    expect(word('--agent', 'a', 'get')).toBeUndefined();
    expect(word('-x', 'get')).toBeUndefined();
    expect(word('--', 'get')).toBeUndefined();
    expect(word('--help')).toBeUndefined();
    expect(word()).toBeUndefined();
    expect(names(await buildProgram(io, ['--agent', 'a', 'get']))).toContain('import');
    expect(names(await buildProgram(io, ['help', 'get']))).toContain('import');
  });

  it('runs a command declared alone as with every command declared, and suggests among all for a typo', async () => {
    const alone = await runInProcess(['--profile', 'get', 'get', '--help']);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^Usage: contacts get/m);
    const typo = await runInProcess(['improt', 'f.csv']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(Did you mean import?)');
  });
});

describe('completion', () => {
  it.each(['bash', 'zsh', 'fish'] as const)(
    'prints a %s script naming every command and option',
    async (shell) => {
      const r = await runInProcess(['completion', shell]);
      expect(r.code).toBe(0);
      for (const word of [
        'list',
        'upsert',
        'attrs',
        'define',
        'per-page',
        'external-id',
        'ndjson',
        'boolean',
      ]) {
        expect(r.stdout).toContain(word);
      }
    },
  );

  it('bash: the script parses and completes subcommands, options and choices', async () => {
    const { stdout } = await runInProcess(['completion', 'bash']);
    const dir = await mkdtemp(join(tmpdir(), 'contacts-completion-'));
    try {
      const file = join(dir, 'contacts.bash');
      await writeFile(file, stdout);
      const complete = (...words: string[]) =>
        execFileSync(
          'bash',
          [
            '-c',
            `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _contacts; printf '%s\\n' "\${COMPREPLY[@]}"`,
            'x',
            file,
            ...words,
          ],
          { encoding: 'utf8' },
        )
          .trim()
          .split('\n');
      expect(complete('contacts', 'at')).toEqual(['attrs']);
      expect(complete('contacts', 'attrs', 'd')).toEqual(['define']);
      expect(complete('contacts', 'attrs', 'define', 'x', '--type', 'b')).toEqual(['boolean']);
      expect(complete('contacts', 'list', '--per')).toEqual(['--per-page']);
      expect(complete('contacts', 'list', '--out')).toEqual(['--output']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the settings table', () => {
  it('declares every setting once: global ones on the program, the others on the commands using them', async () => {
    const { buildProgram } = await import('../../src/cli/program.js');
    const { SETTINGS, SETTING_NAMES } = await import('../../src/config/settings.js');
    const program = await buildProgram({
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      env: {},
      cwd: '.',
    });
    const declared = (cmd: typeof program): string[] => [
      ...cmd.options.map((o) => o.long ?? ''),
      ...cmd.commands.flatMap((c) => declared(c as typeof program)),
    ];
    for (const key of SETTING_NAMES) {
      const onProgram = program.options.some((o) => o.long === `--${key}`);
      expect(onProgram, key).toBe(SETTINGS[key].scope === 'global');
      expect(declared(program), key).toContain(`--${key}`);
    }
  });

  it('`config --help` names every setting with its variable', async () => {
    const { SETTINGS, SETTING_NAMES } = await import('../../src/config/settings.js');
    const r = await runInProcess(['config', '--help']);
    expect(SETTING_NAMES).toHaveLength(7);
    for (const key of SETTING_NAMES) {
      expect(r.stdout).toMatch(new RegExp(`^  ${key} `, 'm'));
      const env = SETTINGS[key].env;
      if (env) expect(r.stdout).toContain(env);
    }
    expect(r.stdout).toContain('CONTACTS_API_KEY_FILE');
    const set = await runInProcess(['config', 'set', '--help']);
    expect(set.stdout.replace(/\s+/g, ' ')).toContain(
      'base-url, agent, output, default-country, time-zone, max-retries or timeout',
    );
  });
});
