// `contacts undo`, as the issue checks it: against a mock holding 50 contacts, an import of 100
// rows (50 changing and clearing their fields, 50 new) is taken back field for field, except a
// contact edited since, which is kept and named; a second undo finds nothing to do.
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../src/api/contact.js';
import { ExitCode } from '../../../src/cli/errors.js';
import type { MockServer } from '../../../src/mock/server.js';
import { envFor, runInProcess, useTempHome } from '../../helpers/cli.js';
import { startTestMock } from '../../helpers/mock.js';

const home = useTempHome();
const AGENT = 'undo-cli';

function cli(mock: MockServer, argv: string[], env: NodeJS.ProcessEnv = {}) {
  return runInProcess(argv, { env: envFor(home, mock, { CONTACTS_AGENT: AGENT, ...env }), cwd: home.dir });
}

const snapshot = (mock: MockServer) =>
  new Map(
    mock.store.contacts(AGENT).map((c: Contact) => {
      const { created_at: _c, updated_at: _u, ...fields } = c;
      return [c.external_id, fields];
    }),
  );

async function fifty() {
  const mock = await startTestMock();
  mock.store.defineAttribute(AGENT, { name: 'plan', type: 'text' });
  mock.store.defineAttribute(AGENT, { name: 'seats', type: 'number' });
  for (let i = 1; i <= 50; i++) {
    mock.store.upsertContact(AGENT, {
      external_id: `p${i}`,
      name: `Person ${i}`,
      email: `p${i}@example.com`,
      phonenumber: '+442079460958',
      custom_attributes: { plan: 'free', seats: i },
    });
  }
  return mock;
}

/** 50 rows changing and clearing fields of p1..p50 (NDJSON: null clears), 50 new ones. */
async function hundredRows(): Promise<string> {
  const lines: string[] = [];
  for (let i = 1; i <= 50; i++) {
    lines.push(
      JSON.stringify({
        external_id: `p${i}`,
        name: `Renamed ${i}`,
        phonenumber: null,
        custom_attributes: { plan: i % 2 ? 'pro' : null, seats: 1000 + i },
      }),
    );
  }
  for (let i = 1; i <= 50; i++) lines.push(JSON.stringify({ external_id: `n${i}`, name: `New ${i}` }));
  const path = join(home.dir, 'hundred.ndjson');
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('contacts undo', () => {
  it('takes the import whose results file is named back, keeping and naming what was edited since', async () => {
    const mock = await fifty();
    const before = snapshot(mock);
    await hundredRows();
    const imported = await cli(mock, ['import', 'hundred.ndjson', '--results', 'r.csv']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/To take this import back: contacts undo r\.csv/);
    expect(mock.store.count(AGENT)).toBe(100);
    mock.store.patchContact(AGENT, 'p7', { name: 'Edited after the import' });

    const plan = await cli(mock, ['undo', 'r.csv', '--dry-run', '-o', 'table']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^would delete n1 \(ct_\w+\)$/m);
    expect(plan.stdout).toMatch(
      /^would restore p2: name "Renamed 2" -> "Person 2"; phonenumber \(empty\) -> "\+442079460958"; custom_attributes\.plan \(empty\) -> "free"; custom_attributes\.seats 1002 -> 2$/m,
    );
    expect(plan.stdout).toMatch(
      /^kept: p7: changed since the import: name \(the import left "Renamed 7", now "Edited after the import"\)$/m,
    );
    expect(plan.stderr).toMatch(
      /Would delete 50 and restore 49 of the import of hundred\.ndjson .*Kept as they are: 1 changed since the import\./,
    );
    expect(mock.store.count(AGENT)).toBe(100);

    // Off a terminal it needs --yes.
    const refused = await cli(mock, ['undo', 'r.csv']);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect(refused.stderr).toMatch(/pass --yes/);

    const undone = await cli(mock, ['undo', 'r.csv', '--yes']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stderr).toMatch(/kept: p7: changed since the import/);
    expect(undone.stderr).toMatch(
      /Took back the import of hundred\.ndjson \(\d{8}T\d{9}-[0-9a-f]{4}, .*\) in [\d.]+s: 50 deleted, 49 restored\. Kept as they are: 1 changed since the import\./,
    );
    const after = snapshot(mock);
    expect(after.get('p7')).toMatchObject({ name: 'Edited after the import' });
    after.delete('p7');
    const expected = new Map(before);
    expected.delete('p7');
    expect(after).toEqual(expected);

    const again = await cli(mock, ['undo', 'r.csv', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/Nothing to undo/);
    expect(snapshot(mock).size).toBe(50);
  });

  it('with no file takes the most recent import back, and lists what it keeps', async () => {
    const mock = await fifty();
    await hundredRows();
    await writeFile(join(home.dir, 'second.csv'), 'external_id,name\nn1,Second\nlate,Late\n');
    expect((await cli(mock, ['import', 'hundred.ndjson'])).code).toBe(0);
    const afterFirst = snapshot(mock);
    expect((await cli(mock, ['import', 'second.csv'])).code).toBe(0);

    const list = await cli(mock, ['undo', '--list', '-o', 'json']);
    const records = JSON.parse(list.stdout) as {
      input: string;
      created: number;
      updated: number;
      service: string;
    }[];
    expect(records.map((r) => [basename(r.input), r.created, r.updated])).toEqual([
      ['second.csv', 1, 1],
      ['hundred.ndjson', 50, 50],
    ]);
    expect(records[0]!.service).toBe(mock.url);

    const undone = await cli(mock, ['undo', '--yes']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(snapshot(mock)).toEqual(afterFirst);

    // Again: the same import, already taken back, its record on stdout for scripts as ever; the
    // one before is named, not taken.
    const again = await cli(mock, ['undo', '--yes', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/The most recent import, the import of second\.csv .* was taken back at/);
    expect(again.stderr).toMatch(/Nothing to undo/);
    expect(again.stderr).toContain(`The import before it, of hundred.ndjson`);
    expect(again.stderr).toMatch(/contacts undo \d{8}T\d{9}-[0-9a-f]+/);
    expect(JSON.parse(again.stdout)).toMatchObject({ deleted: 0, restored: 0, failed: 0 });
    expect(snapshot(mock)).toEqual(afterFirst);
  });

  it('refuses an import made for another agent or another service', async () => {
    const mock = await fifty();
    await hundredRows();
    expect((await cli(mock, ['import', 'hundred.ndjson', '--results', 'r.ndjson'])).code).toBe(0);
    const otherAgent = await cli(mock, ['undo', 'r.ndjson', '--yes'], { CONTACTS_AGENT: 'someone-else' });
    expect(otherAgent.code).not.toBe(0);
    expect(otherAgent.stderr).toMatch(/made for agent undo-cli, not someone-else/);
    const elsewhere = await startTestMock();
    const otherService = await cli(elsewhere, ['undo', 'r.ndjson', '--yes']);
    expect(otherService.code).not.toBe(0);
    expect(otherService.stderr).toMatch(
      /was made against http:\/\/127\.0\.0\.1:\d+.*not http:\/\/127\.0\.0\.1:\d+/,
    );
    const noFile = await cli(elsewhere, ['undo', '--yes']);
    expect(noFile.code).toBe(ExitCode.USAGE);
    expect(noFile.stderr).toMatch(/No import of agent undo-cli into .* to take back/);
    expect(mock.store.count(AGENT)).toBe(100);
  });

  it('--no-undo records nothing, and a results file without a record says what to do instead', async () => {
    const mock = await fifty();
    await hundredRows();
    expect((await cli(mock, ['import', 'hundred.ndjson', '--results', 'r.csv', '--no-undo'])).code).toBe(0);
    const r = await cli(mock, ['undo', 'r.csv', '--yes']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/No undo record names r\.csv as its results file/);
    expect(r.stderr).toMatch(/contacts delete --from r\.csv/);
    const both = await cli(mock, ['import', 'hundred.ndjson', '--no-undo', '--undoable']);
    expect(both.code).toBe(ExitCode.USAGE);
  });
});
