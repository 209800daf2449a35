// A seed read and checked whole when loaded, then put into a store the same way each time
// (test/mock/respond.test.ts follows seeds through the server's reset).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeedError } from '../../src/mock/errors.js';
import { loadSeed } from '../../src/mock/seed.js';
import { createMockStore } from '../../src/mock/sqlite-store.js';
import { useTempHome } from '../helpers/cli.js';

const home = useTempHome();

async function file(name: string, content: string) {
  const path = join(home.dir, name);
  await writeFile(path, content);
  return path;
}

function applied(seed: Awaited<ReturnType<typeof loadSeed>>, agent?: string) {
  const store = createMockStore();
  seed(store, agent);
  return store;
}

describe('loadSeed', () => {
  it('reads a CSV for the agent given, typing its attributes from their values', async () => {
    const seed = await loadSeed(
      await file('s.csv', 'external_id,name,seats,vip\nu1,Ann,3,true\nu2,Bo,5,false\n'),
      {
        agent: 'a1',
      },
    );
    const store = applied(seed);
    expect(store.contacts('a1').map((c) => [c.external_id, c.name, c.custom_attributes])).toEqual([
      ['u1', 'Ann', { seats: 3, vip: true }],
      ['u2', 'Bo', { seats: 5, vip: false }],
    ]);
    expect(store.listAttributes('a1').map((d) => [d.name, d.type])).toEqual([
      ['seats', 'number'],
      ['vip', 'boolean'],
    ]);
  });

  it('wants the agent for a file of contacts, and says both ways to give it', async () => {
    const path = await file('s.ndjson', '{"external_id":"u1"}\n');
    await expect(loadSeed(path)).rejects.toThrow(SeedError);
    await expect(loadSeed(path)).rejects.toThrow(/--seed-agent ID\), or write it as \{"agents"/);
  });

  it('takes agents with their own definitions, and puts back one agent’s part alone when asked', async () => {
    const seed = await loadSeed(
      await file(
        'agents.json',
        JSON.stringify({
          agents: {
            a1: {
              attributes: [{ name: 'plan', type: 'text' }],
              contacts: [{ external_id: 'u1', custom_attributes: { plan: 'pro' } }],
            },
            a2: { contacts: [{ external_id: 'v1' }] },
          },
        }),
      ),
    );
    const both = applied(seed);
    expect(both.contacts('a1')[0]!.custom_attributes).toEqual({ plan: 'pro' });
    expect(both.contacts('a2').map((c) => c.external_id)).toEqual(['v1']);
    const one = applied(seed, 'a2');
    expect(one.contacts('a1')).toEqual([]);
    expect(one.contacts('a2')).toHaveLength(1);
  });

  it('refuses a seed that would not load, naming where, before anything is served', async () => {
    const bad = await file(
      'bad.json',
      JSON.stringify({
        agents: { a1: { contacts: [{ external_id: 'u1' }, { external_id: 'u2', email: 'nope' }] } },
      }),
    );
    await expect(loadSeed(bad)).rejects.toThrow(`Seed ${bad}: agents.a1.contacts.1: email: Invalid email`);
    const shape = await file('shape.json', JSON.stringify({ agents: { a1: { contacts: {} } } }));
    await expect(loadSeed(shape)).rejects.toThrow(/agents\.a1: "attributes" and "contacts" must be arrays/);
    await expect(loadSeed(join(home.dir, 'missing.csv'), { agent: 'a1' })).rejects.toThrow(
      /^Cannot read seed /,
    );
  });

  it('restores a snapshot exactly, ids included', async () => {
    const source = createMockStore();
    source.upsertContact('a1', { external_id: 'u1', name: 'Ann' });
    const snapshot = source.snapshot();
    const id = source.contacts('a1')[0]!.id;
    source.close();
    const seed = await loadSeed(await file('snap.json', JSON.stringify(snapshot)));
    expect(
      applied(seed)
        .contacts('a1')
        .map((c) => [c.id, c.name]),
    ).toEqual([[id, 'Ann']]);
  });
});
