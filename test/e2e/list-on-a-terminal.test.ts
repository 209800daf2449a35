// What a person at a terminal sees: tables that fit, with whole ids, emails and phone numbers,
// an empty list said in words, and a pagination hint that is a whole command to paste.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CONTACT_COLUMN_NAMES } from '../../src/cli/output/contact-columns.js';
import { BIN, runInProcess, useTempHome } from '../helpers/cli.js';

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

/** Three contacts as a CRM export brings them: long ids, E.164 phones, a long name. */
async function seedPeople(): Promise<void> {
  expect((await cli(['--mock', 'attrs', 'define', 'plan', '--type', 'text'])).code).toBe(0);
  const people = [
    ['hs-51234567842', 'Ada Lovelace', 'ada.lovelace@example.com', '+442079460958'],
    [
      'hs-51234567843',
      'Charles Babbage of the Difference Engine',
      'charles.babbage@example.org',
      '+14155550123',
    ],
    ['hs-51234567844', 'Grace Hopper', 'grace.hopper@navy.example.mil', '+61291234567'],
  ] as const;
  for (const [id, name, email, phone] of people) {
    const r = await cli([
      '--mock',
      'upsert',
      '-e',
      id,
      '--name',
      name,
      '--email',
      email,
      '--phone',
      phone,
      '--attr',
      'plan=pro',
    ]);
    expect(r.code, r.stderr).toBe(0);
  }
}

const WHOLE = [
  'hs-51234567842',
  'ada.lovelace@example.com',
  '+442079460958',
  'hs-51234567843',
  'charles.babbage@example.org',
  '+14155550123',
  'hs-51234567844',
  'grace.hopper@navy.example.mil',
  '+61291234567',
];

/** Whether util-linux's `script` (a pseudo-terminal for a command) is here: Linux, as in CI. */
const hasScript =
  spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux') === true;

describe('contacts list at 80 columns', () => {
  it('shows whole ids, emails and phone numbers, leaving out empty and low-value columns', async () => {
    await seedPeople();
    const list = await cli(['--mock', 'list'], true, 80);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual(['EXTERNAL_ID', 'NAME', 'EMAIL', 'PHONENUMBER']);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    for (const whole of WHOLE) expect(list.stdout).toContain(whole);
    // The long name is what gives way.
    expect(list.stdout).toContain('Ada Lovelace');
    expect(list.stdout).toMatch(/Charles Babbage\S*( \S+)*…/);
    // Wider, the attributes and the time come back; stripe stays out: no contact has one.
    const wide = await cli(['--mock', 'list'], true, 160);
    expect(wide.stdout.split('\n')[0]!.split(/\s+/)).toEqual([
      'EXTERNAL_ID',
      'NAME',
      'EMAIL',
      'PHONENUMBER',
      'ATTRIBUTES',
      'UPDATED_AT',
    ]);
  });

  it.skipIf(!hasScript)('does so at a real terminal (script, stty cols 80)', async () => {
    await seedPeople();
    const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    const command = `stty cols 80 rows 24; exec ${quote(process.execPath)} ${quote(BIN)} --mock list`;
    const run = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: home.dir,
      env: home.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout.replaceAll('\r', '');
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EXTERNAL_ID\s+NAME\s+EMAIL\s+PHONENUMBER$/);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    for (const whole of WHOLE) expect(out).toContain(whole);
  });

  it('--columns draws the columns asked for, and refuses an unknown one naming the right ones', async () => {
    await seedPeople();
    const chosen = await cli(['--mock', 'list', '--columns', 'email,id,attr.plan'], true, 80);
    expect(chosen.code).toBe(0);
    const lines = chosen.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/\s+/)).toEqual(['EMAIL', 'ID', 'ATTR.PLAN']);
    expect(lines[1]).toMatch(/^ada\.lovelace@example\.com\s+ct_\w+\s+pro$/);

    const typo = await cli(['--mock', 'list', '--columns', 'external_id,phone_number'], true, 80);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain('--columns: unknown column "phone_number" (did you mean phonenumber?)');
    expect(typo.stderr).toContain(`Columns: ${CONTACT_COLUMN_NAMES.join(', ')}, or attr.<name>`);

    const json = await cli(['--mock', 'list', '--columns', 'email', '-o', 'json']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(json.stderr).toContain("--columns chooses a table's columns, not those of -o json");
  });

  it('--help names every column --columns takes', async () => {
    const help = await cli(['list', '--help']);
    const text = help.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`--columns <list>`);
    expect(text).toContain(`${CONTACT_COLUMN_NAMES.join(', ')}, attr.<name>`);
  });
});
