// Declaring a command: agentCommand() gives every command that works on an agent's directory the
// one --agent the settings table declares, first among its options, and lazy() loads a command's
// run only when the command runs.
import { PassThrough } from 'node:stream';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { agentCommand, lazy } from '../../src/cli/command.js';
import type { CliIo } from '../../src/cli/io.js';
import { buildProgram } from '../../src/cli/program.js';
import { settingHelp } from '../../src/config/settings.js';
import { textSink } from '../helpers/cli.js';

const io: CliIo = {
  stdout: textSink(),
  stderr: textSink(),
  stdin: new PassThrough(),
  env: {},
  cwd: process.cwd(),
};

describe('agentCommand', () => {
  it("adds a command whose first option is the settings table's --agent", () => {
    const cmd = agentCommand(new Command('contacts'), 'list').option('--all');
    expect(cmd.options.map((o) => o.flags)).toEqual(['-a, --agent <id>', '--all']);
    expect(cmd.options[0]!.description).toBe(settingHelp('agent'));
  });

  it('is how every command of the program that takes --agent gets it', async () => {
    const takers: string[] = [];
    const walk = (
      cmd: { name(): string; options: readonly { long?: string }[]; commands: readonly unknown[] },
      path: string[],
    ) => {
      const index = cmd.options.findIndex((o) => o.long === '--agent');
      if (index !== -1) {
        expect(index, path.join(' ')).toBe(0);
        takers.push(path.join(' '));
      }
      for (const sub of cmd.commands as (typeof cmd)[]) walk(sub, [...path, sub.name()]);
    };
    walk(await buildProgram(io), []);
    expect(takers).toEqual([
      'list',
      'get',
      'upsert',
      'update',
      'delete',
      'import',
      'undo',
      'template',
      'export',
      'attrs list',
      'attrs define',
      'attrs update',
      'auth login',
      'api',
    ]);
  });
});

describe('lazy', () => {
  it('loads the run only when the command runs, and hands it the positionals and options', async () => {
    let loads = 0;
    const seen: unknown[] = [];
    const program = new Command('contacts').exitOverride();
    program
      .command('greet')
      .argument('<who>')
      .option('--loud')
      .action(
        lazy(io, async () => {
          loads++;
          return async (_ctx, who: string, opts: { loud?: true }) => void seen.push(who, opts);
        }),
      );
    expect(loads).toBe(0);
    await program.parseAsync(['greet', 'ada', '--loud'], { from: 'user' });
    expect(loads).toBe(1);
    expect(seen).toEqual(['ada', { loud: true }]);
  });
});
