// The --mock mode's server: the mock on a free loopback port, its data in a SQLite file that
// outlives the command.
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { paths } from '../../src/api/paths.js';
import { startEmbeddedMock } from '../../src/cli/embedded-mock.js';
import { useTempHome } from '../helpers/cli.js';
import { api } from '../helpers/mock.js';

const home = useTempHome();

describe('startEmbeddedMock', () => {
  it('creates the directory, serves on loopback, and keeps what was written for the next command', async () => {
    const file = join(home.dir, '.contacts-mock', 'nested', 'mock.db');
    const first = await startEmbeddedMock(file);
    expect(new URL(first.url).hostname).toBe('127.0.0.1');
    expect(Number(new URL(first.url).port)).toBeGreaterThan(0);
    expect((await api(first.url).post(paths.contacts('a1'), { external_id: 'kept' })).status).toBe(201);
    await first.close();

    const second = await startEmbeddedMock(file);
    onTestFinished(() => second.close());
    const res = await api(second.url).get(paths.contact('a1', 'kept'));
    expect(res.status).toBe(200);
    expect(res.body.data.external_id).toBe('kept');
  });
});
