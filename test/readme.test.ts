// The README's first two commands are promises to a new user: the first runs the main job
// against the embedded mock on a fresh clone, the second runs the tests. Keep them true.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, tempHome } from './helpers/cli.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const blocks = [...readFileSync(README, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());

describe('README', () => {
  it('opens with the main job and the test command', () => {
    expect(blocks[0]).toMatch(/^npm ci && /);
    expect(blocks[1]).toBe('npm test');
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.scripts.test).toBeTruthy();
  });

  it('runs its first command (after npm ci) against the embedded mock, twice over', async () => {
    const home = await tempHome();
    try {
      const command = blocks[0]!
        .replace(/^npm ci && /, '')
        .replaceAll('./bin/contacts.js', JSON.stringify(BIN));
      const run = () =>
        execFileSync('bash', ['-c', command], {
          cwd: home.dir,
          env: home.env,
          encoding: 'utf8',
          stdio: 'pipe',
        });
      // execFileSync throws on a non-zero exit: both runs must succeed.
      expect(run()).toContain('"u_1"');
      run();
      const listed = JSON.parse(
        execFileSync(process.execPath, [BIN, '--mock', 'list', '-o', 'json'], {
          cwd: home.dir,
          env: home.env,
          encoding: 'utf8',
        }),
      );
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ external_id: 'u_1', custom_attributes: { plan: 'pro' } });
    } finally {
      await home.cleanup();
    }
  });
});
