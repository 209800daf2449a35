// CSV for scripts and for spreadsheets: -o csv writes values as they are, export guards against
// spreadsheet formulas unless --raw, and attribute columns follow definition order everywhere.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

const cli = (argv: string[]) => runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir });

async function seed() {
  // Defined zeta first: definition order is not alphabetical order.
  for (const [name, type] of [
    ['zeta', 'text'],
    ['alpha', 'number'],
  ]) {
    expect((await cli(['attrs', 'define', name!, '--type', type!])).code).toBe(0);
  }
  const r = await cli([
    'upsert',
    '-e',
    'u1',
    '--phone',
    '+12125550101',
    '--attr',
    'alpha=2',
    '--attr',
    'zeta=z',
  ]);
  expect(r.code, r.stderr).toBe(0);
}

describe('CSV output', () => {
  it('get, list, list --all, upsert and export put attribute columns in definition order', async () => {
    await seed();
    const header = (text: string) => text.split('\n')[0]!;
    const expected =
      'id,external_id,name,email,phonenumber,stripe_accounts,created_at,updated_at,attr.zeta,attr.alpha';
    expect(header((await cli(['get', 'u1', '-o', 'csv'])).stdout)).toBe(expected);
    expect(header((await cli(['list', '-o', 'csv'])).stdout)).toBe(expected);
    expect(header((await cli(['list', '--all', '-o', 'csv'])).stdout)).toBe(expected);
    expect(header((await cli(['upsert', '-e', 'u1', '--name', 'Ada', '-o', 'csv'])).stdout)).toBe(expected);
    expect(header((await cli(['export'])).stdout)).toBe(expected);
  });

  it.each([[['-o', 'json']], [['-o', 'ndjson']], [['--out', 'all.json']]])(
    'export --raw is refused for %j: only CSV changes values',
    async (args) => {
      const r = await cli(['export', '--raw', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/error: --raw is for CSV: n?d?json never changes a value/);
    },
  );

  it('-o csv writes values as they are; export guards against formulas, and --raw does not', async () => {
    await seed();
    expect((await cli(['get', 'u1', '-o', 'csv'])).stdout).toContain(',+12125550101,');
    expect((await cli(['list', '-o', 'csv'])).stdout).toContain(',+12125550101,');
    expect((await cli(['export'])).stdout).toContain(",'+12125550101,");
    expect((await cli(['export', '--out', 'guarded.csv'])).code).toBe(0);
    expect(await readFile(join(home.dir, 'guarded.csv'), 'utf8')).toContain(",'+12125550101,");
    expect((await cli(['export', '--raw', '--out', 'raw.csv'])).code).toBe(0);
    expect(await readFile(join(home.dir, 'raw.csv'), 'utf8')).toContain(',+12125550101,');
  });

  it('--help says which one -o csv gives', async () => {
    const top = await runInProcess(['--help']);
    expect(top.stdout.replace(/\s+/g, ' ')).toContain(
      'csv gives values as they are (only export guards against spreadsheet formulas)',
    );
    const exp = await runInProcess(['export', '--help']);
    expect(exp.stdout).toContain('--raw');
    expect(exp.stdout).toContain('-o csv on the other commands writes values as they are.');
  });
});
