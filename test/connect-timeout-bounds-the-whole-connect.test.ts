/**
 * `connectTimeoutMs` is one deadline for the whole connect, the `server/discover` probe
 * included: a server that never answers fails with one TIMEOUT naming the server and the phase
 * that got no answer, within the timeout (plus a margin for a loaded machine), over a transport,
 * over stdio and over HTTP. (The probe used to run on its own clock first: `--timeout 3000`
 * took 8.3 s on stdio, and the default 30 s connect took 35.)
 *
 * Time is asserted only with a wide margin: the connect must end well before twice its timeout
 * (the old behaviour took three times it and more); the rest is structure: which requests the
 * server saw, in which order, and what the error says.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { cleanUp, type HttpFixture, legacyServer, openSse, startHttpFixture } from './support/http-fixture.js';
import { NO_REPLY, scriptedPair } from './support/scripted-peer.js';

const TIMEOUT_MS = 3_000; // twice it leaves 3 s for a loaded machine (1.5 s once took 4.0 s in all under load)
const SILENT_HANDSHAKE = `got no answer within the connect timeout of ${TIMEOUT_MS} ms (nor did the server/discover probe before it)`;

let fixture: HttpFixture | undefined;

afterEach(async () => void ([, fixture] = await cleanUp(undefined, fixture)));

/** Runs `connect`, returning its rejection and how long it took. */
async function timed(connect: () => Promise<McpClient>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = performance.now();
  const error = await connect().then(
    async (client) => {
      await client.close();
      return new Error('connected to a server that never answers');
    },
    (e: unknown) => e,
  );
  return { error, elapsedMs: performance.now() - started };
}

describe('the connect timeout bounds the whole connect, probe included', () => {
  it('over a transport: probe and initialize share the deadline; one TIMEOUT naming initialize', async () => {
    const { clientTransport, peer } = scriptedPair();
    peer.on('server/discover', () => NO_REPLY).on('initialize', () => NO_REPLY);
    // The default probe timeout (3000 ms) alone is twice the connect timeout.
    const { error, elapsedMs } = await timed(() =>
      McpClient.connect(clientTransport, { name: 'mute', connectTimeoutMs: TIMEOUT_MS }),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', server: 'mute', method: 'initialize' });
    expect((error as Error).message).toBe(`server "mute": initialize ${SILENT_HANDSHAKE}`);
    expect(peer.methods()).toEqual(['server/discover', 'initialize']);
    expect(elapsedMs).toBeLessThan(2 * TIMEOUT_MS);
  });

  it('a pinned modern era: one TIMEOUT naming server/discover', async () => {
    const { clientTransport, peer } = scriptedPair();
    peer.on('server/discover', () => NO_REPLY);
    const { error } = await timed(() =>
      McpClient.connect(clientTransport, { name: 'mute', era: 'modern', connectTimeoutMs: 300 }),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', method: 'server/discover' });
    expect((error as Error).message).toBe(
      'server "mute": server/discover got no answer within the connect timeout of 300 ms',
    );
  });

  it('over stdio: a server that reads but never answers fails within the timeout, with nothing left running', async () => {
    // A longer timeout here: the elapsed time includes starting node and stopping it again.
    const timeoutMs = 2_000;
    const silent = { command: process.execPath, args: ['-e', 'process.stdin.resume()'] };
    const { error, elapsedMs } = await timed(() =>
      McpClient.connect(silent, { name: 'silent', connectTimeoutMs: timeoutMs }),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', server: 'silent', method: 'initialize' });
    expect((error as Error).message).toBe(
      `server "silent": initialize got no answer within the connect timeout of ${timeoutMs} ms (nor did the server/discover probe before it)`,
    );
    expect(elapsedMs).toBeLessThan(2 * timeoutMs);
    // The suite's no-orphans guard checks that the server process is gone.
  });

  it('over Streamable HTTP: the probe POST and the initialize POST, then one TIMEOUT', async () => {
    fixture = await startHttpFixture((_seen, res) => {
      openSse(res); // and never a word
      return true;
    });
    const { error, elapsedMs } = await timed(() =>
      McpClient.connect({ url: fixture!.url }, { name: 'mute-http', connectTimeoutMs: TIMEOUT_MS }),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', server: 'mute-http', method: 'initialize' });
    expect((error as Error).message).toBe(`server "mute-http": initialize ${SILENT_HANDSHAKE}`);
    expect(fixture.requests.map((r) => r.rpc)).toEqual(['server/discover', 'initialize']);
    expect(elapsedMs).toBeLessThan(2 * TIMEOUT_MS);
  });

  it('over HTTP, a cached route that times out ends the connect: no fresh probe on a spent deadline', async () => {
    let silent = false;
    fixture = await startHttpFixture((_seen, res) => {
      if (!silent) return false;
      openSse(res);
      return true;
    }, legacyServer());
    const first = await McpClient.connect({ url: fixture.url }, { name: 'flaky' });
    expect(first.era).toBe('legacy'); // the URL's verdict is now cached
    await first.close();
    silent = true;
    const before = fixture.requests.length;
    const { error, elapsedMs } = await timed(() =>
      McpClient.connect({ url: fixture!.url }, { name: 'flaky', connectTimeoutMs: TIMEOUT_MS }),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', server: 'flaky', method: 'initialize' });
    expect((error as Error).message).toBe(
      `server "flaky": initialize got no answer within the connect timeout of ${TIMEOUT_MS} ms`,
    );
    expect(fixture.requests.slice(before).map((r) => r.rpc)).toEqual(['initialize']);
    expect(elapsedMs).toBeLessThan(2 * TIMEOUT_MS);
  });

  it('over HTTP+SSE: a GET that gets no response is a TIMEOUT naming the URL', async () => {
    fixture = await startHttpFixture(() => true); // the GET is never answered
    const { error } = await timed(() =>
      McpClient.connect({ url: fixture!.url, transport: 'sse' }, { name: 'mute-sse', connectTimeoutMs: 300 }),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', server: 'mute-sse', method: 'GET (HTTP+SSE)' });
    expect((error as Error).message).toBe(
      `server "mute-sse": GET (HTTP+SSE) no response within the connect timeout of 300 ms (${fixture.url})`,
    );
  });

  it('over HTTP+SSE: a stream without an endpoint event is a TIMEOUT saying so', async () => {
    fixture = await startHttpFixture((_seen, res) => {
      openSse(res);
      return true;
    });
    const { error } = await timed(() =>
      McpClient.connect({ url: fixture!.url, transport: 'sse' }, { name: 'mute-sse', connectTimeoutMs: 300 }),
    );
    expect(error).toMatchObject({ code: 'TIMEOUT', method: 'GET (HTTP+SSE)' });
    expect((error as Error).message).toContain('no endpoint event within the connect timeout of 300 ms');
  });
});
