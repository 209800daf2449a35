// The exit code for commander's own exits (help, version, usage errors): decided here alone, for
// main.ts (which must not load the error module to print help) and for toExit.
import type { CommanderError } from 'commander';
import { ExitCode } from './exit-codes.js';

/** Commander has already written its own message (through configureOutput) before throwing. */
export function commanderExitCode(error: CommanderError): number {
  switch (error.code) {
    case 'commander.helpDisplayed':
    case 'commander.version':
      return ExitCode.OK;
    // `program.error()` and a failed subcommand process carry the code their author chose.
    case 'commander.error':
    case 'commander.executeSubCommandAsync':
      return error.exitCode;
    default:
      // Includes `commander.help` with exit code 1: help shown because a subcommand was missing.
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  }
}

// Duck-typed: a second copy of commander would defeat instanceof, and the entry point must not
// load commander just to read a code.
export function isCommanderError(error: unknown): error is CommanderError {
  const e = error as { code?: unknown; exitCode?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.code === 'string' &&
    e.code.startsWith('commander.') &&
    typeof e.exitCode === 'number'
  );
}
