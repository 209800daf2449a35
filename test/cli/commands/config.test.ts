// `contacts config get|set|unset|list`: per-profile settings in a temporary config directory.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { runInProcess, useTempHome } from '../../helpers/cli.js';

const home = useTempHome();
const cli = (...argv: string[]) => runInProcess(argv, { env: home.env, cwd: home.dir });

describe('contacts config', () => {
  it('set stores a value checked and normalised; get prints it alone', async () => {
    const set = await cli('config', 'set', 'base-url', 'https://api.example.com/');
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('Set base-url to https://api.example.com in profile "default".');
    expect(await cli('config', 'get', 'base-url')).toEqual({
      code: 0,
      stdout: 'https://api.example.com\n',
      stderr: '',
    });
  });

  it('get of a setting not set prints nothing and exits 1, as git config does', async () => {
    expect(await cli('config', 'get', 'agent')).toEqual({ code: ExitCode.FAILURE, stdout: '', stderr: '' });
  });

  it('refuses an unknown setting with a suggestion, and a bad value naming the setting', async () => {
    const unknown = await cli('config', 'set', 'agnet', 'a1');
    expect(unknown.code).toBe(ExitCode.USAGE);
    expect(unknown.stderr).toContain('Unknown setting: agnet (did you mean agent?)');
    const bad = await cli('config', 'set', 'timeout', 'forever');
    expect(bad.code).toBe(ExitCode.USAGE);
    expect(bad.stderr).toMatch(/Invalid timeout/);
    expect((await cli('config', 'get', 'timeout')).code).toBe(ExitCode.FAILURE);
  });

  it('unset removes a value, and says so when there was none', async () => {
    await cli('config', 'set', 'agent', 'a1');
    expect((await cli('config', 'unset', 'agent')).stderr).toContain('Removed agent from profile "default".');
    expect((await cli('config', 'unset', 'agent')).stderr).toContain(
      'agent was not set in profile "default".',
    );
  });

  it('list shows every setting of the profile, null where unset, and the file', async () => {
    await cli('--profile', 'work', 'config', 'set', 'agent', 'a9');
    const record = JSON.parse((await cli('--profile', 'work', 'config', 'list', '-o', 'json')).stdout);
    expect(record).toMatchObject({ profile: 'work', agent: 'a9', 'base-url': null, timeout: null });
    expect(record.config_file).toContain(home.dir);
    // Profiles are apart.
    expect(JSON.parse((await cli('config', 'list', '-o', 'json')).stdout).agent).toBeNull();
  });
});
