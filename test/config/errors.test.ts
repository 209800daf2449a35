// The config layer's one error: its kind (which the CLI maps to an exit code) and its hint.
import { describe, expect, it } from 'vitest';
import { toExit } from '../../src/cli/exit.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { ConfigError } from '../../src/config/errors.js';
import { ContactsError } from '../../src/core/error.js';

describe('ConfigError', () => {
  it('carries its kind, its hint and its cause, and is a ContactsError', () => {
    const cause = new Error('EACCES');
    const error = new ConfigError('file', 'Cannot read the config file', { hint: 'Check its mode.', cause });
    expect(error).toBeInstanceOf(ContactsError);
    expect([error.kind, error.hint, error.cause, error.name]).toEqual([
      'file',
      'Check its mode.',
      cause,
      'ConfigError',
    ]);
    expect(Object.hasOwn(new ConfigError('invalid', 'x'), 'cause')).toBe(false);
  });

  it('each kind leads to the exit code its meaning has, with the hint shown', () => {
    const codes = Object.fromEntries(
      (['invalid', 'missing', 'credentials', 'file'] as const).map((kind) => [
        kind,
        toExit(new ConfigError(kind, 'm', { hint: 'do this' })).code,
      ]),
    );
    expect(codes.invalid).toBe(ExitCode.USAGE);
    expect(codes.credentials).toBe(ExitCode.AUTH);
    const plan = toExit(new ConfigError('missing', 'No agent set', { hint: 'Pass --agent.' }));
    expect(plan.lines.join('\n')).toMatch(/No agent set[\s\S]*Pass --agent\./);
  });
});
