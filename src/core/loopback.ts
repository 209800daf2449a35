// The one rule for "this machine": where traffic never leaves it. Used by the base URL check
// (an API key may go over http:// only here), `serve --mock` (no --key is safe only here) and
// the mock's Host check (which serves more names on top of these).
import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whether a host name or address is loopback: `localhost`, `127.0.0.0/8`, `::1` or an
 * IPv4-mapped `::ffff:127.x.x.x` (brackets allowed). Only names the resolver answers from this
 * machine count: `localhost.` (a fully qualified name) and other `*.localhost` names are asked
 * of DNS by getaddrinfo, which may answer anything; only a browser promises to resolve them to
 * loopback (RFC 6761).
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (!isIPv6(h)) return false;
  // The URL parser writes every IPv6 address in its short form: `0:0:0:0:0:0:0:1` is `::1`,
  // `::ffff:127.0.0.1` is `::ffff:7f00:1`.
  const short = new URL(`http://[${h}]/`).hostname;
  return short === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(short);
}
