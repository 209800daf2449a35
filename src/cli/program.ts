// The `contacts` program: its global options and help, the `help` command, and every command,
// each declared beside its run in commands/ (the declaration in <name>-command.ts, the run,
// loaded only when the command runs, in <name>.ts), so `contacts --help` and `contacts get` stay
// fast. A command named on the command line is the only one declared; help, completion and
// anything else see them all.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { SettingsFlags } from '../config/resolve.js';
import { type Camel, GLOBAL_SETTING_NAMES, type GlobalSettingKey, PROFILE_ENV } from '../config/settings.js';
import { redactSecrets } from '../core/redact.js';
import { VERSION } from '../core/version.js';
import { didYouMean } from '../util/suggest.js';
import { settingOption, switchOption } from './command.js';
import { EMBEDDED_MOCK_AGENT } from './defaults.js';
import type { CliIo } from './io.js';
import { visible } from './output/visible.js';

/** The global settings' options, as `settingOption` declares each (a value, or nothing). */
type GlobalSettingFlags = { [K in GlobalSettingKey as Camel<K>]?: string | undefined };

/** The options every command takes, declared once; their types are `GlobalOptions`. */
function globalOptions(program: Command) {
  // The settings table's scope decides which settings every command takes.
  for (const key of GLOBAL_SETTING_NAMES) program.addOption(settingOption(key));
  return (program as unknown as Command<[], GlobalSettingFlags>)
    .option('--profile <name>', `configuration profile (env: ${PROFILE_ENV})`)
    .addOption(switchOption('insecure-http'))
    .addOption(switchOption('mock'))
    .option('--debug', 'print each request and response (key redacted) and error details to stderr')
    .option('-q, --quiet', 'print only data on stdout, and only errors on stderr')
    .addOption(switchOption('no-input'))
    .option('--no-color', 'disable colors (also NO_COLOR)')
    .option('--no-truncate', 'tables print every character instead of fitting the terminal');
}

export type GlobalOptions = ReturnType<ReturnType<typeof globalOptions>['opts']>;
/** What a command's context reads: the global options and the per-command setting flags. */
export type ContextOptions = GlobalOptions & SettingsFlags;

/**
 * The declaration module of each group of top-level commands (and aliases), for a command line
 * that names one. Every command at once is `ALL_COMMANDS`, one module graph (a dynamic import
 * apiece costs more).
 */
export const DECLARATIONS: readonly {
  names: readonly string[];
  load: () => Promise<(program: Command, io: CliIo) => void>;
}[] = [
  {
    names: ['list', 'ls', 'get', 'upsert', 'update', 'delete', 'rm'],
    load: async () => (await import('./commands/contacts-command.js')).contactCommands,
  },
  { names: ['import'], load: async () => (await import('./commands/import-command.js')).importCommand },
  { names: ['undo'], load: async () => (await import('./commands/undo-command.js')).undoCommand },
  { names: ['template'], load: async () => (await import('./commands/template-command.js')).templateCommand },
  { names: ['export'], load: async () => (await import('./commands/export-command.js')).exportCommand },
  { names: ['attrs'], load: async () => (await import('./commands/attrs-command.js')).attrsCommand },
  { names: ['auth'], load: async () => (await import('./commands/auth-command.js')).authCommand },
  { names: ['config'], load: async () => (await import('./commands/config-command.js')).configCommand },
  { names: ['serve'], load: async () => (await import('./commands/serve-command.js')).serveCommand },
  { names: ['api'], load: async () => (await import('./commands/api-command.js')).apiCommand },
];

/**
 * The command the arguments name: the first word that is no global option nor an option's value
 * (`contacts --profile ci -o json get u1`: `get`). Undefined where an option is not the program's
 * own (whether it takes a value is unknown) or after `--`: then every command is declared.
 */
export function commandWord(program: Command, argv: readonly string[]): string | undefined {
  const takesValue = (flag: string) => {
    const option = program.options.find((o) => o.short === flag || o.long === flag);
    return option && (option.required || option.optional);
  };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return undefined;
    if (!word.startsWith('-') || word === '-') return word;
    if (word.startsWith('--')) {
      const flag = word.split('=', 1)[0]!;
      const value = takesValue(flag);
      if (value === undefined) return undefined;
      if (value && !word.includes('=')) i++;
      continue;
    }
    // A cluster of short options (`-qo json`, `-ojson`): a value option takes the rest, else the next word.
    for (let j = 1; j < word.length; j++) {
      const value = takesValue(`-${word[j]}`);
      if (value === undefined) return undefined;
      if (value) {
        if (j === word.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}

export async function buildProgram(io: CliIo, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('contacts');
  program
    .description('Work with the Contacts API from a terminal, a script or a CI job.')
    .version(
      `contacts version ${VERSION} (Node.js ${process.version}; ${process.platform} ${process.arch})`,
      '-V, --version',
      'print the version, and the Node.js version and platform',
    )
    .helpOption('-h, --help', 'show help for a command');
  globalOptions(program)
    .configureHelp({ showGlobalOptions: false, sortSubcommands: false })
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // commander echoes bad input back; a key pasted in the wrong place must not be.
      outputError: (s, write) => write(visible(redactSecrets(s))),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ contacts auth login
  $ contacts attrs define plan --type text --agent my-agent
  $ contacts upsert --external-id u_42 --name "Ada Lovelace" --email ada@example.com --attr plan=pro
  $ contacts list --all -o ndjson | jq .email
  $ contacts --mock list --agent ${EMBEDDED_MOCK_AGENT}      # no key, no server: an embedded mock

Learn more: contacts <command> --help`,
    );

  // `completion` writes every command's name: it is declared with all of them.
  const named = DECLARATIONS.find((d) => d.names.includes(commandWord(program, argv) ?? ''));
  const declarations = named
    ? [await named.load()]
    : (await import('./commands/all-commands.js')).ALL_COMMANDS;
  for (const declare of declarations) declare(program, io);

  // `help <command>` with a command that does not exist says so, with a suggestion, instead of
  // printing the whole help and exiting as if asked for it.
  program.helpCommand(false);
  program
    .command('help')
    .description('show help for a command')
    .argument('[command...]', 'the command, e.g. `help attrs define`')
    .action(async (words: string[]) => {
      let cmd: CommandUnknownOpts = program;
      for (const word of words) {
        const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!sub) {
          const names = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
          const where = cmd === program ? '' : ` of ${cmd.name()}`;
          const { UsageError } = await import('./errors.js');
          throw new UsageError(`unknown command '${word}'${where}${didYouMean(word, names)}`, {
            hint: `Run \`contacts ${[...words.slice(0, words.indexOf(word)), ''].join(' ')}--help\` to see the commands.`,
          });
        }
        cmd = sub;
      }
      cmd.outputHelp();
    });

  // As gh does: a command's help shows its own options and points at the global ones.
  const globals = program.options.map((o) => o.long).filter((flag) => flag && flag !== '--version');
  const pointer = `\nGlobal options (${globals.slice(0, 5).join(', ')} and ${globals.length - 5} more): see \`contacts --help\`.`;
  const addPointer = (cmd: CommandUnknownOpts) => {
    for (const sub of cmd.commands) {
      sub.addHelpText('after', pointer);
      addPointer(sub);
    }
  };
  addPointer(program);

  return program;
}
