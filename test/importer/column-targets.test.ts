// The targets a column can fill, by name.
import { describe, expect, it } from 'vitest';
import { describeTarget, parseTargets, targetKey } from '../../src/importer/column-targets.js';
import { MappingError } from '../../src/importer/errors.js';

describe('parseTargets', () => {
  it('reads fields, phone for phonenumber, name parts, country, attr.<name> and - for none', () => {
    expect(parseTargets('external_id, email')).toEqual([
      { kind: 'field', field: 'external_id' },
      { kind: 'field', field: 'email' },
    ]);
    expect(parseTargets('phone')).toEqual([{ kind: 'field', field: 'phonenumber' }]);
    expect(parseTargets('first_name,country')).toEqual([{ kind: 'first_name' }, { kind: 'country' }]);
    expect(parseTargets('custom_attributes.plan')).toEqual([{ kind: 'attribute', name: 'plan' }]);
    expect(parseTargets('-')).toEqual([]);
  });

  it('refuses a name no target has, with the code and the target for a caller to word', () => {
    let error: unknown;
    try {
      parseTargets('e-mail');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MappingError);
    expect((error as MappingError).message).toMatch(
      /^unknown field "e-mail" \(did you mean email\?\); expected one of/,
    );
    expect((error as MappingError).detail).toEqual({
      code: 'unknown_target',
      target: 'e-mail',
      suggestion: ' (did you mean email?)',
    });
  });
});

describe('a target', () => {
  it('has one key, and a name in words', () => {
    expect([
      targetKey({ kind: 'attribute', name: 'plan' }),
      describeTarget({ kind: 'attribute', name: 'plan' }),
    ]).toEqual(['attr.plan', 'attr.plan']);
    expect([targetKey({ kind: 'first_name' }), describeTarget({ kind: 'first_name' })]).toEqual([
      'first_name',
      'name (first part)',
    ]);
  });
});
