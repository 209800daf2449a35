// The tools around an import: E.164 phone numbers (import, upsert, update, the profile's
// default country), saved mappings (--map-file) and the template that imports as is.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, tempHome } from '../helpers/cli.js';

let home: Awaited<ReturnType<typeof tempHome>>;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(() => home.cleanup());

const cli = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  runInProcess(['--mock', ...argv], { env: { ...home.env, ...env }, cwd: home.dir });
const file = (name: string) => join(home.dir, name);
const contact = async (id: string) => JSON.parse((await cli(['get', id, '-o', 'json'])).stdout);

describe('phone numbers in E.164', () => {
  it('import stores international numbers in E.164 and reads national ones in --default-country', async () => {
    await writeFile(file('p.csv'), 'external_id,phone\nu1,+44 20 7946 0958\nu2,020 7946 0958\nu3,+44 12\n');
    const r = await cli(['import', 'p.csv', '--default-country', 'GB']);
    expect(r.code).toBe(ExitCode.PARTIAL);
    expect((await contact('u1')).phonenumber).toBe('+442079460958');
    expect((await contact('u2')).phonenumber).toBe('+442079460958');
    const rejects = await readFile(file('p.rejects.csv'), 'utf8');
    expect(rejects).toMatch(/u3,'\+44 12,4,phonenumber: Invalid phone number: too short/);
  });

  it('a national number without a country is rejected locally, saying how to fix it', async () => {
    await writeFile(file('n.ndjson'), '{"external_id":"u1","phonenumber":"020 7946 0958"}\n');
    const r = await cli(['import', 'n.ndjson', '--dry-run']);
    expect(r.code).toBe(ExitCode.PARTIAL);
    expect(r.stderr).toMatch(/line 1: phonenumber: .*needs a country.*--default-country/);
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
