// URL paths of every endpoint, built in one place for the client and matched by the mock.
import { API_PREFIX } from './limits.js';

const seg = encodeURIComponent;

export const paths = {
  contacts: (agentId: string) => `${API_PREFIX}/chatbots/${seg(agentId)}/contacts`,
  contact: (agentId: string, id: string) => `${API_PREFIX}/chatbots/${seg(agentId)}/contacts/${seg(id)}`,
  attributes: (agentId: string) => `${API_PREFIX}/chatbots/${seg(agentId)}/custom-attributes`,
  attribute: (agentId: string, name: string) =>
    `${API_PREFIX}/chatbots/${seg(agentId)}/custom-attributes/${seg(name)}`,
} as const;

export type Route =
  | { kind: 'contacts'; agentId: string }
  | { kind: 'contact'; agentId: string; id: string }
  | { kind: 'attributes'; agentId: string }
  | { kind: 'attribute'; agentId: string; name: string };

const ROUTE_RE = /^\/api\/v1\/chatbots\/([^/]+)\/(contacts|custom-attributes)(?:\/([^/]+))?\/?$/;

/** The inverse of `paths`: which endpoint a request path names, or null. */
export function matchRoute(pathname: string): Route | null {
  const m = ROUTE_RE.exec(pathname);
  if (!m) return null;
  let agentId: string;
  let sub: string | undefined;
  try {
    agentId = decodeURIComponent(m[1]!);
    sub = m[3] === undefined ? undefined : decodeURIComponent(m[3]);
  } catch {
    return null;
  }
  if (m[2] === 'contacts') {
    return sub === undefined ? { kind: 'contacts', agentId } : { kind: 'contact', agentId, id: sub };
  }
  return sub === undefined ? { kind: 'attributes', agentId } : { kind: 'attribute', agentId, name: sub };
}
