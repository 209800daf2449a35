// Which proxy, if any, a request to the service goes through: HTTPS_PROXY, HTTP_PROXY and
// NO_PROXY (either case, lower case first, as curl), and the dispatcher that uses it.
import { BlockList, isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { isLoopbackHost } from '../core/loopback.js';
import { ProxyConfigError } from './errors.js';

/** The proxy settings: each as its variable would hold it. */
export interface ProxyOptions {
  /** For http:// URLs (HTTP_PROXY). */
  httpProxy?: string | undefined;
  /** For https:// URLs (HTTPS_PROXY). */
  httpsProxy?: string | undefined;
  /** Hosts reached directly (NO_PROXY): `*`, names (with their subdomains), IPs, CIDR ranges. */
  noProxy?: string | undefined;
  /** Where each value came from (`https_proxy`, `ALL_PROXY`...), for errors; `proxyFromEnv` fills it. */
  from?: { httpProxy?: string | undefined; httpsProxy?: string | undefined };
}

/** The variables, lower case first as curl reads them; ALL_PROXY covers both schemes. */
export function proxyFromEnv(env: Record<string, string | undefined>): ProxyOptions {
  const read = (name: string): [string, string] | undefined => {
    for (const variable of [name.toLowerCase(), name]) {
      const value = nonEmpty(env[variable]);
      if (value !== undefined) return [value, variable];
    }
    return undefined;
  };
  const all = read('ALL_PROXY');
  const http = read('HTTP_PROXY') ?? all;
  const https = read('HTTPS_PROXY') ?? all;
  return {
    httpProxy: http?.[0],
    httpsProxy: https?.[0],
    noProxy: read('NO_PROXY')?.[0],
    from: { httpProxy: http?.[1], httpsProxy: https?.[1] },
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
  const which = url.protocol === 'https:' ? 'httpsProxy' : 'httpProxy';
  return parseProxyUrl(raw, options.from?.[which] ?? `the ${which} option`);
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
    throw new ProxyConfigError(`Invalid proxy URL in ${from}: ${redactProxy(text)}`, from);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxyConfigError(
      `Unsupported proxy in ${from}: ${url.protocol.slice(0, -1)} (only http:// and https:// proxies are supported)`,
      from,
    );
  }
  return url;
}

/**
 * The proxy's URL for a log line: a user name and password become `***`. A string that is not a
 * URL loses everything up to its last `@`, with or without a scheme, whatever the password holds.
 */
export function redactProxy(proxy: string | URL): string {
  if (typeof proxy === 'string') {
    const at = proxy.lastIndexOf('@');
    if (at < 0) return proxy;
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(proxy)?.[0] ?? '';
    return `${scheme}***@${proxy.slice(at + 1)}`;
  }
  const shown = new URL(proxy.href);
  const hadCredentials = shown.username !== '' || shown.password !== '';
  shown.username = '';
  shown.password = '';
  const text = shown.href.replace(/\/$/, '');
  return hadCredentials ? text.replace('://', '://***@') : text;
}

/**
 * A dispatcher that sends every request through `proxy`: an https:// service through a CONNECT
 * tunnel, an http:// one as a forward proxy's absolute-URI request, as curl does. Each step of
 * connecting (to the proxy, its answer to CONNECT, TLS through the tunnel) gives up after
 * `connectTimeoutMs`. undici's ProxyAgent, loaded only when a proxy is set.
 */
export async function proxyDispatcher(
  proxy: URL,
  target: URL,
  options: { keepAliveTimeout: number; keepAliveMaxTimeout: number; connectTimeoutMs: number },
): Promise<Dispatcher> {
  const { connectTimeoutMs: timeout, ...agent } = options;
  const { Pool, ProxyAgent } = await import('undici');
  return new ProxyAgent({
    ...agent,
    uri: proxy.href,
    proxyTunnel: target.protocol === 'https:',
    proxyTls: { timeout },
    requestTls: { timeout },
    // The CONNECT is a request to the proxy: undici would wait minutes for its answer.
    clientFactory: (origin, opts) =>
      new Pool(origin, { ...opts, headersTimeout: timeout, bodyTimeout: timeout }),
  });
}

/**
 * Whether NO_PROXY sends `url` direct. curl's reading, plus `*.name` and `host:port`: entries split on commas (and spaces),
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

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
