// A loopback port where a connection is refused, held for the test: the local end of an open
// connection to a throwaway server. Nothing listens on it, and while the connection stays open
// no other server can take it; a port freed by closing a server could be taken again at once.
import { connect, createServer, type Socket } from 'node:net';
import { onTestFinished } from 'vitest';

export async function refusedPort(): Promise<number> {
  const server = createServer();
  const accepted: Socket[] = [];
  server.on('connection', (socket) => accepted.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const client = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    client.once('connect', resolve);
    client.once('error', reject);
  });
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        client.destroy();
        for (const socket of accepted) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return client.localPort!;
}
