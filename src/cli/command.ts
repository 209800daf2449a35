// Declaring a command, for every declaration module (commands/*-command.ts): the typed loader
// of a command's run, the options the settings and switches tables declare, and the types a
// declaration's options are read as.
import {
  type Command,
  type CommandUnknownOpts,
  Option,
  type OptionValues,
} from '@commander-js/extra-typings';
import {
  SETTINGS,
  type SettingKey,
  type SettingSpec,
  type Settings,
  SWITCHES,
  type SwitchKey,
  settingHelp,
} from '../config/settings.js';
import type { CommandContext } from './context.js';
import type { CliIo } from './io.js';
import type { ContextOptions, GlobalOptions } from './program.js';

/**
 * A command's run: the context, the positional arguments, then the command's own options. The
 * types come from the command's declaration (commander's extra typings): `lazy` only accepts a
 * run whose parameters take what the declared arguments and options give, so a flag and the
 * type its command reads cannot disagree.
 */
type CommandRun<A extends unknown[], O extends OptionValues> = (
  ctx: CommandContext,
  ...args: [...A, O]
) => Promise<void>;

/**
 * Wraps a lazily imported command run (a typed import, so a renamed or missing command is a
 * compile error): builds the command context from the global and local options, runs the
 * command, and always releases what the context opened.
 */
export function lazy<A extends unknown[], O extends OptionValues>(
  io: CliIo,
  load: () => Promise<NoInfer<CommandRun<A, O>>>,
): (...args: [...A, O, CommandUnknownOpts]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as CommandUnknownOpts;
    const positionals = args.slice(0, -2) as A;
    const [{ CommandContext }, run] = await Promise.all([import('./context.js'), load()]);
    const ctx = new CommandContext(io, command.optsWithGlobals() as ContextOptions);
    try {
      await run(ctx, ...positionals, command.opts() as O);
    } catch (error) {
      throw await ctx.explain(error);
    } finally {
      await ctx.close();
    }
  };
}

/** A setting's option, as the settings table declares it (flags, help, choices). */
export function settingOption<K extends SettingKey>(key: K) {
  const spec: SettingSpec<unknown> = SETTINGS[key];
  const option = new Option<Settings[K]['flags']>(SETTINGS[key].flags, settingHelp(key));
  if (spec.choices) option.choices(spec.choices);
  return option;
}

/** An on/off option with its variable, as the switches table declares it. */
export function switchOption<K extends SwitchKey>(key: K) {
  const spec = SWITCHES[key];
  return new Option<(typeof SWITCHES)[K]['flags']>(spec.flags, `${spec.description} (env: ${spec.env}=1)`);
}

/** The program, or a group of commands (`attrs`, `auth`, `config`): what a command is added to. */
export type Parent = Command;
/** A command of the program, before its own arguments and options (commander's `{}`: none yet). */
// biome-ignore lint/complexity/noBannedTypes: the empty options type extra-typings starts a command with.
export type SubCommand = Command<[], {}, GlobalOptions>;
/** The options a command's declaration gives it, as commander's extra typings read them. */
export type OptionsOf<F extends (parent: Parent) => { opts(): unknown }> = ReturnType<ReturnType<F>['opts']>;

/** A command of `parent` that works on an agent's directory: `-a, --agent` is its first option. */
export function agentCommand(parent: Parent, name: string) {
  return (parent.command(name) as unknown as SubCommand).addOption(settingOption('agent'));
}
