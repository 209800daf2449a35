// `--map` and `--map-file` parsed into column overrides (the mapping itself: test/importer/mapping.test.ts).
import { describe, expect, it } from 'vitest';
import { parseMapFile, parseMapOption } from '../../src/cli/map-options.js';
import { MappingError } from '../../src/importer/errors.js';

describe('parseMapOption', () => {
  it('splits at the last = and accepts fields, attr.<name> and -', () => {
    expect(parseMapOption('a=b=email')).toEqual({
      header: 'a=b',
      targets: [{ kind: 'field', field: 'email' }],
    });
    expect(parseMapOption(' Tarif = attr.plan ')).toEqual({
      header: 'Tarif',
      targets: [{ kind: 'attribute', name: 'plan' }],
    });
    expect(parseMapOption('Memo=-')).toEqual({ header: 'Memo', targets: [] });
    expect(parseMapOption('E-mail 1 - Value=external_id, email')).toEqual({
      header: 'E-mail 1 - Value',
      targets: [
        { kind: 'field', field: 'external_id' },
        { kind: 'field', field: 'email' },
      ],
    });
  });

  it('takes phone for phonenumber, as update --phone does, in flags and map files alike', () => {
    const phone = [{ kind: 'field', field: 'phonenumber' }];
    expect(parseMapOption('Telefon=phone')).toEqual({ header: 'Telefon', targets: phone });
    expect(parseMapOption('Telefon=phonenumber')).toEqual({ header: 'Telefon', targets: phone });
    expect(parseMapFile('{"Handy": "phone", "Tel": "phone,attr.phone"}', 'm.json')).toEqual([
      { header: 'Handy', targets: phone },
      { header: 'Tel', targets: [...phone, { kind: 'attribute', name: 'phone' }] },
    ]);
  });

  it('rejects an unknown field and a malformed option', () => {
    expect(() => parseMapOption('Mail=e-mail')).toThrow(
      'unknown field "e-mail" (did you mean email?); expected one of external_id, name, email, phonenumber, stripe_accounts, first_name, last_name, country',
    );
    expect(() => parseMapOption('email')).toThrow('expected "Header=field"');
    expect(() => parseMapOption('=email')).toThrow(MappingError);
  });
});
