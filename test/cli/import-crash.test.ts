// kill -9 in the middle of an import, then --resume: the results file must name every row that
// landed, or `delete --from results` leaves contacts behind (issue 21). The kill comes on an event,
// the moment a checkpoint lands on disk (the worst moment for the promise), never after a sleep.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runBin, tempHome } from '../helpers/cli.js';

const ROWS = 60_000;

describe('an import killed with SIGKILL and resumed', () => {
  it('leaves a results file that names every contact in the directory', async () => {
    const home = await tempHome();
    try {
      const run = (argv: string[]) => runBin(argv, { env: home.env, cwd: home.dir });
      expect((await run(['--mock', 'attrs', 'define', 'seats', '--type', 'number'])).code).toBe(0);
      let csv = 'external_id,name,seats\n';
      for (let i = 1; i <= ROWS; i++) csv += `u${i},Name ${i},${i % 50}\n`;
      await writeFile(join(home.dir, 'e.csv'), csv);
      const args = ['--mock', 'import', 'e.csv', '--results', 'r.ndjson', '--batch-size', '100'];

      // The first run dies as soon as a checkpoint is renamed into place (not the first: by then
      // requests overlap, and rows land out of order).
      const child = spawn(process.execPath, [BIN, ...args], {
        env: home.env,
        cwd: home.dir,
        stdio: 'ignore',
      });
      let killed = false;
      let written = 0;
      const watcher = watch(home.dir, (_event, name) => {
        if (name === 'e.csv.import-checkpoint.json' && ++written >= 2 && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      await new Promise((resolve) => child.on('close', resolve));
      watcher.close();
      expect(killed).toBe(true);

      const resumed = await run([...args, '--resume']);
      expect(resumed.stderr).toMatch(/Resuming/);
      expect(resumed.code).toBe(0);

      const named = new Set(
        (await readFile(join(home.dir, 'r.ndjson'), 'utf8'))
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).external_id as string),
      );
      const listed = await run(['--mock', 'list', '--all', '-o', 'ndjson']);
      const stored = listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).external_id as string);
      expect(stored).toHaveLength(ROWS);
      expect(stored.filter((id) => !named.has(id))).toEqual([]);
      expect(named.size).toBe(ROWS);
    } finally {
      await home.cleanup();
    }
  }, 120_000);
});
