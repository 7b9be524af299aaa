/**
 * The lightweight exchange under the HTTP transports: a body that loses nothing when its reader
 * attaches late, ends exactly once, and releases the request on destroy or abort; over a real
 * socket on both engines (undici's dispatcher, and fetch).
 */
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortFanout } from '../src/transport/http/abort-fanout.js';
import { DispatcherEngine, LiteBody } from '../src/transport/http/dispatch.js';
import { FetchEngine } from '../src/transport/http/fetch-engine.js';
import type { HttpEngine, LiteResponse } from '../src/transport/http/http-engine.js';
import { readText } from '../src/transport/http/http-body.js';
import { isConnectFailure } from '../src/transport/http/http-errors.js';
import { writeThenDrop } from './support/http-fixture.js';
import { within } from './support/wait.js';

/** A POST of `{}` with no headers, no timeouts and a signal nobody aborts. */
const plainPost = () => ({
  method: 'POST',
  headers: {},
  body: '{}',
  signal: new AbortController().signal,
  headersTimeout: 0,
  bodyTimeout: 0,
});

describe('LiteBody', () => {
  it('buffers chunks that arrive before the first data listener and hands them over in order', () => {
    const body = new LiteBody();
    body.push(Buffer.from('a'));
    body.push(Buffer.from('b'));
    const seen: string[] = [];
    body.on('data', (chunk: Buffer) => seen.push(chunk.toString()));
    body.push(Buffer.from('c'));
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('emits end once, after the buffered data, even when the end came before any listener', async () => {
    const body = new LiteBody();
    body.push(Buffer.from('x'));
    body.finish(undefined, true);
    const events: string[] = [];
    body.once('end', () => events.push('end'));
    const closed = new Promise<void>((resolve) => body.once('close', () => (events.push('close'), resolve())));
    body.on('data', () => events.push('data'));
    await within(closed, { what: 'close' });
    expect(events).toEqual(['data', 'end', 'close']);
  });

  it('replays end to a listener that registers after the body closed', async () => {
    const body = new LiteBody();
    body.resume();
    body.finish(undefined, true);
    await within(new Promise<void>((resolve) => body.once('end', () => resolve())), { what: 'the replayed end' });
  });

  it('destroy aborts the exchange, emits close (not end), and is idempotent', () => {
    const body = new LiteBody();
    const reasons: string[] = [];
    let aborted = false;
    body.controller = {
      get aborted() {
        return aborted;
      },
      abort: (reason: Error) => {
        aborted = true;
        reasons.push(reason.message);
      },
      pause: () => {},
      resume: () => {},
    };
    const events: string[] = [];
    body.once('end', () => events.push('end'));
    body.once('close', () => events.push('close'));
    body.destroy();
    body.destroy();
    expect(events).toEqual(['close']);
    expect(reasons).toEqual(['response body destroyed']);
  });
});

const ENGINES = [
  { engine: 'undici', make: (agent: Agent): HttpEngine => new DispatcherEngine(agent) },
  { engine: 'fetch', make: (): HttpEngine => new FetchEngine((input, init) => globalThis.fetch(input, init)) },
];

describe.each(ENGINES)('an exchange over a real socket ($engine engine)', ({ make }) => {
  let server: Server | undefined;
  let agent: Agent | undefined;
  let engine: HttpEngine | undefined;
  const exchange = (_agent: Agent, url: URL, options: Parameters<HttpEngine['exchange']>[1]) =>
    engine!.exchange(url, options);
  afterEach(async () => {
    await agent?.destroy();
    agent = undefined;
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
  });

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<URL> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    agent = new Agent();
    engine = make(agent);
    return new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`);
  }

  it('resolves at the headers and reads a body written in the same packet', async () => {
    const url = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'x-extra': 'yes' }).end('{"ok":true}');
    });
    const response = await exchange(agent!, url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: new AbortController().signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-extra']).toBe('yes');
    expect(await readText(response.body, 1024)).toBe('{"ok":true}');
  });

  it('rejects with the signal reason when aborted before the response starts', async () => {
    const controller = new AbortController();
    // Never answers; the abort comes once the request has reached the server.
    const url = await listen(() => controller.abort(new Error('stop')));
    const pending = exchange(agent!, url, {
      method: 'POST',
      headers: {},
      body: '{}',
      signal: controller.signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    await expect(pending).rejects.toThrow('stop');
  });

  it('ends when its lifetime aborts, with that reason, and leaves no listener on the signal or the lifetime', async () => {
    const request = new AbortController();
    const lifetime = new AbortController();
    const fanout = new AbortFanout(lifetime.signal);
    const url = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\n');
      lifetime.abort(new Error('transport closed'));
    });
    const response = await exchange(agent!, url, {
      method: 'GET',
      headers: {},
      signal: request.signal,
      lifetime: fanout,
      headersTimeout: 0,
      bodyTimeout: 0,
    }).catch((error: unknown) => error);
    // The abort may come before or after the status line reached the client: either way it ends the exchange.
    const failure =
      response instanceof Error
        ? response
        : await within(readText((response as LiteResponse).body, 1024), {
            what: 'the body failing',
          }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: 'transport closed' });
    expect(getEventListeners(request.signal, 'abort')).toHaveLength(0);
    expect(fanout.size).toBe(0);
  });

  it('leaves no listener on its signals once the body ended', async () => {
    const request = new AbortController();
    const fanout = new AbortFanout(new AbortController().signal);
    const url = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const response = await exchange(agent!, url, {
      method: 'POST',
      headers: {},
      body: '{}',
      signal: request.signal,
      lifetime: fanout,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    expect(await readText(response.body, 1024)).toBe('{}');
    expect(getEventListeners(request.signal, 'abort')).toHaveLength(0);
    expect(fanout.size).toBe(0);
  });

  it('fails the body with an error when the server drops the connection mid-body', async () => {
    const url = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      writeThenDrop(res, '{"partial":');
    });
    const response = await exchange(agent!, url, plainPost());
    await expect(readText(response.body, 1024)).rejects.toBeInstanceOf(Error);
  });

  it('rejects with a headers timeout when the status line does not come in time', async () => {
    const url = await listen((req) => req.resume()); // never answers
    await expect(exchange(agent!, url, { ...plainPost(), headersTimeout: 50 })).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
  });

  it('rejects with the network error when nothing listens', async () => {
    const url = await listen(() => {});
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const failure = await exchange(agent!, url, plainPost()).catch((error: unknown) => error);
    expect(isConnectFailure(failure)).toBe(true);
  });
});
