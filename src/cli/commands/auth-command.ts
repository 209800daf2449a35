// `contacts auth login`, `status` and `logout`: their declarations. The runs, ./auth.ts, are
// loaded only when a command runs.
import { agentCommand, lazy, type OptionsOf, type Parent } from '../command.js';
import type { CliIo } from '../io.js';

/** `contacts auth login`; `LoginCommandOptions` is read from here. */
function declareLogin(auth: Parent) {
  return agentCommand(auth, 'login')
    .description('store a bk_ workspace key (hidden prompt, or stdin with --with-key)')
    .option('--with-key', 'read the key from stdin, e.g. `contacts auth login --with-key < key.txt`')
    .addHelpText(
      'after',
      `
The key is stored in the profile named by --profile (default: "default"), with --base-url if given.
When an agent is known (--agent, CONTACTS_AGENT or the profile), the key is checked first with one
call to the service: a key it refuses is not stored (exit 3). Otherwise it is stored unverified.`,
    );
}

export type LoginCommandOptions = OptionsOf<typeof declareLogin>;

export function authCommand(program: Parent, io: CliIo): void {
  const auth = program.command('auth').description('store, check and remove the workspace key');
  declareLogin(auth).action(lazy(io, async () => (await import('./auth.js')).login));
  auth
    .command('status')
    .description('show the base URL, profile and key in use (masked), and where each came from')
    .action(lazy(io, async () => (await import('./auth.js')).status));
  auth
    .command('logout')
    .description("remove the profile's stored key (--profile picks the profile)")
    .action(lazy(io, async () => (await import('./auth.js')).logout));
}
