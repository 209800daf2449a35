// The exit code for commander's own exits, decided without loading commander or the errors.
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { commanderExitCode, isCommanderError } from '../../src/cli/commander-exit.js';
import { ExitCode } from '../../src/cli/exit-codes.js';

const error = (code: string, exitCode: number) => new CommanderError(exitCode, code, 'message');

describe('commanderExitCode', () => {
  it('help and --version are success, whatever code commander gives', () => {
    expect(commanderExitCode(error('commander.helpDisplayed', 0))).toBe(ExitCode.OK);
    expect(commanderExitCode(error('commander.version', 0))).toBe(ExitCode.OK);
  });

  it('a usage mistake is 2, and help shown for a missing subcommand too', () => {
    expect(commanderExitCode(error('commander.unknownOption', 1))).toBe(ExitCode.USAGE);
    expect(commanderExitCode(error('commander.missingArgument', 1))).toBe(ExitCode.USAGE);
    expect(commanderExitCode(error('commander.help', 1))).toBe(ExitCode.USAGE);
    expect(commanderExitCode(error('commander.help', 0))).toBe(ExitCode.OK);
  });

  it('program.error() keeps the code its caller chose', () => {
    expect(commanderExitCode(error('commander.error', 4))).toBe(4);
  });
});

describe('isCommanderError', () => {
  it('knows a commander error by its shape, not by its class', () => {
    expect(isCommanderError(error('commander.unknownCommand', 1))).toBe(true);
    expect(isCommanderError({ code: 'commander.version', exitCode: 0 })).toBe(true);
    expect(isCommanderError({ code: 'ENOENT', exitCode: 1 })).toBe(false);
    expect(isCommanderError({ code: 'commander.x' })).toBe(false);
    expect(isCommanderError(null)).toBe(false);
    expect(isCommanderError(new Error('commander.x'))).toBe(false);
  });
});
