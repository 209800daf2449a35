// The entry point: runs the program, and decides the exit code and the error lines.
import { describe, expect, it } from 'vitest';
import { run, versionLine } from '../../src/cli/main.js';
import { VERSION } from '../../src/core/version.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

describe('run', () => {
  it('answers --version and -V with the version, Node.js and the platform', async () => {
    expect(versionLine()).toBe(
      `contacts version ${VERSION} (Node.js ${process.version}; ${process.platform} ${process.arch})`,
    );
    for (const flag of ['--version', '-V']) {
      const out = await runInProcess([flag], { env: home.env, cwd: home.dir });
      expect(out).toEqual({ code: 0, stdout: `${versionLine()}\n`, stderr: '' });
    }
  });

  it('turns an error into its exit code and error: and hint: lines, in colour only on a colour terminal', async () => {
    const plain = await runInProcess(['get', 'u1', '--agent', 'a1'], { env: home.env, cwd: home.dir });
    // No key anywhere: the credentials' exit code, with what to do.
    expect(plain.code).toBe(3);
    expect(plain.stderr).toMatch(/^error: /m);
    expect(plain.stderr).toMatch(/^hint: /m);
    expect(plain.stderr).not.toContain('\u001b[');
    const env = { ...home.env, NO_COLOR: undefined, FORCE_COLOR: '1' };
    const coloured = await runInProcess(['get', 'u1', '--agent', 'a1'], { env, cwd: home.dir, tty: true });
    expect(coloured.code).toBe(3);
    expect(coloured.stderr).toContain('\u001b[1;31merror:\u001b[0m');
    expect(coloured.stderr).toContain('\u001b[2mhint:\u001b[0m');
  });

  it('never prints the key in CONTACTS_API_KEY, whatever the error quotes', async () => {
    const key = 'bk_live_secretvalue123';
    const out = await runInProcess([key], { env: { ...home.env, CONTACTS_API_KEY: key }, cwd: home.dir });
    expect(out.code).toBe(2);
    expect(out.stdout + out.stderr).not.toContain('secretvalue123');
  });

  it('returns the exit code a finished command asked for', async () => {
    const io = {
      stdout: { write: () => true },
      stderr: { write: () => true },
      stdin: process.stdin,
      env: home.env,
      cwd: home.dir,
    };
    expect(await run(['config', 'list'], io)).toBe(0);
    expect(await run(['no-such-command'], io)).toBe(2);
  });
});
