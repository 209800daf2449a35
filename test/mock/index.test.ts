// "contacts-cli/mock": the server, the store and the transport-free core, as the same objects
// their modules hold, and without msw (an optional peer, offered by "contacts-cli/mock/msw").
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/mock/errors.js';
import * as handler from '../../src/mock/handler.js';
import * as index from '../../src/mock/index.js';
import * as respond from '../../src/mock/respond.js';
import * as server from '../../src/mock/server.js';
import * as sqlite from '../../src/mock/sqlite-store.js';
import { loadedWith } from '../helpers/import-graph.js';

describe('src/mock/index.ts', () => {
  it('offers the server, the store and the core, the same objects', () => {
    expect(index.startMockServer).toBe(server.startMockServer);
    expect(index.createMockStore).toBe(sqlite.createMockStore);
    expect(index.openSqliteStore).toBe(sqlite.openSqliteStore);
    expect(index.createMockState).toBe(handler.createMockState);
    expect(index.handleRequest).toBe(handler.handleRequest);
    expect(index.respond).toBe(respond.respond);
    expect(index.MockHttpError).toBe(errors.MockHttpError);
    expect('createMockHandlers' in index).toBe(false);
  });

  it('answers a request through the core it offers, with no server', async () => {
    const state = index.createMockState();
    const outcome = await index.respond(state, {
      method: 'GET',
      path: '/health',
      query: new URLSearchParams(),
      headers: {},
      body: undefined,
    });
    expect(outcome.drop).toBe(false);
    if (!outcome.drop) expect(outcome.response.status).toBe(200);
  });

  it('loads neither msw nor the importer', () => {
    const { modules, packages } = loadedWith('mock/index.ts');
    expect(packages.has('msw')).toBe(false);
    expect([...modules].filter((m) => !/^(mock|api|core)\//.test(m))).toEqual([]);
  });
});
