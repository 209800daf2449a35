// Each command takes its options' type from the options it declares (commander's extra typings),
// so a flag and its type cannot drift apart. Checked by tsc (the suite's typecheck) and here.
import { describe, expectTypeOf, it } from 'vitest';
import type { HttpMethod } from '../../src/api/operations.js';
import type { api } from '../../src/cli/commands/api.js';
import type { ApiCommandOptions } from '../../src/cli/commands/api-command.js';
import type { login } from '../../src/cli/commands/auth.js';
import type { LoginCommandOptions } from '../../src/cli/commands/auth-command.js';
import type { list, remove } from '../../src/cli/commands/contacts.js';
import type { DeleteCommandOptions, ListCommandOptions } from '../../src/cli/commands/contacts-command.js';
import type { exportContacts } from '../../src/cli/commands/export.js';
import type { ExportCommandOptions } from '../../src/cli/commands/export-command.js';
import type { ContactsClient } from '../../src/client/client.js';

describe('command option types', () => {
  it('come from the declarations', () => {
    expectTypeOf<Parameters<typeof list>[1]>().toEqualTypeOf<ListCommandOptions>();
    expectTypeOf<Parameters<typeof remove>[2]>().toEqualTypeOf<DeleteCommandOptions>();
    expectTypeOf<Parameters<typeof exportContacts>[1]>().toEqualTypeOf<ExportCommandOptions>();
    expectTypeOf<Parameters<typeof api>[3]>().toEqualTypeOf<ApiCommandOptions>();
    expectTypeOf<Parameters<typeof login>[1]>().toEqualTypeOf<LoginCommandOptions>();
    expectTypeOf<DeleteCommandOptions>().toHaveProperty('dryRun');
    expectTypeOf<ExportCommandOptions['raw']>().toEqualTypeOf<true | undefined>();
  });

  it('name the HTTP methods once, for the command, the client and the transport', () => {
    expectTypeOf<Parameters<typeof api>[1]>().toEqualTypeOf<HttpMethod>();
    expectTypeOf<Parameters<ContactsClient['request']>[0]>().toEqualTypeOf<HttpMethod>();
  });
});
