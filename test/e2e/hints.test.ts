// Hints that take the user the last step: each error names what to type instead.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { refusedPort } from '../helpers/refused-port.js';

const home = useTempHome();

const cli = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  runInProcess(argv, { env: { ...home.env, ...env }, cwd: home.dir });

describe('hints', () => {
  it('a base URL without a scheme suggests http:// for this machine, https:// elsewhere', async () => {
    const local = await cli(['config', 'set', 'base-url', 'localhost:4010']);
    expect(local.code).toBe(ExitCode.USAGE);
    expect(local.stderr).toContain('hint: Did you mean http://localhost:4010?');
    const ip = await cli(['config', 'set', 'base-url', '127.0.0.1:4010']);
    expect(ip.stderr).toContain('hint: Did you mean http://127.0.0.1:4010?');
    const remote = await cli(['config', 'set', 'base-url', 'api.example.com']);
    expect(remote.stderr).toContain('hint: Did you mean https://api.example.com?');
    // Where a server listens, not an address of this machine to reach it at.
    const any = await cli(['config', 'set', 'base-url', '0.0.0.0:4010']);
    expect(any.stderr).toContain('hint: Did you mean http://127.0.0.1:4010?');
    const any6 = await cli(['config', 'set', 'base-url', '[::]:4010/v1']);
    expect(any6.stderr).toContain('hint: Did you mean http://[::1]:4010/v1?');
  });

  it('--map Plan=plan suggests attr.plan when the agent has that attribute', async () => {
    expect((await cli(['--mock', 'attrs', 'define', 'plan', '--type', 'text'])).code).toBe(0);
    await writeFile(join(home.dir, 'in.csv'), 'id,Plan\nu1,pro\n');
    const r = await cli(['--mock', 'import', 'in.csv', '--map', 'Plan=plan']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('unknown field "plan"');
    expect(r.stderr).toContain('hint: plan is a custom attribute: --map "Plan=attr.plan".');
    const other = await cli(['--mock', 'import', 'in.csv', '--map', 'Plan=tier']);
    expect(other.stderr).not.toContain('custom attribute');
  });

  it('upsert --unset says that update clears fields', async () => {
    const r = await cli(['--mock', 'upsert', '-e', 'u1', '--unset', 'email']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('upsert sets fields; it does not clear them');
    expect(r.stderr).toContain(
      'hint: To clear a field, update the contact: contacts update u1 --unset email',
    );
  });

  it('attrs define of an archived name says it is archived and how to bring it back', async () => {
    expect((await cli(['--mock', 'attrs', 'define', 'tier', '--type', 'text'])).code).toBe(0);
    expect((await cli(['--mock', 'attrs', 'update', 'tier', '--archive'])).code).toBe(0);
    const r = await cli(['--mock', 'attrs', 'define', 'tier', '--type', 'number']);
    expect(r.code).toBe(ExitCode.CONFLICT);
    expect(r.stderr).toContain('Attribute tier already exists, archived (type text)');
    expect(r.stderr).toContain('contacts attrs update tier --unarchive');
    expect(r.stderr).toContain('another name');
    const live = await cli(['--mock', 'attrs', 'define', 'plan2', '--type', 'text']);
    expect(live.code).toBe(0);
    const again = await cli(['--mock', 'attrs', 'define', 'plan2', '--type', 'text']);
    expect(again.code).toBe(ExitCode.CONFLICT);
    expect(again.stderr).toContain('--if-not-exists');
  });

  it('a server that is not there is said once, after the two tries the docs promise', async () => {
    const port = await refusedPort();
    const r = await cli(['get', 'u1', '--agent', 'a'], {
      CONTACTS_API_KEY: 'bk_live_hints_1234',
      CONTACTS_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(r.code).toBe(ExitCode.NETWORK);
    expect(r.stderr.match(/Could not reach/g)).toHaveLength(1);
    expect(r.stderr.match(/ECONNREFUSED/g)).toHaveLength(1);
    expect(r.stderr).toContain('2 tries 500ms apart');
    expect(r.stderr).not.toContain('retrying');
  });
});
