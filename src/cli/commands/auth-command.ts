// `contacts auth login`, `status` and `logout`: their declarations. The runs, ./auth.ts, are
// loaded only when a command runs.
import { agentOption, lazy, type OptionsOf, type Parent, type SubCommand } from '../command.js';
import type { CliIo } from '../io.js';

/** `auth login`'s options; `LoginCommandOptions` is read from here. */
function loginOptions(cmd: SubCommand) {
  return cmd
    .option('--with-key', 'read the key from stdin, e.g. `contacts auth login --with-key < key.txt`')
    .addOption(agentOption())
    .addHelpText(
      'after',
      `
The key is stored in the profile named by --profile (default: "default"), with --base-url if given.
When an agent is known (--agent, CONTACTS_AGENT or the profile), the key is checked first with one
call to the service: a key it refuses is not stored (exit 3). Otherwise it is stored unverified.`,
    );
}

export type LoginCommandOptions = OptionsOf<typeof loginOptions>;

export function authCommand(program: Parent, io: CliIo): void {
  const auth = program.command('auth').description('store, check and remove the workspace key');
  loginOptions(
    auth.command('login').description('store a bk_ workspace key (hidden prompt, or stdin with --with-key)'),
  ).action(lazy(io, async () => (await import('./auth.js')).login));
  auth
    .command('status')
    .description('show the base URL, profile and key in use (masked), and where each came from')
    .action(lazy(io, async () => (await import('./auth.js')).status));
  auth
    .command('logout')
    .description("remove the profile's stored key (--profile picks the profile)")
    .action(lazy(io, async () => (await import('./auth.js')).logout));
}
