// A contact's state as imports change it and undo restores it: the merge an upsert makes, the
// fields that differ whatever order the service wrote them in, the PATCH that restores them.
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/contact.js';
import { applyInput, canonical, fieldChanges, patchOf, stateOf, stateText } from '../../src/undo/state.js';

const contact = (over: Partial<Contact>): Contact => ({
  id: 'ct_1',
  external_id: 'u1',
  name: 'Ann',
  email: 'ann@example.com',
  phonenumber: null,
  custom_attributes: { plan: 'free', seats: 3, gone: null },
  stripe_accounts: [],
  created_at: 1,
  updated_at: 1,
  ...over,
});

describe('contact state', () => {
  it('leaves null attributes out: null and absent are one', () => {
    expect(stateOf(contact({})).custom_attributes).toEqual({ plan: 'free', seats: 3 });
  });

  it('applies an upsert as the service does: absent fields kept, attributes merged, null clears', () => {
    const after = applyInput(stateOf(contact({})), {
      external_id: 'u1',
      email: null,
      custom_attributes: { plan: null, vip: true },
    });
    expect(after).toEqual({
      name: 'Ann',
      email: null,
      phonenumber: null,
      stripe_accounts: [],
      custom_attributes: { seats: 3, vip: true },
    });
  });

  it('compares attributes and stripe accounts whatever their key order', () => {
    const a = stateOf(contact({ stripe_accounts: [{ label: 'x', stripe_id: 'cus_1' }] }));
    const b = stateOf(
      contact({
        custom_attributes: { seats: 3, plan: 'free' },
        stripe_accounts: [{ stripe_id: 'cus_1', label: 'x' }],
      }),
    );
    expect(fieldChanges(a, b)).toEqual({});
    expect(canonical({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('writes a state as canonical does, whatever its attributes and accounts hold', () => {
    const states = [
      stateOf(contact({})),
      stateOf(contact({ custom_attributes: {}, stripe_accounts: [{ stripe_id: 'cus_1', label: 'x' }] })),
      stateOf(
        contact({
          name: null,
          phonenumber: '+442079460958',
          // Values the contract does not type, should a service answer them.
          custom_attributes: {
            z: 'a "quoted" \\ text\n',
            a: 1.5,
            m: false,
            tags: ['b', 'a'],
            o: { y: 1, x: 2 },
          } as unknown as Contact['custom_attributes'],
        }),
      ),
      // Keys an object orders first (array indexes), and a key of another shape: canonical itself.
      stateOf(contact({ custom_attributes: { '10': 'x', '9': 'y', b: 1 } })),
      { ...stateOf(contact({})), extra: 1 } as ReturnType<typeof stateOf>,
    ];
    for (const state of states) expect(stateText(state)).toBe(canonical(state));
  });

  it('says each field that differs, and patches back to the second state, clearing what was empty', () => {
    const now = stateOf(
      contact({ name: 'Renamed', email: null, custom_attributes: { plan: 'pro', seats: 3, extra: 'x' } }),
    );
    const before = stateOf(contact({}));
    const changes = fieldChanges(now, before);
    expect(changes).toEqual({
      name: ['Renamed', 'Ann'],
      email: [null, 'ann@example.com'],
      'custom_attributes.extra': ['x', null],
      'custom_attributes.plan': ['pro', 'free'],
    });
    expect(patchOf(changes)).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      custom_attributes: { extra: null, plan: 'free' },
    });
    // From no contact at all: every field it has.
    expect(Object.keys(fieldChanges(null, before))).toEqual([
      'name',
      'email',
      'custom_attributes.plan',
      'custom_attributes.seats',
    ]);
  });
});
