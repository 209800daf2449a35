// `contacts template`: the file to fill for an agent, in every format, named as import maps it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { runInProcess, useTempHome } from '../../helpers/cli.js';

const home = useTempHome();
const cli = (argv: string[], tty = false) =>
  runInProcess(['--mock', ...argv], { env: { ...home.env, CONTACTS_AGENT: 'a1' }, cwd: home.dir, tty });

describe('contacts template', () => {
  it('a CSV header of the contact fields and the active attributes, with how to import it', async () => {
    await cli(['attrs', 'define', 'plan', '--type', 'text']);
    await cli(['attrs', 'define', 'old', '--type', 'text']);
    await cli(['attrs', 'update', 'old', '--archive']);
    const out = await cli(['template', '-o', 'csv']);
    expect(out.code).toBe(0);
    const header = out.stdout.split(/\r?\n/)[0];
    expect(header).toMatch(/^external_id,name,email,phonenumber,stripe_accounts,/);
    expect(header).toContain('plan');
    expect(header).not.toContain('old');
    expect(out.stderr).toContain('contacts import <file> --agent a1');
  });

  it('--out writes the file, and the filled template imports', async () => {
    await cli(['attrs', 'define', 'plan', '--type', 'text']);
    const file = join(home.dir, 'fill.csv');
    expect((await cli(['template', '--out', file])).code).toBe(0);
    const header = (await readFile(file, 'utf8')).split(/\r?\n/)[0]!;
    const cells = header
      .split(',')
      .map((h) => (h === 'external_id' ? 'u1' : h.includes('plan') ? 'pro' : ''));
    await import('node:fs/promises').then((fs) => fs.writeFile(file, `${header}\n${cells.join(',')}\n`));
    expect((await cli(['import', file])).code).toBe(0);
    const got = JSON.parse((await cli(['get', 'u1', '-o', 'json'])).stdout);
    expect(got.custom_attributes).toEqual({ plan: 'pro' });
  });

  it('a workbook goes to a file, never to a terminal', async () => {
    const out = await cli(['template', '-o', 'xlsx'], true);
    expect(out.code).toBe(ExitCode.USAGE);
    expect(out.stderr).toContain('A workbook is not text for a terminal');
  });
});
