// An attribute called `constructor` (a valid name) is a name like any other on every path of the
// CLI: a contact without a value has none, in an export and in a dry run's plan.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

const cli = (argv: string[]) => runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir });

describe('an attribute named constructor', () => {
  it('exports as an empty cell where a contact has no value, and round-trips exactly', async () => {
    await cli(['attrs', 'define', 'constructor', '--type', 'text']);
    await cli(['upsert', '-e', 'a1']);
    await cli(['upsert', '-e', 'a2', '--attr', 'constructor=x']);
    const exported = await cli(['export', '-o', 'csv']);
    expect(exported.code).toBe(0);
    const rows = exported.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/,attr\.constructor$/);
    expect(rows[1]).toMatch(/^ct_\w+,a1,.*,$/);
    expect(exported.stdout).not.toMatch(/function|native code/);

    await writeFile(join(home.dir, 'all.csv'), exported.stdout);
    const before = JSON.parse((await cli(['list', '-o', 'json'])).stdout);
    const dry = await cli(['import', 'all.csv', '--dry-run', '-o', 'json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ unchanged: 2, would_update: 0, would_create: 0 });
    await cli(['delete', 'a1', '--yes']);
    await cli(['delete', 'a2', '--yes']);
    expect((await cli(['import', 'all.csv'])).code).toBe(0);
    const after = JSON.parse((await cli(['list', '-o', 'json'])).stdout);
    const fields = (list: { external_id: string; custom_attributes: object }[]) =>
      list.map((c) => [c.external_id, c.custom_attributes]).sort();
    expect(fields(after)).toEqual(fields(before));
    expect(fields(after)).toEqual([
      ['a1', {}],
      ['a2', { constructor: 'x' }],
    ]);
  });

  it('a dry run plans a first value as null -> value', async () => {
    await cli(['attrs', 'define', 'constructor', '--type', 'text']);
    await cli(['upsert', '-e', 'a1']);
    await writeFile(join(home.dir, 'd.csv'), 'external_id,attr.constructor\na1,y\n');
    const r = await cli(['import', 'd.csv', '--dry-run', '--diff', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('"changes":{"custom_attributes.constructor":[null,"y"]}');
  });
});
