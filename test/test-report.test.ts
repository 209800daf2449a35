// A red run must name what failed: the suite's own configuration, run over a test that fails,
// prints the file, the test's name and the error, and still ends with the plain line CI reads.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

it('a failing test is named with its error, and the run ends with "N passed, N failed, N skipped"', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'contacts-cli-report-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await mkdir(join(dir, 'test'));
  await writeFile(
    join(dir, 'test', 'deliberate.test.ts'),
    [
      "import { expect, it } from 'vitest';",
      "it('adds up on purpose wrongly', () => { expect(1 + 1).toBe(3); });",
      "it('holds', () => { expect(1).toBe(1); });",
      "it.skip('waits', () => {});",
      '',
    ].join('\n'),
  );
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      join(ROOT, 'vitest.config.ts'),
      '--root',
      dir,
    ],
    { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1' } },
  );
  expect(run.status).toBe(1);
  const out = run.stdout + run.stderr;
  expect(out).toContain('test/deliberate.test.ts');
  expect(out).toContain('adds up on purpose wrongly');
  expect(out).toContain('expected 2 to be 3');
  // The tail names the failure too (CI logs are often cut to their last lines).
  expect(run.stdout.trimEnd().split('\n').slice(-2)).toEqual([
    'failed: test/deliberate.test.ts > adds up on purpose wrongly: expected 2 to be 3 // Object.is equality',
    '1 passed, 1 failed, 1 skipped',
  ]);
});
