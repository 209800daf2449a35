// The small things a new user trips on: aliases, the field's own name as a flag, help for a
// mistyped command, "did you mean", a 404 hint about the right thing, colour only on a terminal.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

const cli = (argv: string[], options: { tty?: boolean; env?: NodeJS.ProcessEnv } = {}) =>
  runInProcess(argv, { env: { ...home.env, ...options.env }, cwd: home.dir, tty: options.tty });

describe('small ones', () => {
  it('ls and rm are list and delete; --phonenumber is --phone', async () => {
    expect((await cli(['--mock', 'upsert', '-e', 'u1', '--phonenumber', '+44 20 7946 0958'])).code).toBe(0);
    const ls = await cli(['--mock', 'ls', '-o', 'json']);
    expect(JSON.parse(ls.stdout)[0]).toMatchObject({ external_id: 'u1', phonenumber: '+442079460958' });
    expect((await cli(['--mock', 'rm', 'u1', '--yes'])).code).toBe(0);
    expect(JSON.parse((await cli(['--mock', 'attrs', 'ls', '-o', 'json'])).stdout)).toEqual([]);
  });

  it('help for a command that does not exist says so and suggests one', async () => {
    const r = await cli(['help', 'lst']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/^error: unknown command 'lst' \(did you mean list\?\)/);
    expect(r.stdout).toBe('');
    const sub = await cli(['help', 'attrs', 'defne']);
    expect(sub.stderr).toMatch(/unknown command 'defne' of attrs \(did you mean define\?\)/);
    const ok = await cli(['help', 'attrs', 'define']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Usage: contacts attrs define/);
  });

  it('serve --help lists --mock', async () => {
    expect((await cli(['serve', '--help'])).stdout).toMatch(/^ {2}--mock\s+required/m);
  });

  it('an unknown field or setting gets "did you mean"', async () => {
    const unset = await cli(['--mock', 'update', 'u1', '--unset', 'emial']);
    expect(unset.stderr).toMatch(/--unset emial: not a field that can be cleared \(did you mean email\?\)/);
    const setting = await cli(['config', 'get', 'agnet']);
    expect(setting.stderr).toMatch(/Unknown setting: agnet \(did you mean agent\?\)/);
  });

  it('a 404 hint is about what was not found', async () => {
    const contact = await cli(['--mock', 'get', 'nobody']);
    expect(contact.code).toBe(ExitCode.NOT_FOUND);
    expect(contact.stderr).toMatch(/hint: Check the contact's external_id/);
    expect(contact.stderr).not.toMatch(/attribute/);
    const attr = await cli(['--mock', 'attrs', 'update', 'nothing', '--label', 'x']);
    expect(attr.code).toBe(ExitCode.NOT_FOUND);
    expect(attr.stderr).toMatch(/hint: Check the attribute name/);
  });

  it('errors are in colour on a terminal, never with NO_COLOR or off one', async () => {
    const env = { NO_COLOR: '', FORCE_COLOR: undefined, TERM: 'xterm' };
    const onTty = await cli(['--mock', 'get', 'nobody'], { tty: true, env });
    expect(onTty.stderr).toContain('\u001b[1;31merror:\u001b[0m');
    const noColor = await cli(['--mock', 'get', 'nobody'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stderr).not.toContain('\u001b[');
    const piped = await cli(['--mock', 'get', 'nobody'], { env });
    expect(piped.stderr).not.toContain('\u001b[');
  });
});
