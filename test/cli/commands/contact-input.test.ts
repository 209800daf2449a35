// The body of upsert and update, from --data (inline, @file, @-) and the field flags, which win.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { contactBody, readJsonData } from '../../../src/cli/commands/contact-input.js';
import { UsageError } from '../../../src/cli/errors.js';
import { useTempHome } from '../../helpers/cli.js';

const home = useTempHome();
const definitions = [
  { name: 'seats', label: 'Seats', type: 'number' as const, description: null, archived: false },
  { name: 'renews', label: 'Renews', type: 'date' as const, description: null, archived: false },
  { name: 'old', label: 'Old', type: 'text' as const, description: null, archived: true },
];
const io = (stdin = '') => ({
  stdin: Readable.from(stdin ? [stdin] : []),
  cwd: home.dir,
  definitions: async () => definitions,
});
const plain = (body: object) => JSON.parse(JSON.stringify(body));

describe('readJsonData', () => {
  it('reads inline JSON, @file relative to the directory, and @- from stdin, naming each in errors', async () => {
    expect(await readJsonData('{"a":1}', Readable.from([]), home.dir)).toEqual({
      value: { a: 1 },
      from: '--data',
    });
    await writeFile(join(home.dir, 'c.json'), '{"b":2}');
    expect((await readJsonData('@c.json', Readable.from([]), home.dir)).value).toEqual({ b: 2 });
    expect(await readJsonData('@-', Readable.from(['{"c":3}\n']), home.dir)).toEqual({
      value: { c: 3 },
      from: '--data @- (stdin)',
    });
    await expect(readJsonData('{"a":', Readable.from([]), home.dir)).rejects.toThrow(
      /^--data is not valid JSON: /,
    );
    await writeFile(join(home.dir, 'bad.json'), '{"n": 1e400}');
    await expect(readJsonData('@bad.json', Readable.from([]), home.dir)).rejects.toThrow(
      /^--data @bad\.json: n: /,
    );
  });
});

describe('contactBody', () => {
  it('lets the field flags win over --data, and sends a phone number in E.164', async () => {
    const body = await contactBody(
      { data: '{"external_id":"u1","name":"Data","email":"d@x.co"}', name: 'Flag', phone: '020 7946 0958' },
      { ...io(), defaultCountry: 'GB' },
    );
    expect(plain(body)).toEqual({
      external_id: 'u1',
      name: 'Flag',
      email: 'd@x.co',
      phonenumber: '+442079460958',
    });
  });

  it('types --attr by the attribute, keeps := as written, and refuses a name not defined', async () => {
    const body = await contactBody({ attr: { seats: { text: '3' }, renews: { json: '2025-01-01' } } }, io());
    expect(plain(body)).toEqual({ custom_attributes: { seats: 3, renews: '2025-01-01' } });
    await expect(contactBody({ attr: { seat: { text: '3' } } }, io())).rejects.toThrow(
      '--attr seat: no such custom attribute (did you mean seats?)',
    );
    await expect(contactBody({ attr: { seats: { text: 'many' } } }, io())).rejects.toThrow(
      /^--attr seats=many: .*\(seats is a number attribute\)$/,
    );
  });

  it('warns that a date-time is kept to the millisecond', async () => {
    const warnings: string[] = [];
    await contactBody(
      { attr: { renews: { text: '2025-01-01T10:00:00.123456Z' } } },
      { ...io(), warn: (m) => warnings.push(m) },
    );
    expect(warnings).toEqual([
      '--attr renews: 2025-01-01T10:00:00.123456Z is stored to the millisecond, as 2025-01-01T10:00:00.123Z',
    ]);
  });

  it('--unset clears fields and attributes with null, and refuses what cannot be cleared', async () => {
    const body = await contactBody({ unset: ['email', 'phone', 'attr.seats', 'stripe_accounts'] }, io());
    expect(plain(body)).toEqual({
      email: null,
      phonenumber: null,
      stripe_accounts: null,
      custom_attributes: { seats: null },
    });
    await expect(contactBody({ unset: ['emial'] }, io())).rejects.toThrow(
      '--unset emial: not a field that can be cleared (did you mean email?)',
    );
    await expect(
      contactBody({ unset: ['attr.seats'], attr: { seats: { text: '1' } } }, io()),
    ).rejects.toThrow(UsageError);
  });

  it('refuses --data that is not a contact object, and a phone number it cannot read', async () => {
    await expect(contactBody({ data: '[1]' }, io())).rejects.toThrow(/must be a JSON object/);
    await expect(contactBody({ data: '{"custom_attributes": 3}' }, io())).rejects.toThrow(
      '--data: custom_attributes must be an object',
    );
    // A national number with no country to read it in: the flag that gives one.
    await expect(contactBody({ phone: '020 7946 0958' }, io())).rejects.toThrow(
      /^--phone: Invalid phone number: a national number needs a country: .* \(--default-country GB\)$/,
    );
  });
});
