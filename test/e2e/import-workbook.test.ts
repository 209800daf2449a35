// Excel workbooks as a user brings and takes them: a workbook written by a spreadsheet library
// (typed id and date cells, a formula, a second sheet) imported with no flags but the agent;
// `--sheet`; resume; the format told by content; and `export --out x.xlsx` writing a real
// workbook that opens with typed cells and imports back unchanged. Real CLI, mock on port 0.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Workbook, WorkbookWriter } from '@cj-tech-master/excelts';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import type { MockServer } from '../../src/mock/server.js';
import {
  BIN,
  envFor,
  KILL_AND_RESUME_TIMEOUT,
  killImportAtFirstCheckpoint,
  runBin,
  useTempHome,
} from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';

const AGENT = 'wb';
const home = useTempHome();

const byId = (mock: MockServer) =>
  Object.fromEntries(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));

/**
 * A proxy to the mock that forwards the first `posts` POSTs and leaves every later one
 * unanswered (its connection is dropped on close): a run through it cannot finish.
 */
async function gateAfter(
  target: string,
  posts: number,
): Promise<{ url: string; open(): void; close(): Promise<void> }> {
  let forwarded = 0;
  let open = false;
  const server = createServer((req, res) => {
    if (req.method === 'POST' && !open && forwarded++ >= posts) return;
    const upstream = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** From now on every request goes through. */
    open: () => {
      open = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A HubSpot-like sheet as a person keeps it: ids typed as numbers, a date column, a formula. */
async function crmWorkbook(file: string) {
  const wb = new Workbook();
  const sheet = wb.addWorksheet('Contacts');
  sheet.addRow([
    'Record ID',
    'First Name',
    'Last Name',
    'Email',
    'Phone Number',
    'Signed up',
    'Seats',
    'Plan',
  ]);
  sheet.addRow([
    7210448301122,
    'Ada',
    'Lovelace',
    'ada@example.com',
    '+44 20 7946 0958',
    new Date(Date.UTC(2024, 2, 22)),
    3,
    'pro',
  ]);
  sheet.addRow([
    1002,
    'Alan',
    'Turing',
    'alan@example.com',
    null,
    new Date(Date.UTC(2023, 10, 12, 17, 59)),
    { formula: '1+1', result: 2 },
    null,
  ]);
  sheet.addRow([]);
  sheet.addRow([
    1003,
    'Grace',
    'Hopper',
    'grace@example.com',
    null,
    null,
    null,
    { richText: [{ text: 'ent' }, { text: 'erprise' }] },
  ]);
  sheet.getColumn(6).numFmt = 'yyyy-mm-dd';
  sheet.getCell('F3').numFmt = 'yyyy-mm-dd hh:mm';
  const notes = wb.addWorksheet('Notes');
  notes.addRow(['external_id', 'name']);
  notes.addRow(['should-not-import', 'Nobody']);
  await wb.xlsx.writeFile(file);
}

/** A workbook file read back: its first sheet and that sheet's header row. */
async function firstSheet(file: string) {
  const wb = new Workbook();
  await wb.xlsx.readFile(file);
  const sheet = wb.worksheets[0]!;
  return { wb, sheet, header: (sheet.getRow(1).values as unknown[]).slice(1) as string[] };
}

function defineAttributes(mock: MockServer) {
  mock.store.defineAttribute(AGENT, { name: 'signed_up', type: 'date' });
  mock.store.defineAttribute(AGENT, { name: 'seats', type: 'number' });
  mock.store.defineAttribute(AGENT, { name: 'plan', type: 'text' });
}

describe('importing an .xlsx workbook', () => {
  it('reads the first sheet with typed cells as a person sees them, no flags but the agent', async () => {
    const mock = await startTestMock();
    defineAttributes(mock);
    const file = join(home.dir, 'crm.xlsx');
    await crmWorkbook(file);
    const r = await runBin(['import', file, '--agent', AGENT, '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, created: 3, rejected: 0 });
    const got = byId(mock);
    expect(Object.keys(got).sort()).toEqual(['1002', '1003', '7210448301122']);
    expect(got['7210448301122']).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phonenumber: '+442079460958',
      custom_attributes: { signed_up: '2024-03-22', seats: 3, plan: 'pro' },
    });
    expect(got['1002']).toMatchObject({
      name: 'Alan Turing',
      phonenumber: null,
      custom_attributes: { signed_up: '2023-11-12T17:59:00.000Z', seats: 2 },
    });
    expect(got['1003']?.custom_attributes).toEqual({ plan: 'enterprise' });
  });

  it('reads the sheet --sheet names, and says which sheets there are when none matches', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'crm.xlsx');
    await crmWorkbook(file);
    const r = await runBin(['import', file, '--agent', AGENT, '--sheet', 'notes', '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(Object.keys(byId(mock))).toEqual(['should-not-import']);
    const missing = await runBin(['import', file, '--agent', AGENT, '--sheet', 'Leads'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(missing.code).toBe(ExitCode.USAGE);
    expect(missing.stderr).toContain('has no sheet "Leads" (sheets: Contacts, Notes)');
  });

  it('knows a workbook by its content, and rejects rows into a CSV that names the sheet row', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'crm.xlsx');
    await crmWorkbook(file);
    const renamed = join(home.dir, 'download.bin');
    await copyFile(file, renamed);
    // Plan is a number here: with --strict the two rows with a plan are rejected (without it they
    // would land and their plan go to the fixes file), the one without lands.
    mock.store.defineAttribute(AGENT, { name: 'plan', type: 'number' });
    const r = await runBin(['import', renamed, '--agent', AGENT, '--strict', '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code).toBe(ExitCode.PARTIAL);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, created: 1, rejected: 2 });
    const rejects = await readFile(join(home.dir, 'download.rejects.csv'), 'utf8');
    const lines = rejects
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'Record ID,First Name,Last Name,Email,Phone Number,Signed up,Seats,Plan,_line,_error',
    );
    expect(lines[1]).toMatch(
      /^7210448301122,Ada,Lovelace,ada@example\.com,'\+44 20 7946 0958,2024-03-22,3,pro,2,/,
    );
    // Row 5 of the sheet (a blank row 4 before it), as a person finds it.
    expect(lines[2]).toMatch(/^1003,Grace,Hopper,grace@example\.com,,,,enterprise,5,/);
  });

  it(
    'resumes after kill -9 by row, sending only what had not landed',
    async () => {
      let posts = 0;
      const mock = await startTestMock({
        onRequest: (e) => {
          if (e.method === 'POST') posts++;
        },
      });
      // The first run goes through a gate that answers 100 rows and then none: however fast the
      // machine, it is still mid-import (rows in flight) when its first checkpoint is written.
      const gate = await gateAfter(mock.url, 100);
      const rows = 3000;
      const file = join(home.dir, 'many.xlsx');
      const writer = new WorkbookWriter({ filename: file, useSharedStrings: true });
      const sheet = writer.addWorksheet('People');
      sheet.addRow(['external_id', 'name']).commit();
      for (let i = 1; i <= rows; i++) {
        // A blank row half way: rows are counted among the non-blank ones, the same in every run.
        if (i === rows / 2) sheet.addRow([]).commit();
        sheet.addRow([i, `Person ${i}`]).commit();
      }
      sheet.commit();
      await writer.commit();
      const args = ['--agent', AGENT, '--batch-size', '1', '--concurrency', '4'];

      const signal = await killImportAtFirstCheckpoint(file, args, {
        env: { ...envFor(home, mock), CONTACTS_BASE_URL: gate.url },
        cwd: home.dir,
      });
      expect(signal).toBe('SIGKILL');
      // The resume goes to the service its checkpoint names (another base URL is refused): the
      // gate, which now lets every row through.
      gate.open();
      onTestFinished(() => gate.close());
      const landedBefore = mock.store.contacts(AGENT).length;
      expect(landedBefore).toBeGreaterThan(0);
      expect(landedBefore).toBeLessThanOrEqual(100);

      const postsBefore = posts;
      const r = await runBin(['import', file, '--resume', '-o', 'json', ...args], {
        env: { ...envFor(home, mock), CONTACTS_BASE_URL: gate.url },
        cwd: home.dir,
      });
      expect(r.code, r.stderr).toBe(ExitCode.OK);
      const summary = JSON.parse(r.stdout);
      expect(summary.skipped).toBeGreaterThan(0);
      expect(summary.skipped + summary.created + summary.updated).toBe(rows);
      // Only the rows not in the checkpoint were sent again.
      expect(posts - postsBefore).toBe(rows - summary.skipped);
      const got = byId(mock);
      expect(Object.keys(got)).toHaveLength(rows);
      expect([1, rows / 2, rows].map((i) => got[String(i)]?.name)).toEqual([
        'Person 1',
        `Person ${rows / 2}`,
        `Person ${rows}`,
      ]);
    },
    KILL_AND_RESUME_TIMEOUT,
  );

  it("imports another program's workbook: every field of the sheet --sheet names, no word on encodings", async () => {
    const mock = await startTestMock();
    mock.store.defineAttribute(AGENT, { name: 'signed_up', type: 'date' });
    mock.store.defineAttribute(AGENT, { name: 'vip', type: 'boolean' });
    const file = join(home.dir, 'leads.xlsx');
    // Written by openpyxl (test/fixtures/workbooks/make.sh): a Summary sheet, then Leads.
    await copyFile(new URL('../fixtures/workbooks/openpyxl-two-sheets.xlsx', import.meta.url), file);
    const r = await runBin(['import', file, '--agent', AGENT, '--sheet', 'Leads', '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(r.stderr).not.toMatch(/UTF-8|Windows-1252|encoding/);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 4, created: 4, rejected: 0 });
    const got = byId(mock);
    expect(Object.keys(got).sort()).toEqual(['101', '102', '103', '104']);
    expect(got['101']).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phonenumber: '+14155550101',
      custom_attributes: { signed_up: '2024-03-22', vip: true },
    });
    expect(got['102']).toMatchObject({
      name: 'Alan Turing',
      email: 'alan@example.com',
      phonenumber: '+442079460102',
      custom_attributes: { signed_up: '2023-11-12T17:59:00.000Z', vip: false },
    });
    expect(got['104']).toMatchObject({ name: 'Zoë Ñandú', phonenumber: '+442079460104' });
  });

  it('says which other sheets hold cells when none is named, before an error too, and in the summary record', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'fair.xlsx');
    await copyFile(new URL('../fixtures/workbooks/openpyxl-two-sheets.xlsx', import.meta.url), file);
    const r = await runBin(['import', file, '--agent', AGENT], { env: envFor(home, mock), cwd: home.dir });
    expect(r.code).toBe(ExitCode.USAGE);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(
      `${file}: the first sheet, "Summary", is read; the other sheets with values in them are not: "Leads" (--sheet NAME reads another)`,
    );
    expect(lines[1]).toMatch(/^error: No column maps to external_id/);
    // Under --quiet the sheets are said with the error alone.
    const quiet = await runBin(['import', file, '--agent', AGENT, '-q'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(quiet.code).toBe(ExitCode.USAGE);
    expect(quiet.stderr.split('\n').slice(0, 2)).toEqual([`warning: ${lines[0]}`, lines[1]]);
    const extra = join(home.dir, 'extra.xlsx');
    await copyFile(new URL('../fixtures/workbooks/openpyxl-extra-sheets.xlsx', import.meta.url), extra);
    const ok = await runBin(['import', extra, '--agent', AGENT, '-q', '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(ok.code, ok.stderr).toBe(ExitCode.OK);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      created: 4,
      sheets_not_read: ['Lookups'],
      sections_not_read: [],
    });
  });

  it('says what is wrong with a workbook it cannot read', async () => {
    const mock = await startTestMock();
    const csv = join(home.dir, 'really.xlsx');
    await writeFile(csv, 'external_id,name\n1,a\n');
    const r = await runBin(['import', csv, '--agent', AGENT], { env: envFor(home, mock), cwd: home.dir });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('really.xlsx: not a readable .xlsx workbook: it is not a zip archive');
    const full = join(home.dir, 'crm.xlsx');
    await crmWorkbook(full);
    const cut = join(home.dir, 'cut.xlsx');
    await writeFile(cut, (await readFile(full)).subarray(0, 2000));
    const c = await runBin(['import', cut, '--agent', AGENT], { env: envFor(home, mock), cwd: home.dir });
    expect(c.code).toBe(ExitCode.USAGE);
    expect(c.stderr).toContain('cut.xlsx: not a readable .xlsx workbook');
    expect(mock.store.contacts(AGENT)).toHaveLength(0);
  });

  it('refuses an old .xls workbook with what to do', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'old.xls');
    await writeFile(file, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    const r = await runBin(['import', file, '--agent', AGENT], { env: envFor(home, mock), cwd: home.dir });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(
      'Excel 97-2003 workbook (.xls): open it in a spreadsheet and save it as .xlsx',
    );
  });
});

/** The binary with stdin from one file and stdout into another, as a shell redirect does. */
async function runWithFiles(argv: string[], env: NodeJS.ProcessEnv, stdinFile?: string, stdoutFile?: string) {
  const input = stdinFile ? await open(stdinFile, 'r') : undefined;
  const output = stdoutFile ? await open(stdoutFile, 'w') : undefined;
  try {
    return await new Promise<{ code: number; stderr: string; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...argv], {
        env,
        cwd: home.dir,
        stdio: [input?.fd ?? 'ignore', output?.fd ?? 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      child.stdout?.on('data', (c: Buffer) => {
        stdout += c.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stderr, stdout }));
    });
  } finally {
    await input?.close();
    await output?.close();
  }
}

describe('workbooks through pipes', () => {
  it('imports a workbook from stdin, and exports one to stdout with -o xlsx', async () => {
    const mock = await startTestMock();
    defineAttributes(mock);
    const file = join(home.dir, 'crm.xlsx');
    await crmWorkbook(file);
    // Stdin is copied to a temporary file (a zip is read from its end): none is left behind.
    // (Node 22.1+ keeps its own compile cache in the temporary directory: that one is Node's.)
    const tmp = join(home.dir, 'tmp');
    await mkdir(tmp);
    const r = await runWithFiles(
      ['import', '-', '--agent', AGENT, '-o', 'json'],
      { ...envFor(home, mock), TMPDIR: tmp },
      file,
    );
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, created: 3 });
    expect((await readdir(tmp)).filter((name) => name !== 'node-compile-cache')).toEqual([]);
    const out = join(home.dir, 'piped.xlsx');
    const e = await runWithFiles(
      ['export', '--agent', AGENT, '-o', 'xlsx'],
      envFor(home, mock),
      undefined,
      out,
    );
    expect(e.code, e.stderr).toBe(ExitCode.OK);
    const wb = new Workbook();
    await wb.xlsx.readFile(out);
    expect(wb.worksheets[0]!.rowCount).toBe(4);
    // Other commands print text: a workbook is refused there.
    const list = await runBin(['list', '--agent', AGENT, '-o', 'xlsx'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(list.code).toBe(ExitCode.USAGE);
    expect(list.stderr).toContain('-o xlsx writes a workbook: only export and template write one');
  });
});

describe('export --out x.xlsx', () => {
  it('writes a workbook with typed cells that imports back with every row unchanged', async () => {
    const mock = await startTestMock();
    defineAttributes(mock);
    mock.store.defineAttribute(AGENT, { name: 'vip', type: 'boolean' });
    mock.store.upsertContact(AGENT, {
      external_id: '00042',
      name: 'Ada',
      email: 'ada@example.com',
      phonenumber: '+442079460958',
      custom_attributes: { seats: 12.5, signed_up: '2024-03-22', plan: '=1+1', vip: true },
    });
    mock.store.upsertContact(AGENT, {
      external_id: '7',
      custom_attributes: { signed_up: '2023-11-12T17:59:00.000Z', vip: false },
    });
    const out = join(home.dir, 'contacts.xlsx');
    const r = await runBin(['export', '--agent', AGENT, '--out', out], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.OK);

    const { sheet, header } = await firstSheet(out);
    expect(header).toEqual([
      'id',
      'external_id',
      'name',
      'email',
      'phonenumber',
      'stripe_accounts',
      'created_at',
      'updated_at',
      'attr.signed_up',
      'attr.seats',
      'attr.plan',
      'attr.vip',
    ]);
    const col = (name: string) => header.indexOf(name) + 1;
    const ada = sheet.getRow(2);
    expect(ada.getCell(col('external_id')).value).toBe('00042');
    expect(ada.getCell(col('attr.seats')).value).toBe(12.5);
    expect(ada.getCell(col('attr.signed_up')).value).toEqual(new Date('2024-03-22T00:00:00Z'));
    expect(ada.getCell(col('attr.plan')).value).toBe('=1+1');
    expect(ada.getCell(col('attr.vip')).value).toBe(true);
    expect(ada.getCell(col('created_at')).value).toBeInstanceOf(Date);
    expect(sheet.getRow(3).getCell(col('attr.signed_up')).value).toEqual(new Date('2023-11-12T17:59:00Z'));

    const back = await runBin(['import', out, '--agent', AGENT, '--dry-run', '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(back.code, back.stderr).toBe(ExitCode.OK);
    expect(JSON.parse(back.stdout)).toMatchObject({
      rows: 2,
      would_create: 0,
      would_update: 0,
      unchanged: 2,
      would_reject: 0,
    });
  });

  it('refuses an extension it cannot write, and -o against the extension, before fetching', async () => {
    const mock = await startTestMock();
    for (const [args, says] of [
      [['--out', 'x.xls'], 'cannot write an Excel 97-2003 workbook'],
      [['--out', 'x.pdf'], 'cannot tell which format to write to x.pdf'],
      [['-o', 'csv', '--out', 'x.xlsx'], '--out x.xlsx names xlsx but -o asks for csv'],
    ] as const) {
      const r = await runBin(['export', '--agent', AGENT, ...args], {
        env: envFor(home, mock),
        cwd: home.dir,
      });
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(says);
    }
    expect(mock.requests).toHaveLength(0);
  });

  it('writes an .xlsx template whose filled rows import as is', async () => {
    const mock = await startTestMock();
    defineAttributes(mock);
    const file = join(home.dir, 'template.xlsx');
    const r = await runBin(['template', '--agent', AGENT, '--out', file], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    const { wb, sheet, header } = await firstSheet(file);
    expect(header).toEqual([
      'external_id',
      'name',
      'email',
      'phonenumber',
      'stripe_accounts',
      'signed_up',
      'seats',
      'plan',
    ]);
    sheet.addRow([
      'c-1',
      'Filled In',
      'f@example.com',
      null,
      null,
      new Date(Date.UTC(2025, 0, 2)),
      4,
      'basic',
    ]);
    sheet.getCell('F2').numFmt = 'yyyy-mm-dd';
    await wb.xlsx.writeFile(file);
    const imported = await runBin(['import', file, '--agent', AGENT, '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(imported.code, imported.stderr).toBe(ExitCode.OK);
    expect(byId(mock)['c-1']).toMatchObject({
      name: 'Filled In',
      custom_attributes: { signed_up: '2025-01-02', seats: 4, plan: 'basic' },
    });
  });
});
