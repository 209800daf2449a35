// `contacts import --time-zone`: date-times an export writes without a zone (HubSpot's
// `2024-03-22 17:59`, Salesforce's `9/20/2022 3:04 PM`) read on that zone's wall clock, against
// the real mock on port 0.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { envFor, runInProcess, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';

const AGENT = 'tz';
// HubSpot's contacts export header (test/fixtures/exports/EVIDENCE.md), a summer and a winter row.
const HUBSPOT = [
  '"Record ID","First Name","Last Name","Email","Phone Number","Create Date"',
  '"51203","Maya","Okafor","maya.okafor@example.com","+1 415-555-0132","2024-07-15 09:30"',
  '"51204","Oliver","Bennett","oliver.bennett@example.org","","2024-01-15 09:30"',
  '"51205","Ana","Ruiz","ana.ruiz@example.com","","2024-03-22"',
].join('\n');
const NOTE =
  'Column "Create Date" has date-times without a zone (2024-07-15 09:30): they are read as UTC. ' +
  'If the export wrote them in another zone, pass it, e.g. --time-zone America/New_York.';

const home = useTempHome();
let mock: MockServer;
beforeEach(async () => {
  mock = await startTestMock();
  mock.store.defineAttribute(AGENT, { name: 'create_date', type: 'date' });
  await writeFile(join(home.dir, 'hubspot.csv'), `${HUBSPOT}\n`);
});
afterEach(async () => {
  await mock.close();
});

const env = (extra: NodeJS.ProcessEnv = {}) => envFor(home, mock, extra);
const importHubspot = (args: string[], extra?: NodeJS.ProcessEnv) =>
  runInProcess(['import', 'hubspot.csv', '--agent', AGENT, ...args], { env: env(extra), cwd: home.dir });
const stored = () =>
  Object.fromEntries(mock.store.contacts(AGENT).map((c) => [c.external_id, c.custom_attributes.create_date]));

describe('import --time-zone', () => {
  it('stores the UTC instants of New York wall-clock times, EDT in summer and EST in winter', async () => {
    const r = await importHubspot(['--time-zone', 'America/New_York']);
    expect(r.code, r.stderr).toBe(0);
    expect(stored()).toEqual({
      '51203': '2024-07-15T13:30:00.000Z',
      '51204': '2024-01-15T14:30:00.000Z',
      // A date alone is a date, in any zone.
      '51205': '2024-03-22',
    });
    const lines = r.stderr.split('\n');
    expect(lines.slice(0, 4)).toContain(
      'Date-times without a zone are read as America/New_York time and stored in UTC.',
    );
    expect(r.stderr).not.toContain('they are read as UTC');
  });

  it('without it, says once before the rows that such times are read as UTC, and reads them so', async () => {
    const r = await importHubspot([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l === NOTE)).toHaveLength(1);
    expect(r.stderr.indexOf(NOTE)).toBeLessThan(r.stderr.indexOf('Imported 3 rows'));
    expect(stored()).toEqual({
      '51203': '2024-07-15T09:30:00.000Z',
      '51204': '2024-01-15T09:30:00.000Z',
      '51205': '2024-03-22',
    });
  });

  it("leaves this tool's own export alone: its times are UTC already, in CSV and in .xlsx", async () => {
    expect((await importHubspot([])).code).toBe(0);
    const before = stored();
    for (const file of ['back.csv', 'back.xlsx']) {
      const exported = await runInProcess(['export', '--agent', AGENT, '--out', file], {
        env: env(),
        cwd: home.dir,
      });
      expect(exported.code, exported.stderr).toBe(0);
      const again = await runInProcess(
        ['import', file, '--agent', AGENT, '--time-zone', 'America/New_York'],
        {
          env: env(),
          cwd: home.dir,
        },
      );
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('without a zone');
      expect(again.stderr).toContain(
        '--time-zone America/New_York is not applied: this file is read as an export of this tool, whose date-times are UTC',
      );
      expect(stored()).toEqual(before);
    }
  });

  it('says nothing of zones for a file without date columns', async () => {
    await writeFile(join(home.dir, 'plain.csv'), 'id,name\nu1,Ann\n');
    const r = await runInProcess(
      ['import', 'plain.csv', '--agent', AGENT, '--time-zone', 'America/New_York'],
      {
        env: env(),
        cwd: home.dir,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('zone');
  });

  it('a dry run says the same, and writes nothing', async () => {
    const r = await importHubspot(['--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(NOTE);
    expect(mock.store.contacts(AGENT)).toEqual([]);
    const zoned = await importHubspot(['--dry-run', '--time-zone', 'Europe/London']);
    expect(zoned.stderr).toContain(
      'Date-times without a zone are read as Europe/London time and stored in UTC.',
    );
    expect(zoned.stderr).not.toContain('they are read as UTC');
  });

  it('is no note for a file whose dates carry a zone or have no time', async () => {
    await writeFile(
      join(home.dir, 'zoned.csv'),
      'id,create_date\nu1,2024-07-15T09:30:00Z\nu2,2024-07-15 09:30 +02:00\nu3,2024-07-15\n',
    );
    const r = await runInProcess(['import', 'zoned.csv', '--agent', AGENT], { env: env(), cwd: home.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('without a zone');
  });

  it('refuses a zone Intl does not know with exit 2, naming the flag and an example', async () => {
    const r = await importHubspot(['--time-zone', 'America/NewYork']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Invalid time zone from --time-zone: America/NewYork (did you mean America/New_York?)',
    );
    expect(r.stderr).toContain('e.g. --time-zone America/New_York');
    const offset = await importHubspot(['--time-zone', '+05:00']);
    expect(offset.code).toBe(2);
    expect(offset.stderr).toContain('Invalid time zone from --time-zone: +05:00');
    // `EST` is a zone to Intl, but one of -05:00 all year: not what someone typing it for US
    // Eastern time means, whose summer rows would land an hour off.
    const est = await importHubspot(['--time-zone', 'EST']);
    expect(est.code).toBe(2);
    expect(est.stderr).toContain(
      'Invalid time zone from --time-zone: EST is a fixed offset of -05:00 all year, with no daylight saving time',
    );
    expect(est.stderr).toContain('--time-zone America/New_York');
    // Names whose zone is the one their users mean are taken: HST is Honolulu's, PRC China's.
    for (const zone of ['HST', 'PRC']) {
      const ok = await importHubspot(['--time-zone', zone, '--dry-run']);
      expect(ok.code, ok.stderr).toBe(0);
    }
    expect(mock.store.contacts(AGENT)).toEqual([]);
  });

  it('is a setting: CONTACTS_TIME_ZONE and the profile, the flag winning', async () => {
    const set = await runInProcess(['config', 'set', 'time-zone', 'Asia/Kolkata'], {
      env: env(),
      cwd: home.dir,
    });
    expect(set.code, set.stderr).toBe(0);
    const fromProfile = await importHubspot([]);
    expect(fromProfile.stderr).toContain('read as Asia/Kolkata time');
    expect(stored()['51203']).toBe('2024-07-15T04:00:00.000Z');
    const fromEnv = await importHubspot([], { CONTACTS_TIME_ZONE: 'Australia/Sydney' });
    expect(stored()['51203']).toBe('2024-07-14T23:30:00.000Z');
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    await importHubspot(['--time-zone', 'UTC'], { CONTACTS_TIME_ZONE: 'Australia/Sydney' });
    expect(stored()['51203']).toBe('2024-07-15T09:30:00.000Z');
    const bad = await importHubspot([], { CONTACTS_TIME_ZONE: 'Nowhere/Special' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid time zone from CONTACTS_TIME_ZONE: Nowhere/Special');
  });
});
