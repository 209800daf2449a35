// The data file: state survives a restart, saves are coalesced and atomic, and a process
// killed with SIGKILL mid-save leaves a whole file behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { paths } from '../../src/api/index.js';
import { createPersistence } from '../../src/mock/persistence.js';
import { startMockServer } from '../../src/mock/server.js';
import { AGENT, api, startTestMock, tempDir } from '../helpers/mock.js';

describe('a mock with a data file', () => {
  it('keeps contacts and attributes across a restart', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'nested', 'mock.json');
    const first = await startTestMock({ dataFile });
    const client = api(first.url);
    await client.post(paths.attributes(AGENT), { name: 'plan', type: 'text' });
    const created = await client.post(paths.contacts(AGENT), {
      external_id: 'a',
      email: 'a@example.com',
      custom_attributes: { plan: 'pro' },
    });
    await first.close();

    const second = await startTestMock({ dataFile });
    const again = api(second.url);
    expect((await again.get(paths.contact(AGENT, 'a'))).body.data).toEqual(created.body.data);
    expect((await again.get(paths.attributes(AGENT))).body.data).toHaveLength(1);
    // Uniqueness and id order survive too.
    expect(
      (await again.post(paths.contacts(AGENT), { external_id: 'b', email: 'A@example.com' })).status,
    ).toBe(409);
    const b = (await again.post(paths.contacts(AGENT), { external_id: 'b' })).body.data;
    expect(b.id > created.body.data.id).toBe(true);
  });

  it('starts empty when the file does not exist yet', async () => {
    const dir = await tempDir();
    const server = await startTestMock({ dataFile: join(dir, 'absent.json') });
    expect((await api(server.url).get(paths.contacts(AGENT))).body.total).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses to start on a corrupt file, naming it', async () => {
    const dir = await tempDir();
    const notJson = join(dir, 'broken.json');
    await writeFile(notJson, '{"version":1,"seq":');
    await expect(startMockServer({ dataFile: notJson })).rejects.toThrow(notJson);
    const notSnapshot = join(dir, 'other.json');
    await writeFile(notSnapshot, JSON.stringify({ hello: 'world' }));
    await expect(startMockServer({ dataFile: notSnapshot })).rejects.toThrow(
      new RegExp(`${notSnapshot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*corrupt`),
    );
  });

  it('always leaves a file that parses, and no temp files once flushed', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'mock.json');
    const server = await startTestMock({ dataFile });
    const client = api(server.url);
    const parsedCounts: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await client.post(paths.contacts(AGENT), {
        users: Array.from({ length: 20 }, (_, j) => ({ external_id: `u${i}-${j}`, name: 'x'.repeat(200) })),
      });
      expect(res.status).toBe(200);
      const text = await readFile(dataFile, 'utf8').catch(() => undefined);
      if (text !== undefined) parsedCounts.push(JSON.parse(text).agents[AGENT].contacts.length);
    }
    await server.flush();
    const saved = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(saved.agents[AGENT].contacts).toHaveLength(800);
    expect(parsedCounts.length).toBeGreaterThan(0);
    expect([...parsedCounts].sort((a, b) => a - b)).toEqual(parsedCounts);
    expect(await readdir(dir)).toEqual(['mock.json']);
  });

  it('flushes pending changes on close()', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'mock.json');
    const server = await startMockServer({ dataFile });
    server.store.upsertContact(AGENT, { external_id: 'written-just-before-close' });
    await server.close();
    const saved = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(saved.agents[AGENT].contacts[0].external_id).toBe('written-just-before-close');
  });
});

describe('createPersistence', () => {
  it('coalesces a burst of changes into few saves of the latest state', async () => {
    const dir = await tempDir();
    const file = join(dir, 'state.json');
    let snapshots = 0;
    let value = 0;
    const p = createPersistence(file, () => {
      snapshots += 1;
      return { value };
    });
    for (let i = 0; i < 100; i++) {
      value = i;
      p.schedule();
    }
    await p.flush();
    expect(snapshots).toBe(1);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ value: 99 });
  });

  it('reports a failed save and rejects flush()', async () => {
    const dir = await tempDir();
    const errors: Error[] = [];
    const p = createPersistence(join(dir, 'missing-dir', 'state.json'), () => ({}), {
      onError: (e) => errors.push(e),
    });
    p.schedule();
    await expect(p.flush()).rejects.toThrow(/Could not save mock data file/);
    expect(errors).toHaveLength(1);
  });
});

/** The saver runs the built module (npm test builds first) in a plain child process. */
async function writeChildScript(dir: string): Promise<string> {
  const persistence = new URL('../../dist/mock/persistence.js', import.meta.url).href;
  const child = join(dir, 'saver.mjs');
  await writeFile(
    child,
    `import { createPersistence } from '${persistence}';
const file = process.argv[2];
let n = 0;
// Each state is self-checking: its filler length is derived from its counter.
const p = createPersistence(file, () => ({ n, filler: 'x'.repeat(2000000 + (n % 13) * 7919) }));
// Announce each save as it starts, so the parent's SIGKILL lands while it is being written.
const loop = () => { n += 1; p.schedule(); process.stdout.write(n + '\\n'); p.flush().then(() => setImmediate(loop)); };
loop();
`,
  );
  return child;
}

/**
 * Runs the saver and kills it with SIGKILL at the first file event of its save number `saves`
 * (the temp file appearing, or the data file itself changing were it written in place).
 */
function killDuringSave(script: string, file: string, saves: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [script, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let seen = 0;
    const watcher = watch(dirname(file), (_event, name) => {
      const ours = name !== null && (name.endsWith('.tmp') || name === basename(file));
      if (seen >= saves && ours && child.exitCode === null) child.kill('SIGKILL');
    });
    onTestFinished(() => {
      watcher.close();
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString().split('\n').filter(Boolean).length;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      watcher.close();
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`saver exited with ${code}`));
    });
  });
}

describe('a save interrupted by SIGKILL', () => {
  it('leaves the previous or the next whole state, never a torn file', async () => {
    const dir = await tempDir();
    const script = await writeChildScript(dir);
    const file = join(dir, 'data', 'state.json');
    await mkdir(join(dir, 'data'));
    let interrupted = 0;
    for (const saves of [2, 3, 5, 8]) {
      await killDuringSave(script, file, saves);
      const names = await readdir(join(dir, 'data'));
      if (names.some((name) => name.endsWith('.tmp'))) interrupted += 1;
      const state = JSON.parse(await readFile(file, 'utf8')) as { n: number; filler: string };
      expect(state.n).toBeGreaterThanOrEqual(saves - 1);
      expect(state.filler.length).toBe(2000000 + (state.n % 13) * 7919);
    }
    // The kills did land mid-save (a temp file was left), so the check above meant something.
    expect(interrupted).toBeGreaterThan(0);
    // A later start clears the temp files the killed processes left behind.
    const p = createPersistence(file, () => ({}));
    expect((await p.load((raw) => raw)) as { n: number }).toHaveProperty('n');
    expect(await readdir(join(dir, 'data'))).toEqual(['state.json']);
  });
});
