// `contacts attrs list|define|update`, run in-process against the embedded mock.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { runInProcess, useTempHome } from '../../helpers/cli.js';

const home = useTempHome();
const cli = (...argv: string[]) =>
  runInProcess(['--mock', ...argv], { env: { ...home.env, CONTACTS_AGENT: 'a1' }, cwd: home.dir });

describe('contacts attrs', () => {
  it('list says how to define one when there are none', async () => {
    const out = await cli('attrs', 'list', '-o', 'json');
    expect(JSON.parse(out.stdout)).toEqual([]);
    expect(out.stderr).toContain(
      'No custom attributes for agent a1. Define one: contacts attrs define <name> --type text',
    );
  });

  it('define prints the definition, label defaulting to the name; list shows it', async () => {
    const out = await cli('attrs', 'define', 'plan', '--type', 'text', '-o', 'json');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({
      name: 'plan',
      type: 'text',
      label: 'plan',
      archived: false,
    });
    expect(out.stderr).toContain('Defined text attribute plan.');
    const list = JSON.parse((await cli('attrs', 'list', '-o', 'json')).stdout);
    expect(list.map((d: { name: string }) => d.name)).toEqual(['plan']);
  });

  it('define of a taken name: conflict, or success with --if-not-exists for the same type only', async () => {
    await cli('attrs', 'define', 'plan', '--type', 'text');
    const again = await cli('attrs', 'define', 'plan', '--type', 'text');
    expect(again.code).toBe(ExitCode.CONFLICT);
    expect(again.stderr).toContain('Attribute plan already exists (type text)');
    expect(again.stderr).toContain('--if-not-exists');
    expect((await cli('attrs', 'define', 'plan', '--type', 'text', '--if-not-exists')).code).toBe(0);
    const other = await cli('attrs', 'define', 'plan', '--type', 'number', '--if-not-exists');
    expect(other.code).toBe(ExitCode.CONFLICT);
    expect(other.stderr).toContain('Attribute plan already exists with type text, not number');
  });

  it('define of an archived name says how to bring it back', async () => {
    await cli('attrs', 'define', 'old', '--type', 'text');
    expect((await cli('attrs', 'update', 'old', '--archive')).stderr).toContain(
      'Updated attribute old (archived).',
    );
    const again = await cli('attrs', 'define', 'old', '--type', 'text', '--if-not-exists');
    expect(again.code).toBe(ExitCode.CONFLICT);
    expect(again.stderr).toContain('contacts attrs update old --unarchive');
  });

  it('update changes label and description, and refuses a call that changes nothing', async () => {
    await cli('attrs', 'define', 'plan', '--type', 'text');
    const out = await cli(
      'attrs',
      'update',
      'plan',
      '--label',
      'Plan',
      '--description',
      'billing plan',
      '-o',
      'json',
    );
    expect(JSON.parse(out.stdout)).toMatchObject({ label: 'Plan', description: 'billing plan' });
    const none = await cli('attrs', 'update', 'plan');
    expect(none.code).toBe(ExitCode.USAGE);
    expect(none.stderr).toContain('Nothing to change');
    expect(none.stderr).toContain('Pass --label, --description, --archive or --unarchive.');
  });
});
