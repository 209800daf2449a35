// `contacts completion`: its declaration. The script's generator, ./completion.ts, is loaded
// only when the command runs.
import { Command } from '@commander-js/extra-typings';
import type { Parent } from '../command.js';
import type { CliIo } from '../io.js';
import { SHELLS, type Shell } from '../shells.js';

export function completionCommand(program: Parent, io: CliIo): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Command().createArgument('<shell>', SHELLS.join(', ')).choices(SHELLS))
    .addHelpText(
      'after',
      '\nExample:\n  $ contacts completion bash > ~/.local/share/bash-completion/completions/contacts',
    )
    .action(async (shell: string) => {
      const { completionScript } = await import('./completion.js');
      io.stdout.write(completionScript(program, shell as Shell));
    });
}
