// Test helpers around the mock: a server on port 0 closed after the test, a raw fetch caller
// (independent of the typed client), and temp directories removed after the test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { type MockServer, type MockServerOptions, startMockServer } from '../../src/mock/server.js';
import { createMockStore } from '../../src/mock/sqlite-store.js';
import type { MockStore, MockStoreOptions } from '../../src/mock/store.js';

export const TEST_KEY = 'bk_test_key_0123456789';
export const AGENT = 'agent-1';

/** A store that keeps nothing (an in-memory database), closed when the calling test ends. */
export function newStore(options: MockStoreOptions = {}): MockStore {
  const store = createMockStore(options);
  onTestFinished(() => store.close());
  return store;
}

/** Starts a mock on a free port; must be called inside a test, which closes it when it ends. */
export async function startTestMock(options: MockServerOptions = {}): Promise<MockServer> {
  const store =
    options.store ?? (options.dataFile ? undefined : newStore({ maxContacts: options.maxContacts }));
  const server = await startMockServer({ port: 0, ...options, ...(store ? { store } : {}) });
  onTestFinished(() => server.close());
  return server;
}

/** A fresh directory under the OS temp dir, removed when the calling test ends. */
export async function tempDir(prefix = 'contacts-mock-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies freely and assert on them.
  body: any;
}

export interface RequestOptions {
  /** Sent as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as is (no content type unless given in `headers`). */
  body?: string;
  headers?: Record<string, string>;
}

/** Raw HTTP calls to a mock with global fetch; `key: null` sends no Authorization header. */
export function api(baseUrl: string, key: string | null = TEST_KEY) {
  async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult> {
    const headers: Record<string, string> = {};
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    Object.assign(headers, options.headers);
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  }
  return {
    request,
    get: (path: string) => request('GET', path),
    post: (path: string, json: unknown) => request('POST', path, { json }),
    patch: (path: string, json: unknown) => request('PATCH', path, { json }),
    put: (path: string, json: unknown) => request('PUT', path, { json }),
    delete: (path: string) => request('DELETE', path),
  };
}

export type Api = ReturnType<typeof api>;

/** A stored contact record as a snapshot holds it: only id, external_id and name vary. */
export function storedContact(id: string, external_id: string, name: string | null = null) {
  return {
    id,
    external_id,
    name,
    email: null,
    phonenumber: null,
    custom_attributes: {},
    stripe_accounts: [],
    created_at: 1_700_000_000,
    updated_at: 1_700_000_000,
  };
}
