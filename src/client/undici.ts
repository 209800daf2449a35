// The three parts of undici the client uses, loaded on their own: undici's index also loads
// fetch, WebSocket, EventSource, caches and mocks, which took a third of a `contacts get`.
// undici publishes no export map, so these paths are its public CommonJS files; the types are
// the package's own.
import { createRequire } from 'node:module';
import type { Dispatcher, Agent as UndiciAgent, errors as UndiciErrors } from 'undici';

const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export const errors = require('undici/lib/core/errors.js') as typeof UndiciErrors;

type RequestFn = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const apiRequest = require('undici/lib/api/api-request.js') as RequestFn;

/**
 * `dispatcher.request(options)`, without needing undici's index to have attached `request` to
 * every dispatcher: works on any Dispatcher (an Agent, a Pool, a user's MockAgent or ProxyAgent).
 */
export function request(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, options);
}
