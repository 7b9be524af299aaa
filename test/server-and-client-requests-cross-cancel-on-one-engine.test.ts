/**
 * One engine for both roles, seen from outside: on one stdio connection and on one Streamable
 * HTTP session, a server→client request (the kit's elicitation during a tool call) and a
 * client→server request (a tool call) are in flight at once, and each is cancelled by the side
 * that sent it: the client cancels its tool call (the server's tool sees its signal abort), and
 * the server withdraws its elicitation (the client's handler sees its signal abort) when the call
 * it served is cancelled. Afterwards nothing is left pending on either side. The real kit server
 * over real stdio (a child process, `npm run build` first) and over a loopback listener, with
 * mcpwire's client.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { JsonRpcConnection } from '../src/protocol/connection.js';
import type { ServerInputContext } from '../src/client/server-input.js';
import { McpServer } from '../src/server/index.js';
import { listenKit } from './support/kit-http.js';
import { eventually } from './support/wait.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/kit-cross-cancel-server.mjs');

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** The client's engine (for its pending counts; not public API). */
function engineOf(client: McpClient): JsonRpcConnection {
  return (client as unknown as { session: { connection: JsonRpcConnection } }).session.connection;
}

/** An elicitation handler that never answers and reports when it starts and when it is withdrawn. */
function pendingElicitation(): {
  handler: (params: unknown, context: ServerInputContext) => Promise<never>;
  started: Promise<void>;
  withdrawn: Promise<unknown>;
} {
  let start!: () => void;
  let withdraw!: (reason: unknown) => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const withdrawn = new Promise<unknown>((resolve) => (withdraw = resolve));
  const handler = (_params: unknown, context: ServerInputContext): Promise<never> =>
    new Promise<never>(() => {
      context.signal.addEventListener('abort', () => withdraw(context.signal.reason), { once: true });
      start();
    });
  return { handler, started, withdrawn };
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}

describe('a server→client and a client→server request in flight at once, each cancelled by its sender', () => {
  it('over stdio: both cancels cross the one pipe and nothing is left pending on either side', async () => {
    const elicitation = pendingElicitation();
    const events: Array<{ event: string; code?: string }> = [];
    const client = await McpClient.connect(
      { command: process.execPath, args: [FIXTURE] },
      {
        era: 'legacy',
        handlers: { elicitation: elicitation.handler },
        onStderr: (line: string) => events.push(JSON.parse(line) as { event: string; code?: string }),
      },
    );
    open.push(client);
    const pendingOnServer = async (): Promise<{ inbound: number; outbound: number }> =>
      JSON.parse(((await client.callTool('pending', {})).content[0] as { text: string }).text) as {
        inbound: number;
        outbound: number;
      };

    const asking = new AbortController();
    const ask = client.callTool('ask', {}, { signal: asking.signal });
    await elicitation.started;
    const waiting = new AbortController();
    const wait = client.callTool('wait', {}, { signal: waiting.signal });
    await eventually(() => events.find((e) => e.event === 'wait-started'), { what: 'the wait tool running' });

    // Both directions in flight on the one connection: the server holds its elicitation and two
    // calls (plus the `pending` call itself); the client holds its two calls and the elicitation.
    expect(await pendingOnServer()).toEqual({ inbound: 3, outbound: 1 });
    expect(engineOf(client).pendingCount).toBe(2);
    expect(engineOf(client).inboundCount).toBe(1);

    // The client cancels its request: the server's tool sees its signal abort.
    waiting.abort(new Error('the user gave up'));
    await expect(wait).rejects.toMatchObject({ code: 'CANCELLED' });
    const cancelled = await eventually(() => events.find((e) => e.event === 'wait-cancelled'), {
      what: "the server's tool cancelled",
    });
    expect(cancelled.code).toBe('CANCELLED');

    // The server withdraws its request when the call it served is cancelled: the client's handler sees it.
    asking.abort(new Error('never mind'));
    await expect(ask).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(codeOf(await elicitation.withdrawn)).toBe('CANCELLED');
    await eventually(() => events.find((e) => e.event === 'elicit-failed'), {
      what: "the server's elicitation failed",
    });

    await eventually(() => (engineOf(client).inboundCount === 0 ? true : undefined), {
      what: "the client's handler record gone",
    });
    expect(await pendingOnServer()).toEqual({ inbound: 1, outbound: 0 });
    expect(engineOf(client).pendingCount).toBe(0);
  });

  it('over one HTTP session: both cancels reach the other side and nothing is left pending', async () => {
    const server = new McpServer({ name: 'cross-cancel', version: '0.0.1' });
    const seen: string[] = [];
    let waitStarted!: () => void;
    const waitRunning = new Promise<void>((resolve) => (waitStarted = resolve));
    server.registerTool({
      name: 'ask',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        try {
          await context.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: {} } });
        } catch (error) {
          seen.push(`elicit-failed:${String(codeOf(error))}`);
          throw error;
        }
        return { content: [] };
      },
    });
    server.registerTool({
      name: 'wait',
      inputSchema: { type: 'object' },
      handler: (_args, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            seen.push(`wait-cancelled:${String(codeOf(context.signal.reason))}`);
            resolve({ content: [] });
          });
          waitStarted();
        }),
    });
    open.push(server);
    const kit = await listenKit(server);
    open.push(kit);
    const elicitation = pendingElicitation();
    const client = await McpClient.connect(
      { url: kit.url },
      { era: 'legacy', handlers: { elicitation: elicitation.handler } },
    );
    open.push(client);

    const asking = new AbortController();
    const ask = client.callTool('ask', {}, { signal: asking.signal });
    await elicitation.started;
    const waiting = new AbortController();
    const wait = client.callTool('wait', {}, { signal: waiting.signal });
    await waitRunning;
    expect(engineOf(client).pendingCount).toBe(2);
    expect(engineOf(client).inboundCount).toBe(1);
    expect(kit.handler.inFlight).toBe(2);

    waiting.abort(new Error('the user gave up'));
    await expect(wait).rejects.toMatchObject({ code: 'CANCELLED' });
    await eventually(() => seen.find((s) => s.startsWith('wait-cancelled')), { what: "the server's tool cancelled" });
    expect(seen).toContain('wait-cancelled:CANCELLED');

    asking.abort(new Error('never mind'));
    await expect(ask).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(codeOf(await elicitation.withdrawn)).toBe('CANCELLED');
    await eventually(() => seen.find((s) => s.startsWith('elicit-failed')), {
      what: "the server's elicitation failed",
    });
    expect(seen).toContain('elicit-failed:CANCELLED');

    await eventually(() => (kit.handler.inFlight === 0 ? true : undefined), { what: 'every POST answered' });
    await eventually(() => (engineOf(client).inboundCount === 0 ? true : undefined), {
      what: "the client's handler record gone",
    });
    expect(engineOf(client).pendingCount).toBe(0);
    // The session still serves: its engine is not stuck on what was cancelled.
    expect((await client.listTools()).map((t) => t.name)).toEqual(['ask', 'wait']);
  });
});
