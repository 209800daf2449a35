// `contacts config get`, `set`, `unset` and `list`, and `config --help`'s table of settings. The
// runs, ./config.ts, are loaded only when a command runs.
import { SETTING_NAMES, SETTINGS, type SettingSpec } from '../../config/settings.js';
import { lazy, type Parent } from '../command.js';
import type { CliIo } from '../io.js';

/**
 * `contacts config --help`: every setting, its variable and its flag, and the order they win in.
 * Read from the settings table, so a new setting is listed as soon as it is declared.
 */
function settingsHelp(): string {
  const rows = SETTING_NAMES.map((key) => {
    const spec: SettingSpec<unknown> = SETTINGS[key];
    const long = spec.flags.replace(/^-\w, /, '').replace(/ <.*$/, '');
    return [key, spec.description, `${long}${spec.env ? `, ${spec.env}` : ''}`];
  });
  const width = Math.max(...rows.map(([key]) => key!.length));
  return [
    'Settings (a flag wins over its variable, which wins over the profile):',
    ...rows.map(([key, description, sources]) => `  ${key!.padEnd(width)}  ${description} (${sources})`),
    '',
    'The API key is never a setting: `contacts auth login` stores it; CONTACTS_API_KEY, then',
    'CONTACTS_API_KEY_FILE (a file whose first line is the key) win over the stored one.',
  ].join('\n');
}

export function configCommand(program: Parent, io: CliIo): void {
  const settingWords = `${SETTING_NAMES.slice(0, -1).join(', ')} or ${SETTING_NAMES.at(-1)}`;
  const config = program
    .command('config')
    .description(`read and change settings: ${SETTING_NAMES.join(', ')}`)
    .addHelpText('after', () => `\n${settingsHelp()}`);
  config
    .command('get')
    .description('print one setting of the profile')
    .argument('<key>', settingWords)
    .action(lazy(io, async () => (await import('./config.js')).get));
  config
    .command('set')
    .description('change one setting of the profile')
    .argument('<key>', settingWords)
    .argument('<value>', 'the new value')
    .action(lazy(io, async () => (await import('./config.js')).set));
  config
    .command('unset')
    .description('remove one setting from the profile')
    .argument('<key>', settingWords)
    .action(lazy(io, async () => (await import('./config.js')).unset));
  config
    .command('list')
    .description("list the profile's settings and the config file's path")
    .action(lazy(io, async () => (await import('./config.js')).list));
}
