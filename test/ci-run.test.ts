// .ci/run runs the suite on this Node and on Node 22 and 24: its last line sums every run, and a
// failure on any of them fails CI. Checked with stand-ins for npm, npx and the Nodes, which print
// what the real ones would, so the script's own logic is what is under test.
import { spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Stand {
  /** What `npm test` prints last, and its exit code. */
  npmTest: [string, number];
  /** Per other Node major: its last line and exit code; null when it cannot be installed. */
  nodes: Record<string, [string, number] | null>;
}

async function ciRun(stand: Stand): Promise<{ status: number | null; lines: string[]; calls: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'contacts-ci-run-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, '.ci'));
  await cp(join(ROOT, '.ci', 'run'), join(dir, '.ci', 'run'));
  const bin = join(dir, 'stand-ins');
  await mkdir(bin);
  const script = async (path: string, body: string) => {
    await writeFile(
      path,
      `#!/usr/bin/env bash\necho "$(basename "$0") $*" >> "${join(dir, 'calls')}"\n${body}\n`,
    );
    await chmod(path, 0o755);
  };
  await script(
    join(bin, 'npm'),
    `[[ $1 == ci ]] && exit 0\necho "vitest output"\necho "${stand.npmTest[0]}"\nexit ${stand.npmTest[1]}`,
  );
  await script(join(bin, 'node'), 'echo v20.99.0');
  let npx = '';
  for (const [major, result] of Object.entries(stand.nodes)) {
    if (result === null) {
      npx += `[[ $2 == node@${major} ]] && exit 1\n`;
      continue;
    }
    await mkdir(join(bin, major));
    await script(
      join(bin, major, 'node'),
      `[[ $1 == --version ]] && { echo v${major}.0.0; exit 0; }\necho -e "${result[0]}"\nexit ${result[1]}`,
    );
    npx += `[[ $2 == node@${major} ]] && { echo "${join(bin, major, 'node')}"; exit 0; }\n`;
  }
  await script(join(bin, 'npx'), `${npx}exit 1`);
  const run = spawnSync('bash', [join(dir, '.ci', 'run')], {
    env: { PATH: [bin, process.env.PATH].join(delimiter) },
    encoding: 'utf8',
  });
  const calls = await readFile(join(dir, 'calls'), 'utf8');
  return { status: run.status, lines: run.stdout.trimEnd().split('\n'), calls };
}

describe('.ci/run', () => {
  it('runs the suite on this Node, then the tests on Node 22 and 24, and sums them last', async () => {
    const r = await ciRun({
      npmTest: ['10 passed, 0 failed, 0 skipped', 0],
      nodes: { '22': ['9 passed, 0 failed, 1 skipped', 0], '24': ['9 passed, 0 failed, 1 skipped', 0] },
    });
    expect(r.status).toBe(0);
    expect(r.lines.at(-1)).toBe('28 passed, 0 failed, 2 skipped');
    expect(r.lines).toContain('node v22.0.0: 9 passed, 0 failed, 1 skipped');
    expect(r.calls).toContain('npm ci');
    expect(r.calls).toContain('npm test');
    expect(r.calls).toContain('npx -y node@22 -p process.execPath');
    expect(r.calls).toContain('node node_modules/vitest/vitest.mjs run');
  });

  it('fails when the tests fail on one Node only', async () => {
    const r = await ciRun({
      npmTest: ['10 passed, 0 failed, 0 skipped', 0],
      nodes: {
        '22': ['10 passed, 0 failed, 0 skipped', 0],
        '24': [
          'failed: test/a.test.ts > holds: expected 1 to be 2\nfailed: test/b.test.ts > waits: timed out\n8 passed, 2 failed, 0 skipped',
          1,
        ],
      },
    });
    expect(r.status).not.toBe(0);
    // The closing lines name the failed tests under their Node, so a log cut to its tail names them.
    expect(r.lines.slice(-4)).toEqual([
      'node v24.0.0: 8 passed, 2 failed, 0 skipped',
      '  failed: test/a.test.ts > holds: expected 1 to be 2',
      '  failed: test/b.test.ts > waits: timed out',
      '28 passed, 2 failed, 0 skipped',
    ]);
  });

  it('fails when the build or lint fails before any test, or a Node cannot be installed', async () => {
    const lint = await ciRun({
      npmTest: ['lint: 1 error', 1],
      nodes: { '22': ['10 passed, 0 failed, 0 skipped', 0], '24': ['10 passed, 0 failed, 0 skipped', 0] },
    });
    expect(lint.status).not.toBe(0);
    expect(lint.lines.at(-1)).toBe('20 passed, 1 failed, 0 skipped');
    const missing = await ciRun({
      npmTest: ['10 passed, 0 failed, 0 skipped', 0],
      nodes: { '22': null, '24': ['10 passed, 0 failed, 0 skipped', 0] },
    });
    expect(missing.status).not.toBe(0);
    expect(missing.lines).toContain('node@22: could not be installed from the npm registry');
    expect(missing.lines.at(-1)).toBe('20 passed, 1 failed, 0 skipped');
  });
});
