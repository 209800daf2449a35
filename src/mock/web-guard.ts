// What keeps web pages out of the mock served on a port: a page the user visits can send
// requests to 127.0.0.1 too. The Host check stops DNS rebinding (a page's own name pointed at
// this machine would make it same-origin with the mock); the controls under `/__mock/` refuse
// requests a page can send without asking (a foreign Origin, a "simple" POST); CORS headers go
// out only to origins the user named. The msw handlers need none of this: nothing reaches them
// over the network.
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { IGNORED_COUNT_HEADER, IGNORED_FIELDS_HEADER, REQUEST_ID_HEADER } from '../api/headers.js';
import { MockHttpError } from './errors.js';
import { ADMIN_PREFIX } from './respond.js';

export interface WebGuardOptions {
  /**
   * Host names served besides loopback names (`localhost`, `*.localhost`), IP addresses and
   * this machine's own name (`os.hostname()`, and with `.local`); `.example.com` takes its subdomains too, and `*` any name.
   */
  allowedHosts?: readonly string[] | undefined;
  /** Origins whose pages may call the mock (CORS), e.g. `http://localhost:3000`; `*` for any. */
  cors?: readonly string[] | undefined;
}

/** A header that a page cannot send to another origin without that origin's consent (CORS). */
export const CONTROL_HEADER = 'x-contacts-mock';

/** Headers a page's script may read from the mock's answers when CORS allows it. */
const EXPOSED_HEADERS = [
  REQUEST_ID_HEADER,
  IGNORED_FIELDS_HEADER,
  IGNORED_COUNT_HEADER,
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
].join(', ');

export interface WebRequest {
  method: string;
  path: string;
  /** Header names lowercased. */
  headers: Record<string, string | string[] | undefined>;
  /** The host of an absolute-form request target, which stands in for the Host header. */
  targetHost?: string | undefined;
}

export interface WebGuard {
  /** The refusal for a request a web page may have sent against the user's will; undefined to go on. */
  check(req: WebRequest): MockHttpError | undefined;
  /** The CORS headers for this request's answer (none unless its origin was named). */
  corsHeaders(req: WebRequest): Record<string, string>;
  /** The answer to a CORS preflight from a named origin; undefined when it is none. */
  preflight(req: WebRequest): { status: number; headers: Record<string, string> } | undefined;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The host name of a Host header value (`[::1]:4010` -> `::1`), lowercased. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') < 0 ? undefined : h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  // A bare IPv6 address has several colons and no port.
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

/** A value from a request, safe to quote in a message: visible ASCII, bounded. */
const quoted = (value: string) => JSON.stringify(value.replace(/[^\x21-\x7e]/g, '?').slice(0, 200));

export function createWebGuard(options: WebGuardOptions = {}): WebGuard {
  const listed = (options.allowedHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean);
  const anyHost = listed.includes('*');
  const own = hostname().toLowerCase();
  const cors = options.cors ?? [];
  const anyOrigin = cors.includes('*');

  function hostAllowed(name: string): boolean {
    if (anyHost || isIP(name) !== 0) return true;
    // Browsers resolve every *.localhost name to loopback themselves (RFC 6761).
    if (name === 'localhost' || name.endsWith('.localhost')) return true;
    // Names a page's author cannot point at this machine: its own, and the ones the user gave.
    if (name === own || name === `${own}.local`) return true;
    return listed.some((h) => (h.startsWith('.') ? name.endsWith(h) || name === h.slice(1) : name === h));
  }

  const named = (origin: string | undefined) => origin !== undefined && (anyOrigin || cors.includes(origin));

  /** Whether the Origin is the mock's own (a page it served, or the same host and port). */
  function sameOrigin(origin: string, req: WebRequest): boolean {
    const host = req.targetHost ?? first(req.headers['host']);
    if (host === undefined) return false;
    try {
      const url = new URL(origin);
      return url.protocol === 'http:' && url.host === new URL(`http://${host}`).host;
    } catch {
      return false;
    }
  }

  return {
    check(req) {
      const host = req.targetHost ?? first(req.headers['host']);
      // No Host at all is an HTTP/1.0 client, never a browser.
      if (host !== undefined && !hostAllowed(hostName(host))) {
        const name = hostName(host);
        return new MockHttpError(
          421,
          `This mock does not serve the host name ${quoted(name)}: it answers loopback names, IP addresses and this machine's own name, so that a web page cannot reach it through DNS rebinding. To serve that name, start it with --allow-host ${name.replace(/[^\w.-]/g, '')}`,
        );
      }
      if (!req.path.startsWith(ADMIN_PREFIX)) return undefined;
      const origin = first(req.headers['origin']);
      if (origin !== undefined && !named(origin) && !sameOrigin(origin, req)) {
        return new MockHttpError(
          403,
          `The mock's controls refuse requests from web pages of another origin (Origin: ${quoted(origin)}); to allow a page's origin, start the mock with --cors ORIGIN`,
        );
      }
      // Of the methods the controls take, only POST can be sent cross-site without a preflight.
      if (req.method !== 'POST') return undefined;
      // A form or a no-cors fetch can POST text/plain anywhere: a JSON body, or a header of
      // our own, is what a page cannot send to another origin without a preflight.
      const type = (first(req.headers['content-type']) ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && first(req.headers[CONTROL_HEADER]) === undefined) {
        return new MockHttpError(
          403,
          `${req.method} ${req.path} needs "content-type: application/json" or an "${CONTROL_HEADER}: 1" header (a web page cannot send either to another site), e.g. curl -X ${req.method} -H '${CONTROL_HEADER}: 1' URL${req.path}`,
        );
      }
      return undefined;
    },

    corsHeaders(req): Record<string, string> {
      const origin = first(req.headers['origin']);
      if (!named(origin)) return {};
      return {
        'access-control-allow-origin': anyOrigin ? '*' : origin!,
        'access-control-expose-headers': EXPOSED_HEADERS,
        vary: 'origin',
      };
    },

    preflight(req) {
      const origin = first(req.headers['origin']);
      if (req.method !== 'OPTIONS' || !named(origin)) return undefined;
      if (first(req.headers['access-control-request-method']) === undefined) return undefined;
      const asked = first(req.headers['access-control-request-headers']);
      return {
        status: 204,
        headers: {
          'access-control-allow-origin': anyOrigin ? '*' : origin!,
          'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
          'access-control-allow-headers': asked ?? `authorization, content-type, ${CONTROL_HEADER}`,
          'access-control-max-age': '600',
          vary: 'origin',
        },
      };
    },
  };
}
