// Custom attribute definitions and the typed values they allow, over real HTTP.
import { describe, expect, it } from 'vitest';
import { AttributeDefinitionSchema, paths } from '../../src/api/index.js';
import { MAX_ATTRIBUTES } from '../../src/mock/rules.js';
import { AGENT, api, newStore, startTestMock } from '../helpers/mock.js';

async function setup() {
  const server = await startTestMock();
  return { server, client: api(server.url) };
}

describe('define POST .../custom-attributes', () => {
  it('answers 200 (as production) with defaults: label = name, description null, archived false', async () => {
    const { client } = await setup();
    const res = await client.post(paths.attributes(AGENT), { name: 'plan', type: 'text' });
    expect(res.status).toBe(200);
    expect(AttributeDefinitionSchema.parse(res.body.data)).toEqual({
      name: 'plan',
      type: 'text',
      label: 'plan',
      description: null,
      archived: false,
    });
    const full = await client.post(paths.attributes(AGENT), {
      name: 'renewal',
      type: 'date',
      label: 'Renewal date',
      description: 'When the plan renews',
    });
    expect(full.body.data).toMatchObject({ label: 'Renewal date', description: 'When the plan renews' });
  });

  it('refuses a second definition of a name with 409', async () => {
    const { client } = await setup();
    await client.post(paths.attributes(AGENT), { name: 'plan', type: 'text' });
    const res = await client.post(paths.attributes(AGENT), { name: 'plan', type: 'number' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Custom attribute already exists' });
  });

  it('validates name, type and unknown fields with 400', async () => {
    const { client } = await setup();
    const cases: [unknown, string][] = [
      [{ name: 'Plan', type: 'text' }, 'name'],
      [{ name: '1plan', type: 'text' }, 'name'],
      [{ name: `a${'b'.repeat(64)}`, type: 'text' }, 'name'],
      [{ name: 'plan', type: 'list' }, 'type'],
      [{ name: 'plan' }, 'type'],
      [{ name: 'plan', type: 'text', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await client.post(paths.attributes(AGENT), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    expect(
      (await client.post(paths.attributes(AGENT), { name: `a${'b'.repeat(63)}`, type: 'text' })).status,
    ).toBe(200);
  });

  it('refuses the names of the contact\'s own fields: 400 "Reserved field name used"', async () => {
    const { client } = await setup();
    for (const name of ['email', 'external_id', 'stripe_accounts', 'created_at']) {
      const res = await client.post(paths.attributes(AGENT), { name, type: 'text' });
      expect(res.status, name).toBe(400);
      expect(res.body).toEqual({
        message: 'Reserved field name used',
        issues: [{ field: 'name', message: 'Reserved field name used' }],
      });
    }
  });
});

describe('list GET .../custom-attributes', () => {
  it('lists every definition in definition order, archived ones too', async () => {
    const { client } = await setup();
    await client.post(paths.attributes(AGENT), { name: 'b_attr', type: 'text' });
    await client.post(paths.attributes(AGENT), { name: 'a_attr', type: 'number' });
    await client.put(paths.attribute(AGENT, 'b_attr'), { archived: true });
    const res = await client.get(paths.attributes(AGENT));
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { name: string; archived: boolean }) => [d.name, d.archived])).toEqual([
      ['b_attr', true],
      ['a_attr', false],
    ]);
  });
});

describe('change PUT .../custom-attributes/:name', () => {
  it('changes label, description and archived, and answers 200 with the definition', async () => {
    const { client } = await setup();
    await client.post(paths.attributes(AGENT), { name: 'plan', type: 'text', description: 'old' });
    const res = await client.put(paths.attribute(AGENT, 'plan'), { label: 'Plan', archived: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      name: 'plan',
      type: 'text',
      label: 'Plan',
      description: 'old',
      archived: true,
    });
    const cleared = await client.put(paths.attribute(AGENT, 'plan'), { description: null, archived: false });
    expect(cleared.body.data).toMatchObject({ label: 'Plan', description: null, archived: false });
  });

  it('refuses a type change with 400, allows repeating the current type', async () => {
    const { client } = await setup();
    await client.post(paths.attributes(AGENT), { name: 'seats', type: 'number' });
    const res = await client.put(paths.attribute(AGENT, 'seats'), { type: 'text' });
    expect(res.status).toBe(400);
    expect(res.body.issues[0].field).toBe('type');
    const same = await client.put(paths.attribute(AGENT, 'seats'), { type: 'number', label: 'Seats' });
    expect(same.status).toBe(200);
    expect(same.body.data.type).toBe('number');
  });

  it('answers 404 for an unknown attribute and 400 for unknown fields', async () => {
    const { client } = await setup();
    const missing = await client.put(paths.attribute(AGENT, 'nope'), { label: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Custom attribute not found' });
    await client.post(paths.attributes(AGENT), { name: 'plan', type: 'text' });
    const bad = await client.put(paths.attribute(AGENT, 'plan'), { label: '', hidden: true });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { field: string }) => i.field).sort()).toEqual(['hidden', 'label']);
  });
});

describe('typed values on contacts', () => {
  async function withTypes() {
    const ctx = await setup();
    for (const [name, type] of [
      ['plan', 'text'],
      ['seats', 'number'],
      ['vip', 'boolean'],
      ['renewal', 'date'],
    ]) {
      expect((await ctx.client.post(paths.attributes(AGENT), { name, type })).status).toBe(200);
    }
    const write = (custom_attributes: Record<string, unknown>) =>
      ctx.client.post(paths.contacts(AGENT), { external_id: 'u', custom_attributes });
    return { ...ctx, write };
  }

  it('coerces each type to its stored form', async () => {
    const { write } = await withTypes();
    const res = await write({ plan: 42, seats: 12.5, vip: '1', renewal: '2024-05-31T10:00:00+02:00' });
    expect(res.status).toBe(201);
    expect(res.body.data.custom_attributes).toEqual({
      plan: '42',
      seats: 12.5,
      vip: true,
      renewal: '2024-05-31T08:00:00.000Z',
    });
    const more = await write({ vip: 'false', seats: 0, renewal: '2024-02-29' });
    expect(more.body.data.custom_attributes).toMatchObject({ vip: false, seats: 0, renewal: '2024-02-29' });
    expect((await write({ vip: 0 })).body.data.custom_attributes.vip).toBe(false);
  });

  it('takes JSON numbers only for a number attribute, as production', async () => {
    const { write } = await withTypes();
    const res = await write({ seats: '5' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { field: 'custom_attributes.seats', message: 'Expected number, received string' },
    ]);
  });

  it('rejects values a type cannot take, naming each key', async () => {
    const { write } = await withTypes();
    const res = await write({ plan: true, seats: 'lots', vip: 'maybe', renewal: '31/05/2024' });
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { field: string }) => i.field).sort()).toEqual([
      'custom_attributes.plan',
      'custom_attributes.renewal',
      'custom_attributes.seats',
      'custom_attributes.vip',
    ]);
    const nested = await write({ plan: { a: 1 } });
    expect(nested.status).toBe(400);
    const notObject = await write([1, 2] as unknown as Record<string, unknown>);
    expect(notObject.status).toBe(400);
    expect(notObject.body.issues[0].field).toBe('custom_attributes');
  });

  it('keeps archived values but takes only null for them', async () => {
    const { client, write } = await withTypes();
    await write({ plan: 'pro', seats: 3 });
    await client.put(paths.attribute(AGENT, 'plan'), { archived: true });
    expect((await client.get(paths.contact(AGENT, 'u'))).body.data.custom_attributes.plan).toBe('pro');
    const refused = await write({ plan: 'team' });
    expect(refused.status).toBe(400);
    expect(refused.body.issues[0].field).toBe('custom_attributes.plan');
    const cleared = await write({ plan: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.custom_attributes).toEqual({ seats: 3 });
  });

  it('uses the new definitions right after a define (validators are rebuilt)', async () => {
    const { client, write } = await withTypes();
    const dropped = await write({ tier: 'gold' });
    expect(dropped.status).toBe(201);
    expect(dropped.headers.get('x-contacts-ignored')).toBe('custom_attributes.tier');
    await client.post(paths.attributes(AGENT), { name: 'tier', type: 'text' });
    const kept = await write({ tier: 'gold' });
    expect(kept.headers.get('x-contacts-ignored')).toBeNull();
    expect(kept.body.data.custom_attributes.tier).toBe('gold');
  });
});

describe('the limit of definitions an agent holds', () => {
  it(`refuses the definition past ${MAX_ATTRIBUTES} (archived ones counted) with a 400 naming the limit, per agent`, () => {
    const store = newStore();
    for (let i = 0; i < MAX_ATTRIBUTES; i++) store.defineAttribute(AGENT, { name: `a${i}`, type: 'text' });
    store.updateAttribute(AGENT, 'a0', { archived: true });
    let refused: unknown;
    try {
      store.defineAttribute(AGENT, { name: 'one_more', type: 'text' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      status: 400,
      message: 'Maximum custom attributes limit reached',
      issues: [
        {
          field: 'name',
          message: `An agent holds at most ${MAX_ATTRIBUTES} custom attribute definitions, archived ones included`,
        },
      ],
    });
    expect(store.listAttributes(AGENT)).toHaveLength(MAX_ATTRIBUTES);
    // Another agent has its own room; the limit is an option of the store.
    expect(store.defineAttribute('other', { name: 'one_more', type: 'text' }).name).toBe('one_more');
    const small = newStore({ maxAttributes: 1 });
    small.defineAttribute(AGENT, { name: 'first', type: 'text' });
    expect(() => small.defineAttribute(AGENT, { name: 'second', type: 'text' })).toThrow(
      'Maximum custom attributes limit reached',
    );
  });
});
