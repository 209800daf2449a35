// A node:http server on port 0 that answers from a script: for client behaviour the mock
// cannot show on demand (a contract breach, a bare payload, a precise sequence of failures).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { reset: true }
  | { hang: true }
  /** Headers at once, then a byte of body every `trickle` ms, never the end. */
  | { trickle: number };

export interface ScriptedServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Answers request N with step N (the last step repeats). */
export async function startScriptedServer(steps: Step[]): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const step = steps[Math.min(requests.length - 1, steps.length - 1)]!;
      if ('reset' in step) return req.socket.destroy();
      if ('hang' in step) return void hanging.push(res);
      if ('trickle' in step) {
        hanging.push(res);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const drip = setInterval(() => res.write(' '), step.trickle);
        res.on('close', () => clearInterval(drip));
        return;
      }
      const text =
        step.body === undefined ? '' : typeof step.body === 'string' ? step.body : JSON.stringify(step.body);
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A TCP server on port 0 that takes every connection and never finishes a reply: silent, or
 * trickling a status line and headers that never end, a byte every `trickle` ms. As a server it
 * never completes a TLS handshake; as a proxy it never answers CONNECT. Counts its connections.
 */
export async function startSilentServer(
  options: { trickle?: number } = {},
): Promise<{ url: string; port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (options.trickle === undefined) return;
    const text = 'HTTP/1.1 200 Connection established\r\nX-Slow: ';
    let sent = 0;
    const drip = setInterval(() => {
      socket.write(sent < text.length ? text[sent]! : 'a');
      sent++;
    }, options.trickle);
    socket.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
