// The process's streams and environment, handed to the CLI as one value.
import { describe, expect, it } from 'vitest';
import { processIo } from '../../src/cli/io.js';

describe('processIo', () => {
  it('is the process itself: its streams, environment, directory and signals', () => {
    const io = processIo();
    expect(io.stdout).toBe(process.stdout);
    expect(io.stderr).toBe(process.stderr);
    expect(io.stdin).toBe(process.stdin);
    expect(io.env).toBe(process.env);
    expect(io.cwd).toBe(process.cwd());
    expect(io.signals).toBe(process);
    expect(io.exitNow).toBeTypeOf('function');
    // Nothing set yet by a command.
    expect(io.exitCode).toBeUndefined();
    expect(io.secrets).toBeUndefined();
  });
});
