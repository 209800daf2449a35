// The results file on resume: cut back to the length the checkpoint recorded (or, for a checkpoint
// from before lengths were kept, to its last whole record) before the new records are appended, so
// none is there twice and none joins a half-written one.
import { execFileSync } from 'node:child_process';
import { lstat, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultsWriter } from '../../src/importer/results.js';
import { tempDir } from '../helpers/mock.js';

async function resumed(name: string, before: string): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, before);
  const writer = await ResultsWriter.open(path, { keep: 'whole-records' });
  writer.write({ line: 9, external_id: 'next', id: 'c_9', action: 'created' });
  await writer.close();
  return readFile(path, 'utf8');
}

describe('ResultsWriter on resume', () => {
  it('cuts a half-written CSV record back to the last whole one, quoted newlines included', async () => {
    const whole = 'line,external_id,id,action\n2,a,c_2,created\n3,"x\ny",c_3,updated\n';
    expect(await resumed('r.csv', `${whole}4,b,c_`)).toBe(`${whole}9,next,c_9,created\n`);
    expect(await resumed('q.csv', `${whole}4,"half\nway`)).toBe(`${whole}9,next,c_9,created\n`);
    expect(await resumed('w.csv', whole)).toBe(`${whole}9,next,c_9,created\n`);
    // Killed inside the header: written again.
    expect(await resumed('h.csv', 'line,exte')).toBe('line,external_id,id,action\n9,next,c_9,created\n');
  });

  it('cuts a half-written NDJSON record', async () => {
    const whole = '{"line":2,"external_id":"a\\"\\n","id":"c_2","action":"created"}\n';
    expect(await resumed('r.ndjson', `${whole}{"line":3,"ext`)).toBe(
      `${whole}{"line":9,"external_id":"next","id":"c_9","action":"created"}\n`,
    );
  });

  it('cuts whole records the checkpoint does not claim: their rows are sent again', async () => {
    const path = join(await tempDir(), 'r.ndjson');
    const claimed = '{"line":2,"external_id":"a","id":"c_2","action":"created"}\n';
    await writeFile(path, `${claimed}{"line":3,"external_id":"b","id":"c_3","action":"created"}\n`);
    const writer = await ResultsWriter.open(path, { keep: Buffer.byteLength(claimed) });
    expect(writer.length).toBe(Buffer.byteLength(claimed));
    writer.write({ line: 3, external_id: 'b', id: 'c_3', action: 'updated' });
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe(
      `${claimed}{"line":3,"external_id":"b","id":"c_3","action":"updated"}\n`,
    );
  });

  it('starts a results file that is not there yet', async () => {
    const path = join(await tempDir(), 'new.csv');
    const writer = await ResultsWriter.open(path, { keep: 'whole-records' });
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe('line,external_id,id,action\n');
  });
});
describe('ResultsWriter.open, where the results are written in place', () => {
  it("writes through a link of the user's own to its file, and refuses a named pipe and a dangling link", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'real.csv'), 'old\n');
    await symlink('real.csv', join(dir, 'link.csv'));
    const writer = await ResultsWriter.open(join(dir, 'link.csv'), {});
    writer.write({ line: 2, external_id: 'a', id: 'c_2', action: 'created' });
    await writer.close();
    expect(await readFile(join(dir, 'real.csv'), 'utf8')).toBe(
      'line,external_id,id,action\n2,a,c_2,created\n',
    );
    expect((await lstat(join(dir, 'link.csv'))).isSymbolicLink()).toBe(true);

    if (process.platform === 'win32') return;
    execFileSync('mkfifo', [join(dir, 'pipe.csv')]);
    await expect(ResultsWriter.open(join(dir, 'pipe.csv'), {})).rejects.toMatchObject({
      code: 'not_regular_file',
    });
    await symlink('gone.csv', join(dir, 'dangling.csv'));
    await expect(ResultsWriter.open(join(dir, 'dangling.csv'), {})).rejects.toMatchObject({
      code: 'dangling_symlink',
    });
    expect((await lstat(join(dir, 'dangling.csv'))).isSymbolicLink()).toBe(true);
  });
});
