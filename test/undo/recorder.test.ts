// The import's side of an undo: the states before are read when that is cheap (or asked for),
// kept with every answer; otherwise only what the import creates is recorded, and it says so.
import { describe, expect, it } from 'vitest';
import { ContactsClient } from '../../src/client/client.js';
import { UndoRecorder } from '../../src/undo/recorder.js';
import { AGENT, startTestMock, TEST_KEY, tempDir } from '../helpers/mock.js';

async function setup(contacts: number) {
  const mock = await startTestMock();
  for (let start = 0; start < contacts; start += 1000) {
    const users = Array.from({ length: Math.min(1000, contacts - start) }, (_, i) => ({
      external_id: `c${start + i}`,
      name: `Contact ${start + i}`,
    }));
    mock.store.batchUpsert(AGENT, { users });
  }
  const client = new ContactsClient({ baseUrl: mock.url, apiKey: TEST_KEY, agentId: AGENT, maxRetries: 0 });
  return { mock, client, dir: await tempDir() };
}

const options = (
  client: ContactsClient,
  dir: string,
  over: Partial<Parameters<typeof UndoRecorder.start>[0]> = {},
) => ({
  client,
  agentId: AGENT,
  maxRetries: 0,
  dir,
  service: 'http://127.0.0.1',
  input: '/data/in.csv',
  results: null,
  choice: 'auto' as const,
  rows: 2,
  batchSize: 1000,
  ...over,
});

describe('UndoRecorder', () => {
  it('records the state before of what a row changes and each answer; ends with a reference to its record', async () => {
    const { client, dir } = await setup(3);
    const recorder = await UndoRecorder.start(options(client, dir));
    expect(recorder.full).toBe(true);
    await recorder.beforeSend([
      { key: 'c1', json: '{"external_id":"c1","name":"Renamed"}' },
      { key: 'new', json: '{"external_id":"new"}' },
    ]);
    const updated = await client.contacts.upsert({ external_id: 'c1', name: 'Renamed' });
    const created = await client.contacts.upsert({ external_id: 'new' });
    recorder.landed('c1', 'updated', updated.contact);
    recorder.landed('new', 'created', created.contact);
    recorder.flush();
    expect(recorder.record.counts()).toEqual({ created: 1, updated: 1, written: 2 });
    const before = recorder.record.contacts(0, 10).find((c) => c.external_id === 'c1');
    expect(before?.before).toMatchObject({ name: 'Contact 1' });
    const ref = recorder.end(true);
    expect(ref).toMatchObject({ full: true, path: expect.stringContaining(dir) });
    await client.close();
  });

  it('keeps no record of an import that wrote nothing', async () => {
    const { client, dir } = await setup(0);
    const recorder = await UndoRecorder.start(options(client, dir));
    await recorder.beforeSend([{ key: 'x', json: '{"external_id":"x"}' }]);
    recorder.rejected('x');
    expect(recorder.end(false)).toBeNull();
    await client.close();
  });

  it('records only what is created when reading first would cost more than the import, and says why', async () => {
    const { client, dir } = await setup(9001);
    const notes: string[] = [];
    const recorder = await UndoRecorder.start(
      options(client, dir, { rows: undefined, onNote: (note) => notes.push(note.message) }),
    );
    expect(recorder.full).toBe(false);
    expect(recorder.ref.full).toBe(false);
    expect(notes).toEqual([
      expect.stringMatching(
        /^Recording only the contacts this import creates .*the input's size is not known.*10 requests/,
      ),
    ]);
    recorder.end(false);
    // Asked for, it reads them anyway, saying so.
    const full = await UndoRecorder.start(
      options(client, dir, { rows: undefined, choice: 'full', onNote: (note) => notes.push(note.message) }),
    );
    expect(full.full).toBe(true);
    expect(notes[1]).toMatch(/^Reading the 9001 contacts of agent .* first \(10 requests\)/);
    full.end(false);
    await client.close();
  }, 60_000);
});
