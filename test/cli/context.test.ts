// The command context: a key the service refuses is named by where it came from, so the hint
// says what to change; under --mock the agent is the run's or the mock's own, never the profile's.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { startTestMock, TEST_KEY } from '../helpers/mock.js';

const home = useTempHome();
const WRONG = 'bk_nope_0123456789';

const cli = (argv: string[], env: NodeJS.ProcessEnv = {}, stdin?: string) =>
  runInProcess(argv, {
    env: { ...home.env, ...env },
    cwd: home.dir,
    ...(stdin === undefined ? {} : { stdin }),
  });

describe('a refused key', () => {
  it('from CONTACTS_API_KEY: says so, and to set it or unset it, not to log in', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY] });
    const r = await cli(['list', '--agent', 'a1'], { CONTACTS_API_KEY: WRONG, CONTACTS_BASE_URL: mock.url });
    expect(r.code).toBe(ExitCode.AUTH);
    expect(r.stderr).toMatch(/^error: The service refused the API key from CONTACTS_API_KEY: .*\(HTTP 401/m);
    expect(r.stderr).toContain(
      "hint: CONTACTS_API_KEY holds a key the service refused: set it to a valid key, or unset it to use the profile's",
    );
    expect(r.stderr).not.toContain(WRONG);
  });

  it('from CONTACTS_API_KEY_FILE: names the file', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY] });
    const file = join(home.dir, 'key.txt');
    await writeFile(file, `${WRONG}\n`);
    await chmod(file, 0o600);
    const r = await cli(['list', '--agent', 'a1'], {
      CONTACTS_API_KEY_FILE: file,
      CONTACTS_BASE_URL: mock.url,
    });
    expect(r.code).toBe(ExitCode.AUTH);
    expect(r.stderr).toContain(
      `error: The service refused the API key from CONTACTS_API_KEY_FILE (${file}):`,
    );
    expect(r.stderr).toContain('put a valid key on its first line, or unset CONTACTS_API_KEY_FILE');
  });

  it('from the profile: names the profile and how to log in to it', async () => {
    const mock = await startTestMock({ keys: [TEST_KEY] });
    const login = await cli(
      ['--profile', 'work', 'auth', 'login', '--with-key', '--base-url', mock.url],
      {},
      `${WRONG}\n`,
    );
    expect(login.code).toBe(0);
    const r = await cli(['--profile', 'work', 'list', '--agent', 'a1']);
    expect(r.code).toBe(ExitCode.AUTH);
    expect(r.stderr).toMatch(/^error: The service refused the API key from profile "work" in .*config/m);
    expect(r.stderr).toContain(
      'hint: Run `contacts --profile work auth login` to store a valid key (profile "work").',
    );
  });
});

describe('the embedded mock and the profile agent', () => {
  const ndjson = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).external_id);

  it('--mock list after `config set agent` shows the embedded directory, not an empty one', async () => {
    const upsert = await cli(['--mock', 'upsert', '--external-id', 'u1', '--name', 'Ada']);
    expect(upsert.code).toBe(0);
    expect((await cli(['config', 'set', 'agent', 'acme'])).code).toBe(0);
    const r = await cli(['--mock', 'list', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout)).toEqual(['u1']);
    // Every command of the mock takes the same agent: the export sees the same contact.
    const exported = await cli(['--mock', 'export', '-o', 'ndjson']);
    expect(ndjson(exported.stdout)).toEqual(['u1']);
  });

  it('still takes the agent given for the run, by flag or variable', async () => {
    expect((await cli(['--mock', 'upsert', '--agent', 'acme', '--external-id', 'a1'])).code).toBe(0);
    expect((await cli(['config', 'set', 'agent', 'other'])).code).toBe(0);
    expect(ndjson((await cli(['--mock', 'list', '--agent', 'acme', '-o', 'ndjson'])).stdout)).toEqual(['a1']);
    expect(
      ndjson((await cli(['--mock', 'list', '-o', 'ndjson'], { CONTACTS_AGENT: 'acme' })).stdout),
    ).toEqual(['a1']);
  });

  it('an empty directory says which agent it used and why', async () => {
    expect((await cli(['config', 'set', 'agent', 'acme'])).code).toBe(0);
    const r = await cli(['--mock', 'list', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("No contacts for agent demo (the mock's default; --agent picks another).\n");
    expect(r.stderr).toContain("The profile's agent acme is for the service, not for --mock.\n");
    // Each line fits an 80-column terminal.
    for (const line of r.stderr.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const given = await cli(['--mock', 'list', '--agent', 'x', '-o', 'ndjson']);
    expect(given.stderr).toContain('No contacts for agent x.');
  });
});
