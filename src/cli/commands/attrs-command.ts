// `contacts attrs list`, `define` and `update`: their declarations. The runs, ./attrs.ts, are
// loaded only when a command runs.
import { Option } from '@commander-js/extra-typings';
import { ATTRIBUTE_TYPES } from '../../api/limits.js';
import { agentCommand, lazy, type Parent } from '../command.js';
import type { CliIo } from '../io.js';

export function attrsCommand(program: Parent, io: CliIo): void {
  const attrs = program.command('attrs').description('list and define typed custom attributes');
  agentCommand(attrs, 'list')
    .alias('ls')
    .description("list the agent's custom attribute definitions, archived ones too")
    .action(lazy(io, async () => (await import('./attrs.js')).list));
  agentCommand(attrs, 'define')
    .description('define a typed custom attribute')
    .argument('<name>', 'lowercase letters, digits and _, starting with a letter')
    .addOption(new Option('-t, --type <type>', 'value type').choices(ATTRIBUTE_TYPES).makeOptionMandatory())
    .option('--label <label>', 'human-readable label (default: the name)')
    .option('--description <text>', 'what the attribute means')
    .option('--if-not-exists', 'succeed if it already exists with the same type (for seeding scripts)')
    .action(lazy(io, async () => (await import('./attrs.js')).define));
  agentCommand(attrs, 'update')
    .description("change an attribute's label or description, or archive it (the type never changes)")
    .argument('<name>', 'the attribute name')
    .option('--label <label>', 'new label')
    .option('--description <text>', 'new description')
    .addOption(
      new Option('--archive', 'archive: values are kept, only null is accepted').conflicts('unarchive'),
    )
    .option('--unarchive', 'accept values again')
    .action(lazy(io, async () => (await import('./attrs.js')).update));
}
