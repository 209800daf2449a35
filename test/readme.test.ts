// The README's set-up commands are promises to a new user: the first runs the main job against
// the embedded mock on a fresh clone, the second runs the tests. Keep them true, and keep every
// link between the README and the docs pointing at a file a clone has.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, readFile } from 'node:fs/promises';
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
    expect(README.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('runs its first command (after npm ci and the build): the example import, rejects and all, then list', async () => {
    const home = await tempHome();
    try {
      // A copy of examples/, so the rejects file lands in the temporary directory, not the checkout.
      await cp(join(ROOT, 'examples'), join(home.dir, 'examples'), { recursive: true });
      // The suite runs on a built checkout: what follows the install and the build is the command.
      const [importLine, listLine, ...rest] = blocks[first]!.replace(/^npm ci && npm run build && /, '')
        .replaceAll('./bin/contacts.js', JSON.stringify(BIN))
        .split('\n');
      expect(rest).toEqual([]);
      const run = (line: string) =>
        spawnSync('bash', ['-c', line!], { cwd: home.dir, env: home.env, encoding: 'utf8' });

      const imported = run(importLine!);
      expect(imported.status, imported.stderr).toBe(8);
      // What the README shows the user, line for line, timing and the import's id aside.
      const timing = (text: string) =>
        text
          .replace(/in [\d.]+s \(\d+ rows\/s\)/, 'in Ns (N rows/s)')
          .replace(/undo \d{8}T\d{9}-[0-9a-f]{4}/, 'undo ID');
      const shown = README.match(/```text\n([\s\S]*?)```/)![1]!
        .trim()
        .split('\n')
        .map(timing);
      expect(imported.stderr.trim().split('\n').map(timing)).toEqual(shown);
      const rejects = await readFile(join(home.dir, 'examples', 'hubspot-contacts.rejects.csv'), 'utf8');
      expect(
        rejects
          .trim()
          .split('\n')
          .map((l) => l.split(',')[0]),
      ).toEqual(['Record ID', '39771208103', '39771208105']);

      const listed = run(listLine!);
      expect(listed.status, listed.stderr).toBe(0);
      const contacts = JSON.parse(listed.stdout) as { external_id: string; name: string }[];
      expect(contacts.map((c) => [c.external_id, c.name])).toEqual([
        ['39771208101', 'Ada Lovelace'],
        ['39771208102', 'Grace Hopper'],
        ['39771208104', 'Katherine Johnson'],
        ['39771208106', 'Edsger Dijkstra'],
      ]);

      // Again: the same rows update, nothing is created twice.
      const again = run(importLine!);
      expect(again.status).toBe(8);
      expect(again.stderr).toContain('0 created, 4 updated, 2 rejected, 1 landed without a field');
      expect(JSON.parse(run(listLine!).stdout)).toHaveLength(4);
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
