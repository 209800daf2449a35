// The shells `contacts completion` writes a script for: each one it lists, it writes.
import { describe, expect, it } from 'vitest';
import { SHELLS } from '../../src/cli/shells.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

describe('SHELLS', () => {
  it('are bash, zsh and fish, and completion writes a script for each, naming the command', async () => {
    expect([...SHELLS]).toEqual(['bash', 'zsh', 'fish']);
    for (const shell of SHELLS) {
      const out = await runInProcess(['completion', shell], { env: home.env, cwd: home.dir });
      expect(out.code, shell).toBe(0);
      expect(out.stdout, shell).toContain('contacts');
    }
    const other = await runInProcess(['completion', 'tcsh'], { env: home.env, cwd: home.dir });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/bash, zsh, fish/);
  });
});
