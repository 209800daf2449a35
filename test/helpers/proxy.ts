// A forward proxy on port 0 for tests: it records what it is asked and delivers every request to
// 127.0.0.1 whatever the host named, so a test can address the mock by a name that is not
// loopback (loopback targets never go through a proxy) without any lookup leaving the machine.
import http from 'node:http';
import net from 'node:net';
import { onTestFinished } from 'vitest';

export interface SeenRequest {
  method: string;
  url: string;
  proxyAuthorization: string | undefined;
}

/**
 * A tiny proxy: absolute-URI requests are forwarded (what an http:// target gets), CONNECT opens
 * a tunnel (what an https:// target gets). It records what it was asked.
 */
export async function startProxy(
  options: { connectStatus?: number } = {},
): Promise<{ url: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      proxyAuthorization: req.headers['proxy-authorization'],
    });
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    seen.push({
      method: 'CONNECT',
      url: req.url ?? '',
      proxyAuthorization: req.headers['proxy-authorization'],
    });
    if (options.connectStatus !== undefined) {
      socket.end(`HTTP/1.1 ${options.connectStatus} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const port = (req.url ?? '').split(':').pop();
    const upstream = net.connect(Number(port), '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}
