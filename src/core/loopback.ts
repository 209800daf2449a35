// The one rule for "this machine": where traffic never leaves it. Used by the base URL check
// (an API key may go over http:// only here), `serve --mock` (no --key is safe only here) and
// the mock's Host check (which serves more names on top of these).
import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whether a host name or address is loopback: `localhost`, `127.0.0.0/8` or `::1` (brackets and
 * a trailing dot allowed). Other `*.localhost` names are not: only a browser promises to resolve
 * them to loopback (RFC 6761), and a resolver or an /etc/hosts line may send them anywhere.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  // `0:0:0:0:0:0:0:1` is `::1` too: the URL parser writes every IPv6 address in its short form.
  return isIPv6(h) && new URL(`http://[${h}]/`).hostname === '[::1]';
}
