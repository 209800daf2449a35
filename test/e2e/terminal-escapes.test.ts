// Issue "nothing lost, nothing injected", terminal: escape sequences in data are shown, never
// obeyed, in tables, notes, warnings and errors; JSON and CSV data stay exact.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const EVIL = 'Evil\u001b]0;PWNED\u0007\u001b[2J\u009b31m\r\u202e';
// Anything a terminal obeys: C0 controls but the line feed, DEL, C1, and bidi overrides.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const home = useTempHome();

const cli = (argv: string[], tty = true) =>
  runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir, tty });

describe('data shown to a person', () => {
  it('a name with escape sequences cannot retitle or clear the terminal in list and get tables', async () => {
    expect((await cli(['upsert', '--external-id', 'u1', '--name', EVIL], false)).code).toBe(0);
    const list = await cli(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Evil\\e]0;PWNED\\x07\\e[2J');
    expect(list.stdout).not.toMatch(CONTROL_RE);
    const get = await cli(['get', 'u1']);
    expect(get.stdout).toContain('Evil\\e]0;PWNED');
    expect(get.stdout).not.toMatch(CONTROL_RE);
  });

  it('JSON and CSV output keep the data exact', async () => {
    await cli(['upsert', '--external-id', 'u1', '--name', EVIL], false);
    const json = await cli(['get', 'u1', '-o', 'json'], false);
    expect(JSON.parse(json.stdout).name).toBe(EVIL);
    const ndjson = await cli(['list', '-o', 'ndjson'], false);
    expect(JSON.parse(ndjson.stdout.trim()).name).toBe(EVIL);
  });

  it('warnings naming a CSV header show its escapes', async () => {
    const file = join(home.dir, 'in.csv');
    await writeFile(file, `external_id,"bad\u001b[2Jheader"\nu1,x\n`);
    const r = await cli(['import', file], false);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('bad\\e[2Jheader');
    expect(r.stderr).not.toMatch(CONTROL_RE);
  });

  it('errors quoting user input show its escapes (commander echoes argv)', async () => {
    const r = await cli(['lisst\u001b]0;PWNED\u0007'], false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('\\e]0;PWNED\\x07');
    expect(r.stderr).not.toMatch(CONTROL_RE);
  });

  it('a dry run listing rejects shows the escapes in their reasons', async () => {
    const file = join(home.dir, 'in.csv');
    await writeFile(file, `external_id,email\nu1,"not\u001b[2Jan email"\n`);
    const r = await cli(['import', file, '--dry-run'], false);
    expect(r.stderr).toMatch(/line 2:/);
    expect(r.stderr).not.toMatch(CONTROL_RE);
  });
});
