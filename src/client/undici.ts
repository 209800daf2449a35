// The three parts of undici the client uses, loaded on their own: undici's index also loads
// fetch, WebSocket, EventSource, caches and mocks, which took a third of a `contacts get`.
// undici publishes no export map, so these paths are its public CommonJS files (their types,
// declared in `undici-parts.d.ts`, are the package's own). Static imports, so that the CLI's
// bundle (`rolldown.config.js`) takes them in.
import type { Dispatcher, Agent as UndiciAgent, errors as UndiciErrors } from 'undici';
import apiRequest from 'undici/lib/api/api-request.js';
import errorsPart from 'undici/lib/core/errors.js';
import AgentPart from 'undici/lib/dispatcher/agent.js';

export const Agent: typeof UndiciAgent = AgentPart;
export const errors: typeof UndiciErrors = errorsPart;

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
