/**
 * A request the client cancels gets no answer (the spec, basic/utilities/cancellation: the
 * receiver should not send a response for a cancelled request). Over Streamable HTTP, the POST
 * that carried it ends without an answer for it: its SSE stream ends empty, a JSON-only client
 * gets 202 with no body, a batch's answer holds only the requests not cancelled. Over stdio,
 * nothing is written for it. Over a real loopback listener and a kit server child on its own
 * stdio (needs `npm run build`).
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { startKitHttp } from './support/kit-http.js';
import { KIT_FINISHING_SERVER, startKitStdio } from './support/kit-stdio.js';
import { exchange, sseEvents } from './support/kit-wire.js';
import { within } from './support/wait.js';

/**
 * A kit server whose `hold` call runs until it is aborted; `started` resolves once one runs,
 * `runs()` counts the calls that reached the handler.
 */
async function holdingServer(): Promise<{ url: string; started: () => Promise<void>; runs: () => number }> {
  const server = new McpServer({ name: 'holding', version: '1', logger: () => undefined });
  let wake!: () => void;
  let runs = 0;
  const running = new Promise<void>((resolve) => (wake = resolve));
  server.registerTool({
    name: 'hold',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      runs += 1;
      wake();
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      return { content: [{ type: 'text', text: 'finished after the cancel' }] };
    },
  });
  const { url } = await startKitHttp(server, { path: '/mcp' });
  return { url, started: () => within(running, { what: 'the hold call to start' }), runs: () => runs };
}

/** Initializes a legacy session at `revision`; the headers its later requests carry. */
async function session(url: string, revision: string): Promise<Record<string, string>> {
  const init = await exchange(url, {
    body: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'cancelling', version: '0' } },
    },
  });
  expect(init.json.result.protocolVersion).toBe(revision);
  const headers = { 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': revision };
  const initialized = await exchange(url, { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers });
  expect(initialized.status).toBe(202);
  return headers;
}

const hold = (id: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold', arguments: {} } });
const cancel = (requestId: string) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason: 'the user gave up' },
});

describe('over Streamable HTTP, a request cancelled with notifications/cancelled', () => {
  it('ends its POST with an SSE stream that carries no answer', async () => {
    const { url, started } = await holdingServer();
    const headers = await session(url, '2025-06-18');
    const call = exchange(url, { body: hold('h'), headers });
    await started();
    expect((await exchange(url, { body: cancel('h'), headers })).status).toBe(202);
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(sseEvents(answer.text).filter((event) => event.data !== '')).toEqual([]);
  });

  it('ends its POST with 202 and no body when the client takes only JSON', async () => {
    const { url, started } = await holdingServer();
    const headers = await session(url, '2025-06-18');
    const call = exchange(url, { body: hold('h'), headers: { ...headers, accept: 'application/json' } });
    await started();
    expect((await exchange(url, { body: cancel('h'), headers })).status).toBe(202);
    const answer = await call;
    expect(answer.status).toBe(202);
    expect(answer.text).toBe('');
  });

  it('leaves it out of its batch answer (2025-03-26), which holds the rest', async () => {
    const { url, started } = await holdingServer();
    const headers = await session(url, '2025-03-26');
    const call = exchange(url, {
      body: [hold('h'), { jsonrpc: '2.0', id: 'p', method: 'ping' }],
      headers: { ...headers, accept: 'application/json' },
    });
    await started();
    expect((await exchange(url, { body: cancel('h'), headers })).status).toBe(202);
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([{ jsonrpc: '2.0', id: 'p', result: {} }]);
  });

  it('never runs a request its own batch cancels (2025-03-26), and answers the rest', async () => {
    const { url, runs } = await holdingServer();
    const headers = await session(url, '2025-03-26');
    const answer = await exchange(url, {
      body: [hold('h'), cancel('h'), { jsonrpc: '2.0', id: 'p', method: 'ping' }],
      headers: { ...headers, accept: 'application/json' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([{ jsonrpc: '2.0', id: 'p', result: {} }]);
    expect(runs()).toBe(0);
  });
});

describe('over stdio, a request cancelled with notifications/cancelled', () => {
  it('is never answered, and the session goes on', async () => {
    const peer = startKitStdio(KIT_FINISHING_SERVER);
    await peer.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'cancelling', version: '0' },
    });
    peer.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const id = peer.send('tools/call', { name: 'hold', arguments: { name: 'h' } });
    await peer.waitFor(() => (peer.stderr.includes('started h') ? true : undefined));
    peer.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'gave up' } });
    await peer.waitFor(() => (peer.stderr.includes('aborted h') ? true : undefined));
    // The held call returned once aborted: an answer to it would be written before this ping's.
    expect(await peer.request('ping')).toMatchObject({ result: {} });
    expect(peer.messages.filter((message) => message.id === id)).toEqual([]);
  });
});
