/**
 * The HTTP recording proxy passes backpressure on: while its client does not read, the proxy
 * stops reading the target's response, so the target's writes wait instead of the proxy buffering
 * the whole body in memory. Real loopback sockets on both sides, in front of a target that writes
 * a large body honouring `drain`.
 */
import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startHttpProxy, type HttpProxy } from '../src/inspect/proxy/http-proxy.js';
import { eventually, until, within } from './support/wait.js';

/**
 * More than every socket buffer on the way can hold (on Linux a receive buffer grows to 32 MiB, a
 * send buffer to 4 MiB; about 4 MiB are in flight when the target is held back).
 */
const TOTAL = 128 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 'x');

/** What the target has done with its large body so far. */
interface Writer {
  written: number;
  /** Waiting for `drain`: the bytes are somewhere on the way, not yet taken by the reader. */
  blocked: boolean;
  finished: boolean;
}

let target: Server | undefined;
let proxy: HttpProxy | undefined;
const responses: IncomingMessage[] = [];

afterEach(async () => {
  for (const res of responses.splice(0)) res.destroy();
  await proxy?.close();
  proxy = undefined;
  target?.closeAllConnections();
  if (target) await new Promise<void>((resolve) => target!.close(() => resolve()));
  target = undefined;
});

async function startTarget(writer: Writer): Promise<string> {
  target = createServer((req, res) => {
    req.resume();
    if (req.url === '/ping') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(TOTAL) });
    const write = (): void => {
      while (writer.written < TOTAL) {
        writer.written += CHUNK.length;
        if (!res.write(CHUNK)) {
          writer.blocked = true;
          res.once('drain', () => {
            writer.blocked = false;
            write();
          });
          return;
        }
      }
      res.end(() => (writer.finished = true));
    };
    res.on('close', () => res.removeAllListeners('drain'));
    write();
  });
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}

/** GET through the proxy on a connection of its own; resolves with the response, unread. */
function open(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      responses.push(res);
      resolve(res);
    }).once('error', reject);
  });
}

/** A whole round trip through the proxy and the target: several turns of their event loop. */
async function roundTrip(origin: string): Promise<void> {
  const res = await open(`${origin}/ping`);
  res.resume();
  await within(once(res, 'end'), { what: 'the ping through the proxy' });
}

it('a client that stops reading holds the target back until it reads again, then gets every byte', async () => {
  const writer: Writer = { written: 0, blocked: false, finished: false };
  const origin = await startTarget(writer);
  proxy = await startHttpProxy({ target: `${origin}/big`, listen: { host: '127.0.0.1', port: 0 }, onRecord: () => {} });
  const proxyOrigin = new URL(proxy.url).origin;

  const big = await open(`${proxyOrigin}/big`);
  big.pause(); // the client reads nothing for now

  // Steady state: the target waits for drain and writes nothing more across a round trip through
  // the proxy. A proxy that ignores backpressure keeps reading, so the target finishes instead.
  const { held } = await eventually(
    async () => {
      if (writer.finished) return { held: undefined };
      await until(() => writer.blocked || writer.finished, { what: 'the target waiting for drain', timeoutMs: 20_000 });
      const at = writer.written;
      await roundTrip(proxyOrigin);
      return writer.blocked && writer.written === at ? { held: at } : undefined;
    },
    { timeoutMs: 20_000, what: 'the target held back by the paused client' },
  );
  expect(writer.finished, 'the target wrote its whole body while the client read nothing').toBe(false);
  expect(held).toBeLessThan(TOTAL);

  let read = 0;
  big.on('data', (chunk: Buffer) => (read += chunk.length));
  big.resume();
  await within(once(big, 'end'), { what: 'the rest of the body', timeoutMs: 30_000 });
  expect(read).toBe(TOTAL);
  expect(writer.finished).toBe(true);
}, 60_000);
