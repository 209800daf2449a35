// The entry point: runs the program, and decides the exit code and the error lines.
import { describe, expect, it } from 'vitest';
import { run, versionLine } from '../../src/cli/main.js';
import { VERSION } from '../../src/core/version.js';
import { envFor, runBin, runInProcess, useTempHome } from '../helpers/cli.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';

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

// The binary's end: it exits as soon as the command is done, and nothing it wrote is lost on the
// way (a pipe holds 64 KiB; the rest must still reach the reader), nor its exit code.
describe('contacts as a process', () => {
  it('writes a page far larger than a pipe holds to the end, then exits 0', async () => {
    const mock = await startTestMock();
    const users = Array.from({ length: 1000 }, (_, i) => ({
      external_id: `u${i}`,
      name: `Contact ${i} ${'x'.repeat(200)}`,
      email: `u${i}@example.com`,
    }));
    const res = await fetch(`${mock.url}/api/v1/chatbots/${AGENT}/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ users }),
    });
    expect(res.status).toBe(200);

    const result = await runBin(['list', '--per-page', '1000', '-o', 'json'], {
      env: envFor(home, mock, { CONTACTS_AGENT: AGENT }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(256 * 1024);
    const listed = JSON.parse(result.stdout) as { external_id: string }[];
    expect(listed.map((c) => c.external_id)).toEqual(users.map((u) => u.external_id));
  });

  it("keeps a failing command's exit code and its whole message", async () => {
    const mock = await startTestMock();
    const result = await runBin(['get', 'nobody', '-o', 'json'], {
      env: envFor(home, mock, { CONTACTS_AGENT: AGENT }),
    });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*\n/);
  });
});
