// The README's set-up commands are promises to a new user: the first runs the main job against
// the embedded mock on a fresh clone, the second runs the tests. Keep them true, and keep every
// link between the README and the docs pointing at a file a clone has.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, tempHome } from './helpers/cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
// The first command is the first block that starts from a fresh clone (install, build); the test
// command follows it.
const first = blocks.findIndex((b) => b.startsWith('npm ci && npm run build && '));

const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('README', () => {
  it('says how to install, then gives the main job on a fresh clone and the test command', () => {
    expect(README).toContain('npm install -g contacts-cli');
    expect(README).toContain('npx contacts-cli');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(blocks[first + 1]).toBe('npm test');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.test).toBeTruthy();
  });

  it('stays short: the reference lives in docs/', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(130);
  });

  it('runs its first command (after npm ci and the build) against the embedded mock, twice over', async () => {
    const home = await tempHome();
    try {
      // The suite runs on a built checkout: what follows the install and the build is the command.
      const command = blocks[first]!.replace(/^npm ci && npm run build && /, '').replaceAll(
        './bin/contacts.js',
        JSON.stringify(BIN),
      );
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

  it.each(DOCS)('%s links only to files a clone has', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#'))
      .map((t) => t.split('#')[0]!);
    for (const target of targets) {
      const path = resolve(dirname(join(ROOT, doc)), target);
      expect(path.startsWith(ROOT), `${doc}: ${target} leaves the repository`).toBe(true);
      expect(existsSync(path), `${doc}: ${target} does not exist`).toBe(true);
    }
    expect(text).not.toMatch(/\.\.\/shared\//);
  });
});
