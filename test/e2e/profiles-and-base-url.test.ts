// What a new user hits first: no base URL, a mistyped profile. Each is said plainly, at once,
// with the documented exit code and a hint that is a command to run.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

const KEY = 'bk_live_settings_1234';
const cli = (argv: string[], env: NodeJS.ProcessEnv = {}, stdin?: string) =>
  runInProcess(argv, { env: { ...home.env, ...env }, cwd: home.dir, stdin });

describe('no base URL', () => {
  it('is said at once, with how to set one, instead of a DNS failure retried', async () => {
    const r = await cli(['list', '--agent', 'a'], { CONTACTS_API_KEY: KEY });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/^error: No base URL set: which Contacts API should this talk to\?/);
    expect(r.stderr).toContain('`contacts config set base-url https://...`');
    expect(r.stderr).not.toMatch(/retrying|could not reach/i);
  });

  it('auth status shows none rather than a placeholder', async () => {
    const r = await cli(['auth', 'status', '-o', 'json'], { CONTACTS_API_KEY: KEY });
    expect(JSON.parse(r.stdout)).toMatchObject({ base_url: null, base_url_source: 'none' });
  });
});

describe('--profile', () => {
  it('naming a profile that does not exist is an error naming those that do', async () => {
    expect((await cli(['--profile', 'work', 'config', 'set', 'agent', 'a1'])).code).toBe(0);
    const r = await cli(['--profile', 'wrok', 'list']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/No profile "wrok" \(from --profile\)/);
    expect(r.stderr).toMatch(/Profiles: work\./);
    expect(r.stderr).toContain('`contacts --profile wrok auth login`');
    const env = await cli(['list'], { CONTACTS_PROFILE: 'wrok' });
    expect(env.stderr).toMatch(/No profile "wrok" \(from CONTACTS_PROFILE\)/);
  });

  it('a new profile is created by auth login and config set, and default always exists', async () => {
    expect((await cli(['--profile', 'fresh', 'auth', 'login', '--with-key'], {}, KEY)).code).toBe(0);
    expect((await cli(['--profile', 'fresh', 'auth', 'status', '-o', 'json'])).code).toBe(0);
    expect((await cli(['config', 'list', '-o', 'json'])).code).toBe(0);
  });
});
