// Contract revision 2 end to end: `contacts serve --mock` with its new options, driven by the
// CLI as a user would (the server a real child process, the commands through run()).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ExitCode } from '../../../src/cli/errors.js';
import { BIN, runInProcess, useTempHome } from '../../helpers/cli.js';

const KEY = 'bk_serve_revision_two_1234';

const home = useTempHome();

/** Starts `contacts serve --mock <args>` on a free port; stopped when the test ends. */
async function serve(
  args: string[],
): Promise<{ url: string; logged: (re: RegExp) => Promise<string>; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--mock', '--port', '0', ...args], {
    env: home.env,
    cwd: home.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  /** The log once it matches: the server writes a line just after it answers. */
  const logged = async (re: RegExp) => {
    while (!re.test(stderr)) await new Promise<void>((resolve) => waiters.push(resolve));
    return stderr;
  };
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  onTestFinished(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const url = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', resolve),
  );
  return { url, logged, child };
}

const cli = (url: string, argv: string[]) =>
  runInProcess(argv, {
    env: { ...home.env, CONTACTS_API_KEY: KEY, CONTACTS_BASE_URL: url },
    cwd: home.dir,
  });

describe('contacts serve --mock, revision 2', () => {
  it('--agents (repeatable) and --max-contacts: 404 Chatbot not found, the quota, as the CLI says them', async () => {
    const { url, logged } = await serve(['--agents', 'a1,a2', '--agents', 'a3', '--max-contacts', '1']);
    const ghost = await cli(url, ['list', '--agent', 'ghost']);
    expect(ghost.code).toBe(ExitCode.NOT_FOUND);
    expect(ghost.stderr).toMatch(/error: Chatbot not found \(HTTP 404, request req_\w+\)/);
    for (const agent of ['a1', 'a3']) {
      expect((await cli(url, ['upsert', '-e', 'u1', '--agent', agent])).code).toBe(0);
    }
    const over = await cli(url, ['upsert', '-e', 'u2', '--agent', 'a1']);
    expect(over.code).toBe(ExitCode.USAGE);
    const requestId = /request (req_\w+)\)/.exec(over.stderr)?.[1];
    expect(over.stderr).toMatch(/error: Maximum contacts limit reached \(HTTP 400, request req_\w+\)/);
    // The id the user quotes is the one in the server's log line.
    await logged(new RegExp(`POST /api/v1/chatbots/a1/contacts 400 \\d+\\.\\dms ${requestId}`));
    // An update is not a new contact.
    expect((await cli(url, ['upsert', '-e', 'u1', '--agent', 'a1', '--name', 'Ada'])).code).toBe(0);
  });

  it('drops unknown fields and says so in the log and the CLI; --strict refuses them', async () => {
    const lax = await serve([]);
    const data = JSON.stringify({ external_id: 'd1', company: 'Acme', custom_attributes: { plna: 'pro' } });
    const dropped = await cli(lax.url, ['upsert', '--agent', 'a', '--data', data, '-o', 'json']);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(JSON.parse(dropped.stdout)).toMatchObject({ external_id: 'd1', custom_attributes: {} });
    expect(dropped.stderr).toMatch(
      /warning: the service ignored fields it does not know: company, custom_attributes\.plna/,
    );
    await lax.logged(
      /POST \/api\/v1\/chatbots\/a\/contacts 201 .*\[ignored: company,custom_attributes\.plna\]/,
    );

    const strict = await serve(['--strict']);
    const refused = await cli(strict.url, ['upsert', '--agent', 'a', '--data', data]);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect(refused.stderr).toMatch(/error: Invalid request body \(HTTP 400, request req_\w+\)/);
    expect(refused.stderr).toMatch(/^ {2}company: Unknown field$/m);
    expect(refused.stderr).toMatch(/^ {2}custom_attributes\.plna: Unknown field$/m);
  });
});
