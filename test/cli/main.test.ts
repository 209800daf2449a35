// The binary's end: it exits as soon as the command is done, and nothing it wrote is lost on the
// way (a pipe holds 64 KiB; the rest must still reach the reader), nor its exit code.
import { describe, expect, it } from 'vitest';
import { envFor, runBin, useTempHome } from '../helpers/cli.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';

const home = useTempHome();

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
