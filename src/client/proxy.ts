// Which proxy, if any, a request to the service goes through: HTTPS_PROXY, HTTP_PROXY and
// NO_PROXY as curl reads them (either case, lower case first), and the dispatcher that uses it.
import { BlockList, isIP } from 'node:net';
import { type Dispatcher, ProxyAgent } from 'undici';
import { ContactsError } from '../core/error.js';

/** The proxy settings: each as its variable would hold it. */
export interface ProxyOptions {
  /** For http:// URLs (HTTP_PROXY). */
  httpProxy?: string | undefined;
  /** For https:// URLs (HTTPS_PROXY). */
  httpsProxy?: string | undefined;
  /** Hosts reached directly (NO_PROXY): `*`, names (with their subdomains), IPs, CIDR ranges. */
  noProxy?: string | undefined;
}

/** The variables, lower case first as curl reads them; ALL_PROXY covers both schemes. */
export function proxyFromEnv(env: Record<string, string | undefined>): ProxyOptions {
  const read = (name: string) => nonEmpty(env[name.toLowerCase()]) ?? nonEmpty(env[name]);
  const all = read('ALL_PROXY');
  return {
    httpProxy: read('HTTP_PROXY') ?? all,
    httpsProxy: read('HTTPS_PROXY') ?? all,
    noProxy: read('NO_PROXY'),
  };
}

/** The proxy URL for a request to `target`, or undefined when it goes direct. */
export function proxyFor(target: string | URL, options: ProxyOptions): URL | undefined {
  const url = new URL(target);
  const raw = url.protocol === 'https:' ? options.httpsProxy : options.httpProxy;
  if (!raw) return undefined;
  // As Go and gh: this machine is reached direct. A proxy elsewhere would otherwise receive the
  // key of an http:// loopback service in clear, the one plain-http target allowed by default.
  if (isLoopbackHost(url.hostname)) return undefined;
  if (bypasses(url, options.noProxy ?? '')) return undefined;
  return parseProxyUrl(raw, url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
}

/**
 * A proxy as curl takes it: a URL, or `host:port` meaning http://host:port. Only http and https
 * proxies are spoken here (no SOCKS).
 */
export function parseProxyUrl(raw: string, from: string): URL {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ContactsError(`Invalid proxy URL in ${from}: ${redactProxy(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ContactsError(
      `Unsupported proxy in ${from}: ${url.protocol.slice(0, -1)} (only http:// and https:// proxies are supported)`,
    );
  }
  return url;
}

/** The proxy's URL for a log line: a user name and password become `***`. */
export function redactProxy(proxy: string | URL): string {
  if (typeof proxy === 'string') return proxy.replace(/\/\/[^/@]*@/, '//***@');
  const shown = new URL(proxy.href);
  const hadCredentials = shown.username !== '' || shown.password !== '';
  shown.username = '';
  shown.password = '';
  const text = shown.href.replace(/\/$/, '');
  return hadCredentials ? text.replace('://', '://***@') : text;
}

/**
 * A dispatcher that sends every request through `proxy`: an https:// service through a CONNECT
 * tunnel, an http:// one as a forward proxy's absolute-URI request, as curl does.
 */
export function proxyDispatcher(
  proxy: URL,
  target: URL,
  agent: { keepAliveTimeout: number; keepAliveMaxTimeout: number },
): Dispatcher {
  return new ProxyAgent({ ...agent, uri: proxy.href, proxyTunnel: target.protocol === 'https:' });
}

/**
 * Whether NO_PROXY sends `url` direct. curl's reading: entries split on commas (and spaces),
 * case ignored; `*` alone matches every host; a name matches itself and its subdomains, a leading
 * dot or `*.` changing nothing; an IP address matches itself, a CIDR range every address in it.
 * An entry with a port (`host:8080`) matches that port only.
 */
export function bypasses(url: URL, noProxy: string): boolean {
  const entries = noProxy
    .split(/[,\s]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.includes('*')) return true;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const hostIp = isIP(host);
  for (const raw of entries) {
    let entry = raw;
    let entryPort: string | undefined;
    const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (withPort) {
      entry = withPort[1]!;
      entryPort = withPort[2];
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    entry = entry.replace(/^\[|\]$/g, '');
    const slash = entry.indexOf('/');
    if (slash > 0 && hostIp !== 0) {
      const net = entry.slice(0, slash);
      const bits = Number(entry.slice(slash + 1));
      const family = isIP(net);
      if (family === hostIp && Number.isInteger(bits)) {
        const list = new BlockList();
        const type = family === 4 ? 'ipv4' : 'ipv6';
        try {
          list.addSubnet(net, bits, type);
        } catch {
          continue;
        }
        if (list.check(host, type)) return true;
      }
      continue;
    }
    const name = entry.replace(/^\*?\./, '');
    if (host === name || (hostIp === 0 && host.endsWith(`.${name}`))) return true;
  }
  return false;
}

/** localhost (and RFC 6761 `.localhost` names), 127.0.0.0/8 and ::1. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
