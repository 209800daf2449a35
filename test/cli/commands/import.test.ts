// `contacts import` and `contacts export` as a user runs them: a real child process against the
// mock on port 0, including a kill -9 mid-import and a resume that sends only the rest (in this
// process where only what is said and sent matters: an unfinished import refused, resumed, restarted).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ExitCode } from '../../../src/cli/errors.js';
import { ContactsClient } from '../../../src/client/client.js';
import { runImport } from '../../../src/importer/pipeline.js';
import type { MockServer } from '../../../src/mock/server.js';
import {
  BIN,
  KILL_AND_RESUME_TIMEOUT,
  killImportAtFirstCheckpoint,
  envFor as mockEnv,
  runBin,
  runInProcess,
  useTempHome,
} from '../../helpers/cli.js';
import { startTestMock, TEST_KEY } from '../../helpers/mock.js';

const AGENT = 'imp';
const home = useTempHome();

const envFor = (mock: MockServer) => mockEnv(home, mock, { CONTACTS_AGENT: AGENT });

async function bigCsv(rows: number): Promise<string> {
  const lines = ['external_id,name,seats'];
  for (let i = 1; i <= rows; i++) lines.push(`u${i},Name ${i},${i}`);
  const file = join(home.dir, 'big.csv');
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

function expectAllLanded(mock: MockServer, rows: number) {
  const contacts = mock.store.contacts(AGENT);
  expect(contacts).toHaveLength(rows);
  expect(new Set(contacts.map((c) => c.external_id)).size).toBe(rows);
  expect(contacts.every((c) => c.custom_attributes.seats === Number(c.external_id.slice(1)))).toBe(true);
}

describe('contacts import', () => {
  it('prints a JSON summary and exits 8 when rows were rejected', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'in.csv');
    await writeFile(file, 'Customer ID;E-mail Address;Notes\nc1;c1@example.com;hi\nc2;nope;x\n');
    const r = await runBin(['import', file, '-o', 'json'], { env: envFor(mock), cwd: home.dir });
    expect(r.code).toBe(ExitCode.PARTIAL);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, created: 1, updated: 0, rejected: 1 });
    expect(r.stderr).toContain('Ignoring columns that map to no field: Notes');
    expect(r.stderr).toContain(
      'To import a column, define the attribute it fills first, e.g. contacts attrs define notes --type text',
    );
    // The hint names the attribute the column fills: accents go, as attribute names have none.
    await writeFile(file, 'Customer ID;Fecha de creación\nc1;2024-01-01\n');
    const accented = await runBin(['import', file, '--dry-run'], { env: envFor(mock), cwd: home.dir });
    expect(accented.stderr).toContain('Ignoring columns that map to no field: Fecha de creación');
    expect(accented.stderr).toContain('attrs define fecha_de_creacion --type date');
    mock.store.defineAttribute(AGENT, { name: 'fecha_de_creacion', type: 'date' });
    const defined = await runBin(['import', file, '--dry-run'], { env: envFor(mock), cwd: home.dir });
    expect(defined.stderr).toContain('Fecha de creación -> attr.fecha_de_creacion');
    expect(r.stderr).toContain('Rejected rows: in.rejects.csv');
    expect(await readFile(join(home.dir, 'in.rejects.csv'), 'utf8')).toContain(
      'c2;nope;x;3;email: Invalid email',
    );
  });

  it('reads stdin with -', async () => {
    const mock = await startTestMock();
    const r = await runBin(['import', '-', '--format', 'ndjson', '-o', 'json'], {
      env: envFor(mock),
      cwd: home.dir,
      stdin: '{"external_id":"s1"}\n{"external_id":"s2","name":"Two"}\n',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, created: 2, rejected: 0 });
    expect(mock.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['s1', 's2']);
  });

  it('--dry-run lists every reject and changes nothing', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'dry.csv');
    await writeFile(file, 'id,email\na,a@example.com\nb,bad\nc,also-bad\n');
    const r = await runBin(['import', file, '--dry-run', '-o', 'json'], { env: envFor(mock), cwd: home.dir });
    expect(r.code).toBe(ExitCode.PARTIAL);
    expect(r.stderr).toContain('line 3: rejected: email: Invalid email');
    expect(r.stderr).toContain('line 4: rejected: email: Invalid email');
    expect(r.stderr).toContain('Would reject, by reason:\n       2  email: Invalid email (lines 3, 4)');
    // Only what would happen: nothing was created.
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ dry_run: true, would_create: 1, would_reject: 2 });
    expect(summary).not.toHaveProperty('created');
    expect(summary).not.toHaveProperty('rejected');
    expect(mock.store.contacts(AGENT)).toHaveLength(0);
  });

  it('refuses a default country no country has before reading a row', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'in.csv');
    await writeFile(file, 'external_id,phonenumber\nu1,020 7946 0958\n');
    const r = await runBin(['import', file, '--dry-run', '--default-country', 'XX'], {
      env: envFor(mock),
      cwd: home.dir,
    });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('Unknown default country XX: no country has that code');
  });

  it('refuses - as a rejects, fixes or results file: stdout carries the summary; no file named - is made', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'in.csv');
    await writeFile(file, 'external_id,email\nu1,ann@example.com\n');
    for (const flag of ['--rejects', '--fixes', '--results']) {
      const r = await runBin(['import', file, flag, '-'], { env: envFor(mock), cwd: home.dir });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(`${flag} -: the ${flag.slice(2)} go to a file, not to stdout`);
    }
    await expect(readFile(join(home.dir, '-'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(mock.store.contacts(AGENT)).toEqual([]);
  });

  it('reports a broken CSV quote with file, line and column, and exits 2', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'broken.csv');
    await writeFile(file, 'external_id,name\nok,Fine\nx,Bro"ken\n');
    const r = await runBin(['import', file], { env: envFor(mock), cwd: home.dir });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/broken\.csv: line 3, column 2/);
  });

  it.each([
    // The default: batches of up to 1000, paced to the mock's rate limit so that the kill finds
    // the import half way.
    { name: 'batches (the default)', rows: 12_000, args: [], faults: { latencyMs: 1, rateLimit: 4 } },
    {
      name: 'single rows',
      rows: 3000,
      args: ['--batch-size', '1', '--concurrency', '4'],
      faults: { latencyMs: 1 },
    },
  ])(
    'resumes after kill -9, sending only what had not landed ($name)',
    async ({ rows, args, faults }) => {
      let posts = 0;
      const mock = await startTestMock({
        faults,
        onRequest: (e) => {
          if (e.method === 'POST' && e.status !== 429) posts++;
        },
      });
      mock.store.defineAttribute(AGENT, { name: 'seats', type: 'number' });
      const file = await bigCsv(rows);
      const checkpoint = `${file}.import-checkpoint.json`;

      expect(await killImportAtFirstCheckpoint(file, args, { env: envFor(mock), cwd: home.dir })).toBe(
        'SIGKILL',
      );
      const landedBeforeResume = mock.store.contacts(AGENT).length;
      expect(landedBeforeResume).toBeGreaterThan(0);
      expect(landedBeforeResume).toBeLessThan(rows);

      const postsBefore = posts;
      const r = await runBin(['import', file, '--resume', '-o', 'json', ...args], {
        env: envFor(mock),
        cwd: home.dir,
      });
      expect(r.code).toBe(0);
      const summary = JSON.parse(r.stdout);
      expect(summary.skipped).toBeGreaterThan(0);
      expect(summary.skipped + summary.created + summary.updated).toBe(rows);
      // Only rows not in the checkpoint were sent again: at most those plus the few in flight at the kill.
      const batch = args.length === 0 ? 1000 : 1;
      const needed = Math.ceil((rows - summary.skipped) / batch);
      expect(posts - postsBefore).toBeGreaterThanOrEqual(needed);
      expect(posts - postsBefore).toBeLessThanOrEqual(needed + (batch > 1 ? 1 : 0));
      // The run counts every attempt that left; the mock logs those it received. They differ only
      // by an attempt lost on the wire (a kept-alive socket the server closed just then), retried.
      expect(summary.requests - summary.rate_limited).toBeGreaterThanOrEqual(posts - postsBefore);
      expect(summary.requests - summary.rate_limited).toBeLessThanOrEqual(posts - postsBefore + 1);
      expectAllLanded(mock, rows);
      await expect(readFile(checkpoint)).rejects.toThrow();
    },
    KILL_AND_RESUME_TIMEOUT,
  );

  it(
    'resumes after kill -9 with every fix and result kept once: none lost, none twice',
    async () => {
      const mock = await startTestMock({ faults: { latencyMs: 1, rateLimit: 4 } });
      const rows = 12_000;
      // Every contact lands without its phone (no country to place it in): each has a fix.
      const lines = ['external_id,name,phonenumber'];
      for (let i = 1; i <= rows; i++) lines.push(`u${i},Name ${i},${100000 + i}`);
      const file = join(home.dir, 'phones.csv');
      await writeFile(file, `${lines.join('\n')}\n`);
      const args = ['--results', 'results.csv'];

      expect(await killImportAtFirstCheckpoint(file, args, { env: envFor(mock), cwd: home.dir })).toBe(
        'SIGKILL',
      );
      const landedBefore = mock.store.contacts(AGENT).length;
      expect(landedBefore).toBeLessThan(rows);

      const r = await runBin(['import', file, '--resume', '-o', 'json', ...args], {
        env: envFor(mock),
        cwd: home.dir,
      });
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout);
      expect(summary.skipped).toBeGreaterThan(0);
      const expected = Array.from({ length: rows }, (_, i) => `u${i + 1}`).sort();
      const keys = (records: string[][], column = 0) => records.slice(1).map((record) => record[column]);
      const fixes = parse(await readFile(join(home.dir, 'phones.fixes.csv'), 'utf8')) as string[][];
      expect(fixes[0]).toEqual(['external_id', 'name', 'phonenumber', 'country', '_line', '_error']);
      expect(keys(fixes).sort()).toEqual(expected);
      const results = parse(await readFile(join(home.dir, 'results.csv'), 'utf8')) as string[][];
      expect(keys(results, 1).sort()).toEqual(expected);
      expect(mock.store.contacts(AGENT)).toHaveLength(rows);
      expect((await readdir(home.dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    },
    KILL_AND_RESUME_TIMEOUT,
  );

  it(
    'Ctrl-C stops cleanly with exit 130 and a hint, and --resume finishes the job',
    async () => {
      // Paced to 4 requests a second: the Ctrl-C comes with most of the file still to send.
      const mock = await startTestMock({ faults: { latencyMs: 1, rateLimit: 4 } });
      mock.store.defineAttribute(AGENT, { name: 'seats', type: 'number' });
      const rows = 12_000;
      const file = await bigCsv(rows);
      let batches = 0;
      const child = spawn(process.execPath, [BIN, 'import', file], {
        env: envFor(mock),
        cwd: home.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const unsubscribe = mock.store.onChange(() => {
        if (++batches === 2) child.kill('SIGINT');
      });
      expect(await exited).toBe(ExitCode.INTERRUPTED);
      unsubscribe();
      expect(stderr).toContain('--resume');
      expect(mock.store.contacts(AGENT).length).toBeLessThan(rows);

      const r = await runBin(['import', file, '--resume', '-o', 'json'], {
        env: envFor(mock),
        cwd: home.dir,
      });
      expect(r.code).toBe(0);
      expectAllLanded(mock, rows);
    },
    KILL_AND_RESUME_TIMEOUT,
  );
});

describe('a file that cannot be written as the import runs', () => {
  // A real limit: `ulimit -f` in the shell that starts the CLI makes its writes past it fail with
  // EFBIG (Node ignores SIGXFSZ), as a full disk fails them with ENOSPC.
  it.skipIf(process.platform === 'win32' || !existsSync('/bin/bash'))(
    'stops it with exit 130, naming the file and the cause, and --resume finishes it exactly',
    async () => {
      const mock = await startTestMock();
      const rows = 2000;
      const lines = ['external_id,name,email,notes'];
      const note = 'n'.repeat(200);
      for (let i = 1; i <= rows; i++)
        lines.push(`u${i},Name ${i},${i % 4 === 0 ? 'not-an-email' : `u${i}@example.com`},${note}`);
      const file = join(home.dir, 'wide.csv');
      await writeFile(file, `${lines.join('\n')}\n`);
      const rejects = join(home.dir, 'wide.rejects.csv');

      // 64 KiB: the rejects (500 rows of over 200 bytes) outgrow it; the checkpoint does not.
      const child = spawn(
        '/bin/bash',
        ['-c', 'ulimit -f 64 && exec "$@"', 'bash', process.execPath, BIN, 'import', file, '--no-undo'],
        {
          env: envFor(mock),
          cwd: home.dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(ExitCode.INTERRUPTED);
      expect(stderr).toContain(
        `error: Cannot write the rejects file ${rejects}: the file size limit was reached (EFBIG)`,
      );
      expect(stderr).toContain(
        'hint: Raise the file size limit (ulimit -f), then run the same command with --resume to send the rest.',
      );
      expect(stderr).toMatch(/\d+ rows landed, \d+ rejected before the import stopped/);
      expect(stderr).not.toContain('bug');
      expect((await readdir(home.dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);

      const r = await runBin(['import', file, '--resume', '--no-undo', '-o', 'json'], {
        env: envFor(mock),
        cwd: home.dir,
      });
      expect(r.code, r.stderr).toBe(ExitCode.PARTIAL);
      const summary = JSON.parse(r.stdout);
      expect(summary.rejected).toBe(rows / 4);
      const valid = Array.from({ length: rows }, (_, i) => i + 1).filter((i) => i % 4 !== 0);
      const contacts = mock.store.contacts(AGENT);
      expect(contacts.map((c) => c.external_id).sort()).toEqual(valid.map((i) => `u${i}`).sort());
      expect(contacts.every((c) => c.name === `Name ${c.external_id.slice(1)}`)).toBe(true);
      const rejected = (parse(await readFile(rejects, 'utf8')) as string[][]).slice(1).map((r) => r[0]);
      expect(rejected.sort()).toEqual(Array.from({ length: rows / 4 }, (_, i) => `u${(i + 1) * 4}`).sort());
      expect(existsSync(`${file}.import-checkpoint.json`)).toBe(false);
    },
  );
});

describe('contacts export', () => {
  it('round-trips: a CSV export imports again unchanged', async () => {
    const mock = await startTestMock();
    for (const agent of [AGENT, 'copy']) {
      mock.store.defineAttribute(agent, { name: 'plan', type: 'text' });
      mock.store.defineAttribute(agent, { name: 'seats', type: 'number' });
      mock.store.defineAttribute(agent, { name: 'vip', type: 'boolean' });
      mock.store.defineAttribute(agent, { name: 'since', type: 'date' });
      mock.store.defineAttribute(agent, { name: 'legacy', type: 'text' });
    }
    mock.store.upsertContact(AGENT, {
      external_id: 'a',
      name: 'Ada, "the first"',
      email: 'ada@example.com',
      phonenumber: '+442079460958',
      custom_attributes: { plan: 'pro', seats: 3, vip: true, since: '2024-05-31' },
    });
    mock.store.upsertContact(AGENT, {
      external_id: 'b',
      name: 'Multi\nline',
      custom_attributes: { vip: false },
    });
    mock.store.upsertContact(AGENT, { external_id: 'c', custom_attributes: { legacy: 'kept' } });
    // An archived attribute keeps its values: they are exported, and left out on re-import.
    mock.store.updateAttribute(AGENT, 'legacy', { archived: true });
    mock.store.updateAttribute('copy', 'legacy', { archived: true });

    const out = join(home.dir, 'export.csv');
    const exported = await runBin(['export', '--out', out], { env: envFor(mock), cwd: home.dir });
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('Exported 3 contacts');

    expect(await readFile(out, 'utf8')).toContain('attr.legacy');
    const imported = await runBin(['import', out, '--agent', 'copy', '-o', 'json'], {
      env: envFor(mock),
      cwd: home.dir,
    });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('Ignoring columns that map to no field: attr.legacy');
    // Into the same agent too: nothing is rejected, nothing changes.
    const same = await runBin(['import', out, '-o', 'json'], { env: envFor(mock), cwd: home.dir });
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ rows: 3, created: 0, updated: 3, rejected: 0 });
    // The copy cannot hold the archived value; the rest must be equal.
    mock.store.patchContact(AGENT, 'c', { custom_attributes: { legacy: null } });
    // Concurrent rows are created in the order they complete, so compare by external_id.
    const strip = (agent: string) =>
      mock.store
        .contacts(agent)
        .map(({ id: _id, created_at: _c, updated_at: _u, ...rest }) => rest)
        .sort((x, y) => x.external_id.localeCompare(y.external_id));
    expect(strip('copy')).toEqual(strip(AGENT));

    const again = await runBin(['export', '-o', 'csv', '--agent', 'copy'], {
      env: envFor(mock),
      cwd: home.dir,
    });
    // The second export has the same columns and values; only ids and timestamps are new.
    const rows = (csv: string) =>
      (parse(csv, { columns: true }) as Record<string, string>[])
        // Besides ids and timestamps, only the archived attribute differs: the copy cannot take it.
        .map(({ id: _id, created_at: _c, updated_at: _u, 'attr.legacy': _l, ...rest }) => rest)
        .sort((x, y) => x.external_id!.localeCompare(y.external_id!));
    expect(again.stdout.split('\n')[0]).toBe((await readFile(out, 'utf8')).split('\n')[0]);
    expect(rows(again.stdout)).toEqual(rows(await readFile(out, 'utf8')));
    expect(rows(again.stdout)).toHaveLength(3);
  });

  it('round-trips NDJSON and JSON exports too', async () => {
    const mock = await startTestMock();
    mock.store.upsertContact(AGENT, { external_id: 'x', name: 'X', email: 'x@example.com' });
    mock.store.upsertContact(AGENT, { external_id: 'y', phonenumber: '+442079460958' });
    for (const [format, agent] of [
      ['ndjson', 'copy-nd'],
      ['json', 'copy-js'],
    ] as const) {
      const out = join(home.dir, `export.${format}`);
      expect((await runBin(['export', '--out', out], { env: envFor(mock), cwd: home.dir })).code).toBe(0);
      const r = await runBin(['import', out, '--agent', agent, '-o', 'json'], {
        env: envFor(mock),
        cwd: home.dir,
      });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, created: 2, rejected: 0 });
      const strip = (a: string) =>
        mock.store
          .contacts(a)
          .map(({ id: _i, created_at: _c, updated_at: _u, ...rest }) => rest)
          .sort((p, q) => p.external_id.localeCompare(q.external_id));
      expect(strip(agent)).toEqual(strip(AGENT));
    }
  });

  it('streams NDJSON to stdout and refuses a table or TSV', async () => {
    const mock = await startTestMock();
    mock.store.upsertContact(AGENT, { external_id: 'x' });
    const r = await runBin(['export', '-o', 'ndjson'], { env: envFor(mock), cwd: home.dir });
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).external_id),
    ).toEqual(['x']);
    expect((await runBin(['export', '-o', 'table'], { env: envFor(mock), cwd: home.dir })).code).toBe(
      ExitCode.USAGE,
    );
    const tsv = await runBin(['export', '--out', 'x.tsv'], { env: envFor(mock), cwd: home.dir });
    expect(tsv.code).toBe(ExitCode.USAGE);
    expect(tsv.stderr).toContain('not TSV');
  });
});

describe('an unfinished import of the same file', () => {
  /**
   * `u.csv` (four rows) imported one row a request into `mock`, and stopped (as Ctrl-C stops it)
   * once two have landed: its checkpoint is kept.
   */
  async function unfinished(mock: MockServer) {
    const file = join(home.dir, 'u.csv');
    await writeFile(file, 'id,name\nu1,Ann\nu2,Bob\nu3,Cy\nu4,Di\n');
    const client = new ContactsClient({ baseUrl: mock.url, apiKey: TEST_KEY, agentId: AGENT });
    onTestFinished(() => client.close());
    const controller = new AbortController();
    let writes = 0;
    const unsubscribe = mock.store.onChange(() => {
      if (++writes === 2) controller.abort();
    });
    const report = await runImport({
      client,
      agentId: AGENT,
      input: file,
      batchSize: 1,
      concurrency: 1,
      signal: controller.signal,
    });
    unsubscribe();
    expect(report.interrupted).toBe(true);
    const checkpoint = await readFile(`${file}.import-checkpoint.json`, 'utf8');
    expect(JSON.parse(checkpoint).landed).toEqual({ through: 2, ranges: [] });
    return { file, checkpoint };
  }
  const posts = (mock: MockServer) => mock.requests.filter((r) => r.method === 'POST').length;
  const ids = (mock: MockServer) => mock.store.contacts(AGENT).map((c) => c.external_id);

  it('is refused without --resume or --restart: nothing sent or written, the checkpoint kept', async () => {
    const mock = await startTestMock();
    const { file, checkpoint } = await unfinished(mock);
    const before = await readdir(home.dir);
    const sent = posts(mock);
    const r = await runInProcess(['import', file], { env: envFor(mock), cwd: home.dir });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(
      `error: An earlier import of ${file} did not finish (checkpoint ${file}.import-checkpoint.json, 2 rows landed, last at `,
    );
    expect(r.stderr).toContain(
      'hint: Run the same command with --resume to send only the rows that have not landed, ' +
        "or with --restart to start over from the first row (discarding the unfinished import's checkpoint).",
    );
    expect(posts(mock)).toBe(sent);
    expect(await readdir(home.dir)).toEqual(before);
    expect(await readFile(`${file}.import-checkpoint.json`, 'utf8')).toBe(checkpoint);

    // A dry run neither refuses nor touches it.
    const dry = await runInProcess(['import', file, '--dry-run'], { env: envFor(mock), cwd: home.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('Checked 4 rows');
    expect(await readFile(`${file}.import-checkpoint.json`, 'utf8')).toBe(checkpoint);
  });

  it('--resume sends only what has not landed', async () => {
    const mock = await startTestMock();
    const { file } = await unfinished(mock);
    const sent = posts(mock);
    const r = await runInProcess(['import', file, '--resume', '--batch-size', '1'], {
      env: envFor(mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 landed in an earlier run');
    expect(posts(mock) - sent).toBe(2);
    expect(ids(mock)).toEqual(['u1', 'u2', 'u3', 'u4']);
    expect(await readdir(home.dir)).not.toContain('u.csv.import-checkpoint.json');
  });

  it('--restart discards the checkpoint, says so, and imports every row', async () => {
    const mock = await startTestMock();
    const { file } = await unfinished(mock);
    const sent = posts(mock);
    const r = await runInProcess(['import', file, '--restart', '--batch-size', '1'], {
      env: envFor(mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const said = r.stderr.indexOf(
      '--restart: the checkpoint of the unfinished import of this file is discarded',
    );
    expect(said).toBeGreaterThanOrEqual(0);
    expect(said).toBeLessThan(r.stderr.search(/Imported 4 rows/));
    expect(posts(mock) - sent).toBe(4);
    expect(ids(mock)).toEqual(['u1', 'u2', 'u3', 'u4']);
    expect(await readdir(home.dir)).not.toContain('u.csv.import-checkpoint.json');

    // With no unfinished import, --restart is just an import.
    const again = await runInProcess(['import', file, '--restart'], { env: envFor(mock), cwd: home.dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('discarded');
  });

  it('--resume against another service is refused, naming both: another base URL, or --mock', async () => {
    const mock = await startTestMock();
    const { file, checkpoint } = await unfinished(mock);
    const service = mock.url.replace(/\/+$/, '');
    const other = await startTestMock();
    const r = await runInProcess(['import', file, '--resume'], { env: envFor(other), cwd: home.dir });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(
      `the run resumed imported into ${service}, this run into ${other.url.replace(/\/+$/, '')}: resume with --base-url ${service}`,
    );
    expect(r.stderr).toContain('--restart');
    expect(posts(other)).toBe(0);

    const data = join(home.dir, 'mock.db');
    const embedded = await runInProcess(['--mock', 'import', file, '--resume'], {
      env: { ...envFor(mock), CONTACTS_MOCK_DATA: data },
      cwd: home.dir,
    });
    expect(embedded.code).toBe(ExitCode.USAGE);
    expect(embedded.stderr).toContain(
      `the run resumed imported into ${service}, this run into the embedded mock (${data}): resume with --base-url ${service}`,
    );
    expect(await readFile(`${file}.import-checkpoint.json`, 'utf8')).toBe(checkpoint);

    // Against the service it was written for, it resumes.
    const resumed = await runInProcess(['import', file, '--resume'], { env: envFor(mock), cwd: home.dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(ids(mock)).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('--resume and --restart together are refused', async () => {
    const mock = await startTestMock();
    const { file, checkpoint } = await unfinished(mock);
    const sent = posts(mock);
    const r = await runInProcess(['import', file, '--resume', '--restart'], {
      env: envFor(mock),
      cwd: home.dir,
    });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain("option '--restart' cannot be used with option '--resume'");
    expect(posts(mock)).toBe(sent);
    expect(await readFile(`${file}.import-checkpoint.json`, 'utf8')).toBe(checkpoint);
  });
});
