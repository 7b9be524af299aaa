/**
 * The HTTP test fixture reads a request's body before it routes it. A client that drops the
 * connection in the middle of the body makes that read reject; the fixture ends the socket and
 * keeps serving, and leaves no rejection unhandled (vitest fails the run for one, as it did when
 * the body was read in an `async` request listener nobody awaited).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { cleanUp, type HttpFixture, startHttpFixture } from './support/http-fixture.js';
import { until, within } from './support/wait.js';

let fixture: HttpFixture | undefined;

afterEach(async () => void ([, fixture] = await cleanUp(undefined, fixture)));

/** Resolves once `socket` has received `text`. */
function received(socket: Socket, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (seen.includes(text)) resolve();
    });
  });
}

it('a request dropped in the middle of its body ends its socket and the fixture keeps serving', async () => {
  fixture = await startHttpFixture((seen, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`routed ${seen.body}`);
    return true;
  });
  const socket = connect(fixture.port, '127.0.0.1');
  const continued = received(socket, '100 Continue');
  // `Expect: 100-continue` makes the server answer once its request listener runs, so the body
  // read has started when the connection drops.
  socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n`);
  await within(continued, { what: "the fixture's 100 Continue" });
  socket.write('0123456789');
  socket.destroy();
  await until(() => fixture!.openSockets() === 0, { what: 'the dropped socket to close on the fixture' });

  // The next request is served: the fixture survived, and the dropped one was never routed.
  const answer = await fetch(fixture.url, { method: 'POST', body: 'whole' });
  expect(await answer.text()).toBe('routed whole');
  expect(fixture.requests.map((r) => r.body)).toEqual(['whole']);
});
