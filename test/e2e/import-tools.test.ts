// The tools around an import: E.164 phone numbers (import, upsert, update, the profile's
// default country), saved mappings (--map-file) and the template that imports as is.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { envFor, runInProcess, useTempHome } from '../helpers/cli.js';
import { AGENT, startTestMock } from '../helpers/mock.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const home = useTempHome();

const cli = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  runInProcess(['--mock', ...argv], { env: { ...home.env, ...env }, cwd: home.dir });
const file = (name: string) => join(home.dir, name);
const contact = async (id: string) => JSON.parse((await cli(['get', id, '-o', 'json'])).stdout);

describe('phone numbers in E.164', () => {
  it('import stores international numbers in E.164 and reads national ones in --default-country', async () => {
    await writeFile(
      file('p.csv'),
      'external_id,phone,name\nu1,+44 20 7946 0958,Ann\nu2,020 7946 0958,Bo\nu3,+44 12,Cy\n',
    );
    const r = await cli(['import', 'p.csv', '--default-country', 'GB']);
    expect(r.code, r.stderr).toBe(0);
    expect((await contact('u1')).phonenumber).toBe('+442079460958');
    expect((await contact('u2')).phonenumber).toBe('+442079460958');
    // A number that cannot be one: the contact lands without it, the number goes to the fixes file.
    expect((await contact('u3')).phonenumber).toBeNull();
    const fixes = await readFile(file('p.fixes.csv'), 'utf8');
    expect(fixes).toMatch(/u3,,'\+44 12,,4,phonenumber: too short for \+44/);
    const strict = await cli(['import', 'p.csv', '--default-country', 'GB', '--strict']);
    expect(strict.code).toBe(ExitCode.PARTIAL);
    expect(await readFile(file('p.rejects.csv'), 'utf8')).toMatch(
      /u3,'\+44 12,Cy,4,phonenumber: too short for \+44/,
    );
  });

  it('a national number without a country is left out, saying how to fix it', async () => {
    await writeFile(file('n.ndjson'), '{"external_id":"u1","phonenumber":"020 7946 0958"}\n');
    const r = await cli(['import', 'n.ndjson', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    // The reason, then the flag that reads such numbers, said once.
    expect(r.stderr).toMatch(
      /line 1: lands without phonenumber: a national number and no country.*\nTo read national phone numbers in one country, pass --default-country/,
    );
    expect(r.stderr.split('To read national phone numbers').length - 1).toBe(1);
    const strict = await cli(['import', 'n.ndjson', '--dry-run', '--strict']);
    expect(strict.code).toBe(ExitCode.PARTIAL);
  });

  it('the profile setting default-country serves import, upsert and update alike', async () => {
    expect((await cli(['config', 'set', 'default-country', 'gb'])).code).toBe(0);
    expect((await cli(['config', 'get', 'default-country'])).stdout.trim()).toBe('GB');
    expect((await cli(['upsert', '--external-id', 'u1', '--phone', '020 7946 0958'])).code).toBe(0);
    expect((await contact('u1')).phonenumber).toBe('+442079460958');
    expect((await cli(['update', 'u1', '--phone', '(202) 555-0142', '--default-country', 'US'])).code).toBe(
      0,
    );
    expect((await contact('u1')).phonenumber).toBe('+12025550142');
    const bad = await cli(['update', 'u1', '--phone', '+44 12']);
    expect(bad.code).toBe(ExitCode.USAGE);
    expect(bad.stderr).toMatch(/--phone: Invalid phone number: too short/);
    // The flag the user typed is the one named.
    const alias = await cli(['update', 'u1', '--phonenumber', '12']);
    expect(alias.code).toBe(ExitCode.USAGE);
    expect(alias.stderr).toMatch(/--phonenumber: /);
    const env = await cli(['upsert', '--external-id', 'u2', '--phone', '030 901820'], {
      CONTACTS_DEFAULT_COUNTRY: 'DE',
    });
    expect(env.code).toBe(0);
    expect((await contact('u2')).phonenumber).toBe('+4930901820');
    expect((await cli(['config', 'set', 'default-country', 'Britain'])).code).toBe(ExitCode.USAGE);
  });
});

describe('saved mappings', () => {
  it('--map-file maps columns, and --map flags override its entries', async () => {
    await writeFile(file('crm.csv'), 'Client Ref,Contact,Notes\nc1,Ada,x\n');
    await writeFile(
      file('crm-map.json'),
      JSON.stringify({ 'Client Ref': 'external_id', Contact: 'email', Notes: '-' }),
    );
    const r = await cli(['import', 'crm.csv', '--map-file', 'crm-map.json', '--map', 'Contact=name']);
    expect(r.code, r.stderr).toBe(0);
    expect(await contact('c1')).toMatchObject({ external_id: 'c1', name: 'Ada', email: null });
    expect(r.stderr).not.toMatch(/Ignoring columns/);
  });

  it('phone names phonenumber, in --map and in a map file', async () => {
    await writeFile(file('de.csv'), 'Kundennummer,Telefon,Handy\nk1,+49 30 901820,\nk2,,+49 30 901821\n');
    await writeFile(file('de-map.json'), JSON.stringify({ Kundennummer: 'external_id', Handy: 'phone' }));
    const r = await cli(['import', 'de.csv', '--map-file', 'de-map.json', '--map', 'Telefon=phone']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Telefon -> phonenumber');
    expect((await contact('k1')).phonenumber).toBe('+4930901820');
    expect((await contact('k2')).phonenumber).toBe('+4930901821');
  });

  it('a broken map file is a usage error naming it', async () => {
    await writeFile(file('crm.csv'), 'Client Ref\nc1\n');
    await writeFile(file('bad.json'), '["Client Ref"]');
    const r = await cli(['import', 'crm.csv', '--map-file', 'bad.json']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/--map-file bad\.json must be a JSON object/);
    await writeFile(file('bad.json'), '{"Client Ref": "nowhere"}');
    const unknown = await cli(['import', 'crm.csv', '--map-file', 'bad.json']);
    expect(unknown.stderr).toMatch(/unknown field "nowhere"/);
  });
});

describe('spreadsheet and CRM exports', () => {
  it('imports a Google Contacts export with its email as the external_id, the email kept too', async () => {
    await writeFile(
      file('google.csv'),
      'First Name,Last Name,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\n' +
        'Ada,Lovelace,* Home,ada@example.com,Mobile,+44 20 7946 0958\n',
    );
    const r = await cli(['import', 'google.csv', '--map', 'E-mail 1 - Value=external_id,email']);
    expect(r.code, r.stderr).toBe(0);
    expect(await contact('ada@example.com')).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phonenumber: '+442079460958',
    });
    // The same header given twice adds up rather than dropping the first mapping.
    const twice = await cli([
      'import',
      'google.csv',
      '--dry-run',
      '--map',
      'E-mail 1 - Value=external_id',
      '--map',
      'E-mail 1 - Value=email',
    ]);
    expect(twice.code, twice.stderr).toBe(0);
  });
});

describe('contacts template', () => {
  it('prints the fields and the active attributes, and a filled CSV template imports as is', async () => {
    for (const [name, type] of [
      ['plan', 'text'],
      ['seats', 'number'],
      ['old', 'text'],
    ]) {
      await cli(['attrs', 'define', name!, '--type', type!]);
    }
    await cli(['attrs', 'update', 'old', '--archive']);
    const t = await cli(['template']);
    expect(t.code).toBe(0);
    expect(t.stdout).toBe('external_id,name,email,phonenumber,stripe_accounts,plan,seats\n');
    await writeFile(
      file('filled.csv'),
      `${t.stdout}u1,Ada,ada@example.com,+44 20 7946 0958,"[{""label"":""main"",""stripe_id"":""cus_1""}]",pro,3\n`,
    );
    const r = await cli(['import', 'filled.csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Ignoring columns/);
    expect(await contact('u1')).toMatchObject({
      name: 'Ada',
      phonenumber: '+442079460958',
      stripe_accounts: [{ label: 'main', stripe_id: 'cus_1' }],
      custom_attributes: { plan: 'pro', seats: 3 },
    });
  });

  it('names an attribute attr.<name> when its bare name would map to something else', async () => {
    // `first_name` is a synonym the importer joins into the name: the attribute needs its prefix.
    await cli(['attrs', 'define', 'first_name', '--type', 'text']);
    await cli(['attrs', 'define', 'mail', '--type', 'text']);
    const t = await cli(['template']);
    expect(t.stdout.trim()).toBe('external_id,name,email,phonenumber,stripe_accounts,attr.first_name,mail');
    await writeFile(file('t.csv'), `${t.stdout}u1,Ada,,,,Ada-Marie,box 9\n`);
    expect((await cli(['import', 't.csv'])).code).toBe(0);
    expect(await contact('u1')).toMatchObject({
      name: 'Ada',
      custom_attributes: { first_name: 'Ada-Marie', mail: 'box 9' },
    });
  });

  it('a filled JSON template imports as is', async () => {
    await cli(['attrs', 'define', 'seats', '--type', 'number']);
    const t = await cli(['template', '-o', 'json']);
    const [example] = JSON.parse(t.stdout);
    expect(example).toEqual({
      external_id: '',
      name: null,
      email: null,
      phonenumber: null,
      stripe_accounts: [],
      custom_attributes: { seats: null },
    });
    await writeFile(
      file('t.json'),
      JSON.stringify([{ ...example, external_id: 'j1', custom_attributes: { seats: 2 } }]),
    );
    expect((await cli(['import', 't.json'])).code).toBe(0);
    expect((await contact('j1')).custom_attributes).toEqual({ seats: 2 });
  });
});

describe('the dry-run plan', () => {
  async function seeded() {
    await cli(['attrs', 'define', 'plan', '--type', 'text']);
    await cli(['upsert', '-e', 'same', '--name', 'Ada', '--attr', 'plan=pro']);
    await cli(['upsert', '-e', 'changed', '--name', 'Bob']);
    await writeFile(file('plan.csv'), 'external_id,name,plan\nsame,Ada,pro\nchanged,Bobby,team\nnew,Cy,\n');
  }

  it('reports create, update and unchanged per row, and writes nothing', async () => {
    await seeded();
    const before = (await cli(['list', '-o', 'json'])).stdout;
    const r = await cli(['import', 'plan.csv', '--dry-run', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      would_create: 1,
      would_update: 1,
      unchanged: 1,
      dry_run: true,
    });
    expect((await cli(['list', '-o', 'json'])).stdout).toBe(before);
  });

  it('--diff lists each changing row field by field (NDJSON), unchanged rows only counted', async () => {
    await seeded();
    const r = await cli(['import', 'plan.csv', '--dry-run', '--diff', '-o', 'ndjson']);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.slice(0, 2)).toEqual([
      {
        line: 3,
        external_id: 'changed',
        action: 'update',
        changes: { name: ['Bob', 'Bobby'], 'custom_attributes.plan': [null, 'team'] },
      },
      { line: 4, external_id: 'new', action: 'create', changes: { name: [null, 'Cy'] } },
    ]);
    expect(lines[2]).toMatchObject({ unchanged: 1 });
    // -o json after the rows: one object a line too, the summary last.
    const json = await cli(['import', 'plan.csv', '--dry-run', '--diff', '-o', 'json']);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(lines.map((l, i) => (i < 2 ? l : expect.objectContaining({ unchanged: 1, would_create: 1 }))));
    const readable = await runInProcess(['--mock', 'import', 'plan.csv', '--dry-run', '--diff'], {
      env: home.env,
      cwd: home.dir,
      tty: true,
    });
    expect(readable.stdout).toContain(
      'line 3  changed  update\n  name: "Bob" -> "Bobby"\n  custom_attributes.plan: (none) -> "team"',
    );
    expect(readable.stdout).not.toContain('same');
  });

  it('asks only for the contacts the file names when the directory is large', async () => {
    const { startTestMock } = await import('../helpers/mock.js');
    const mock = await startTestMock();
    const users = Array.from({ length: 1000 }, (_, i) => ({ external_id: `big${i}` }));
    for (let i = 0; i < 6; i++) {
      mock.store.batchUpsert('a1', { users: users.map((u) => ({ external_id: `${u.external_id}_${i}` })) });
    }
    await writeFile(file('small.csv'), 'external_id,name\nbig1_0,x\nnobody,y\n');
    const env = { ...home.env, CONTACTS_API_KEY: 'bk_test_plan_1234', CONTACTS_BASE_URL: mock.url };
    const before = mock.requests.length;
    const r = await runInProcess(['import', 'small.csv', '--agent', 'a1', '--dry-run', '-o', 'json'], {
      env,
      cwd: home.dir,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ would_create: 1, would_update: 1 });
    const lists = mock.requests
      .slice(before)
      .filter((q) => q.method === 'GET' && q.path.endsWith('/contacts'));
    expect(lists.length).toBeLessThanOrEqual(2);
  });
});

describe('the results file', () => {
  it('has one record per landed row, and a resumed import appends to it', async () => {
    await writeFile(file('in.csv'), 'external_id,email\nr1,a@example.com\nr2,bad\nr1,b@example.com\n');
    const r = await cli(['import', 'in.csv', '--results', 'out.csv']);
    expect(r.code).toBe(ExitCode.PARTIAL);
    const rows = (await readFile(file('out.csv'), 'utf8')).trim().split('\n');
    expect(rows[0]).toBe('line,external_id,id,action');
    expect(
      rows.slice(1).map((l) =>
        l
          .split(',')
          .filter((_, i) => i !== 2)
          .join(','),
      ),
    ).toEqual(['2,r1,created', '4,r1,updated']);
    const nd = await cli(['import', 'in.csv', '--results', 'out.ndjson']);
    expect(nd.code).toBe(ExitCode.PARTIAL);
    const records = (await readFile(file('out.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({ line: 2, external_id: 'r1', action: 'updated' });
    expect(records[0].id).toMatch(/^ct_/);
    const bad = await cli(['import', 'in.csv', '--results', 'out.txt']);
    expect(bad.code).toBe(ExitCode.USAGE);
    expect(bad.stderr).toMatch(/--results .*out\.txt: name a \.csv or \.ndjson file/);
  });

  it('a resumed import appends the rows it lands', async () => {
    const { EventEmitter } = await import('node:events');
    const { PassThrough, Readable } = await import('node:stream');
    const { run } = await import('../../src/cli/main.js');
    const { startTestMock } = await import('../helpers/mock.js');
    const mock = await startTestMock({ faults: { latencyMs: 5 } });
    let text = 'external_id\n';
    for (let i = 0; i < 300; i++) text += `k${i}\n`;
    await writeFile(file('many.csv'), text);
    const signals = new EventEmitter();
    const sink = () => Object.assign(new PassThrough(), { isTTY: false });
    const io = {
      stdout: sink(),
      stderr: sink(),
      stdin: Readable.from([]),
      env: { ...home.env, CONTACTS_API_KEY: 'bk_test_results_1', CONTACTS_BASE_URL: mock.url },
      cwd: home.dir,
      signals: signals as never,
    };
    const first = run(
      ['import', 'many.csv', '--agent', 'a1', '--batch-size', '1', '--results', 'res.ndjson'],
      io,
    );
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (mock.requests.length > 40) {
          clearInterval(t);
          signals.emit('SIGINT');
          resolve();
        }
      }, 2);
    });
    expect(await first).toBe(130);
    const resumed = await runInProcess(
      ['import', 'many.csv', '--agent', 'a1', '--resume', '--results', 'res.ndjson'],
      { env: io.env, cwd: home.dir },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const ids = (await readFile(file('res.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).external_id);
    expect(new Set(ids).size).toBe(300);
  });
});

describe('teardown: delete --from', () => {
  it('deletes every contact a results file names, twice without error, and says what it would do', async () => {
    await writeFile(file('seed.csv'), 'external_id\nt1\nt2\nt3\n');
    await cli(['import', 'seed.csv', '--results', 'seed.results.csv']);
    await cli(['upsert', '-e', 'keep']);
    const dry = await cli(['delete', '--from', 'seed.results.csv', '--dry-run', '-o', 'json']);
    const planned = JSON.parse(dry.stdout);
    expect(planned.would_delete).toBe(3);
    expect(planned.ids.sort()).toEqual(['t1', 't2', 't3']);
    const refused = await cli(['delete', '--from', 'seed.results.csv']);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect(refused.stderr).toMatch(/Refusing to delete 3 contacts .* without confirmation/);
    const first = await cli(['delete', '--from', 'seed.results.csv', '--yes', '-o', 'json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ deleted: 3, not_found: 0, failed: 0 });
    const again = await cli(['delete', '--from', 'seed.results.csv', '--yes', '-o', 'json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ deleted: 0, not_found: 3 });
    const left = JSON.parse((await cli(['list', '-o', 'json'])).stdout);
    expect(left.map((c: { external_id: string }) => c.external_id)).toEqual(['keep']);
  });

  it('reads the import file itself, and plain text with one id a line from stdin', async () => {
    await writeFile(file('seed.ndjson'), '{"external_id":"p1"}\n{"external_id":"p2"}\n');
    await cli(['import', 'seed.ndjson']);
    const fromFile = await cli(['delete', '--from', 'seed.ndjson', '--yes', '-o', 'json']);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ deleted: 2 });
    await cli(['upsert', '-e', 'p3']);
    const stdin = await runInProcess(['--mock', 'delete', '--from', '-', '--yes', '-o', 'json'], {
      env: home.env,
      cwd: home.dir,
      stdin: 'p3\n# a comment\n\np4\n',
    });
    expect(JSON.parse(stdin.stdout)).toMatchObject({ ids: 2, deleted: 1, not_found: 1 });
  });

  it('retries each delete as --max-retries says, as an import does', async () => {
    const server = await startScriptedServer([{ status: 503, body: { message: 'Service unavailable' } }]);
    try {
      await writeFile(file('ids.txt'), 'gone1\n');
      const r = await runInProcess(['delete', '--from', 'ids.txt', '--yes', '--max-retries', '1'], {
        env: envFor(home, server, { CONTACTS_AGENT: AGENT }),
        cwd: home.dir,
      });
      expect(r.code).not.toBe(0);
      expect(server.requests.filter((q) => q.method === 'DELETE')).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  /** The CLI against a mock on port 0, whose store the test reads and seeds directly. */
  async function againstMock() {
    const mock = await startTestMock();
    const env = envFor(home, mock, { CONTACTS_AGENT: AGENT });
    const run = (argv: string[], stdin?: string) => runInProcess(argv, { env, cwd: home.dir, stdin });
    const stored = () => new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));
    return { mock, run, stored };
  }

  it('of a results file deletes only the contacts the import created; --include-updated the rest', async () => {
    const { mock, run, stored } = await againstMock();
    const before = mock.store.upsertContact(AGENT, {
      external_id: 'pre',
      name: 'Pre Existing',
      email: 'pre@example.com',
    }).contact;
    // n1 twice: created by its first row, updated by its second; it is still the import's own.
    await writeFile(
      file('seed.csv'),
      'external_id,name\nn1,New One\npre,Pre Renamed\nn2,New Two\nn1,New One Again\n',
    );
    const imported = await run(['import', 'seed.csv', '--results', 'R.csv', '-o', 'json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: 2, updated: 2 });
    const said = '1 updated contact left: it existed before the import; contacts undo restores it';

    const dry = await run(['delete', '--from', 'R.csv', '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ would_delete: 2, ids: ['n1', 'n2'], updated_left: 1 });
    expect(dry.stderr).toContain(said);
    expect(stored().size).toBe(3);

    const teardown = await run(['delete', '--from', 'R.csv', '--yes', '-o', 'json']);
    expect(teardown.code, teardown.stderr).toBe(0);
    expect(JSON.parse(teardown.stdout)).toMatchObject({ ids: 2, deleted: 2, not_found: 0, updated_left: 1 });
    expect(teardown.stderr.split('\n').filter((l) => l === said)).toHaveLength(1);
    // The contact that existed before is still there, the same contact with its fields.
    expect([...stored().keys()]).toEqual(['pre']);
    expect(stored().get('pre')).toMatchObject({
      id: before.id,
      name: 'Pre Renamed',
      email: 'pre@example.com',
    });

    const all = await run(['delete', '--from', 'R.csv', '--yes', '--include-updated', '-o', 'json']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({ ids: 3, deleted: 1, not_found: 2, updated_left: 0 });
    expect(all.stderr).not.toContain('updated contact');
    expect(stored().size).toBe(0);
  });

  it('of NDJSON results says how many updated contacts it left, in the plural', async () => {
    const { mock, run, stored } = await againstMock();
    for (const id of ['p1', 'p2']) mock.store.upsertContact(AGENT, { external_id: id, name: id });
    await writeFile(
      file('seed.ndjson'),
      '{"external_id":"p1"}\n{"external_id":"new"}\n{"external_id":"p2"}\n',
    );
    expect((await run(['import', 'seed.ndjson', '--results', 'R.ndjson'])).code).toBe(0);
    const r = await run(['delete', '--from', 'R.ndjson', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      '2 updated contacts left: they existed before the import; contacts undo restores them',
    );
    expect([...stored().keys()]).toEqual(['p1', 'p2']);
  });

  it('of an import file keyed by email deletes the contacts its import made, from a file or stdin', async () => {
    const { mock, run, stored } = await againstMock();
    mock.store.upsertContact(AGENT, { external_id: 'someone-else' });
    // Addresses as people write them: mixed case, padded, `Name <addr>`; a column whose values
    // alone say it holds emails.
    const text = 'Name,Contact\nAnn,Ann@Example.COM\nBob, bob@example.com \nCy,Cy Z <CY@x.org>\n';
    await writeFile(file('people.csv'), text);
    const imported = await run(['import', 'people.csv', '-o', 'json']);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: 3, rejected: 0 });
    expect([...stored().keys()].sort()).toEqual([
      'ann@example.com',
      'bob@example.com',
      'cy@x.org',
      'someone-else',
    ]);
    const r = await run(['delete', '--from', 'people.csv', '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ids: 3, deleted: 3, not_found: 0 });
    expect([...stored().keys()]).toEqual(['someone-else']);
    await run(['import', 'people.csv']);
    const stdin = await run(['delete', '--from', '-', '--yes', '-o', 'json'], text);
    expect(JSON.parse(stdin.stdout)).toMatchObject({ ids: 3, deleted: 3 });
    expect([...stored().keys()]).toEqual(['someone-else']);
  });

  it('--include-updated without --from is refused, deleting nothing', async () => {
    const { mock, run, stored } = await againstMock();
    mock.store.upsertContact(AGENT, { external_id: 'u1' });
    const r = await run(['delete', 'u1', '--yes', '--include-updated']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('--include-updated applies to --from FILE');
    expect(stored().has('u1')).toBe(true);
  });

  it('--dry-run without --from is refused, deleting nothing (it deleted the contact)', async () => {
    const { mock, run, stored } = await againstMock();
    mock.store.upsertContact(AGENT, { external_id: 'u1' });
    const r = await run(['delete', 'u1', '--yes', '--dry-run']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('--dry-run applies to --from FILE');
    expect(stored().has('u1')).toBe(true);
  });
});
