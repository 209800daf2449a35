// What a person at a terminal sees: tables that fit, an empty list said in words, and a
// pagination hint that is a whole command to paste.
import { describe, expect, it } from 'vitest';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

const cli = (argv: string[], tty = false, columns?: number) =>
  runInProcess(argv, { env: home.env, cwd: home.dir, tty, columns });

/** The words of a command as a POSIX shell splits them (bare words and single quotes only). */
const words = (line: string) => [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);

describe('contacts list on a terminal', () => {
  it('fits the terminal width and says "No contacts" instead of drawing an empty box', async () => {
    const empty = await cli(['--mock', 'list'], true, 80);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toMatch(
      /No contacts for agent demo \(the mock's default; --agent picks another\)\./,
    );
    for (let i = 0; i < 3; i++) {
      await cli(['--mock', 'upsert', '-e', `u${i}`, '--name', `A long name ${'x'.repeat(90)}`]);
    }
    const list = await cli(['--mock', 'list'], true, 80);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    const wide = await cli(['--mock', '--no-truncate', 'list'], true, 80);
    expect(wide.stdout).toContain('x'.repeat(90));
  });

  it('prints the whole next command, which runs as printed', async () => {
    for (let i = 0; i < 25; i++) await cli(['--mock', 'upsert', '-e', `u${String(i).padStart(2, '0')}`]);
    const first = await cli(['--mock', 'list', '--agent', 'demo', '--per-page', '10', '-o', 'json']);
    const hint = /Next: (contacts .*?)\s+\(or --all\)/.exec(first.stderr)?.[1];
    expect(hint).toBe('contacts --mock list --agent demo --page 2 --per-page 10 -o json');
    const next = await cli(words(hint!).slice(1));
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout).map((c: { external_id: string }) => c.external_id)[0]).toBe('u10');
  });

  it('quotes values a shell would split', async () => {
    for (let i = 0; i < 11; i++) await cli(['--mock', 'upsert', '--agent', 'my agent', '-e', `u${i}`]);
    const r = await cli(['--mock', 'list', '--agent', 'my agent', '--per-page', '10']);
    expect(r.stderr).toContain("Next: contacts --mock list --agent 'my agent' --page 2 --per-page 10");
  });
});
