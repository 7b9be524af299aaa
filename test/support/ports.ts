/** Loopback ports for tests. */
import { createServer } from 'node:http';

/**
 * A port on 127.0.0.1 nothing listens on right now: it was bound and released, so a connect to it
 * is refused until something else takes it.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
