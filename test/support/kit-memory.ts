/**
 * A kit server reached over an in-memory transport pair, in the test process: either mcpwire's
 * own client on the other end, or a raw peer that sends JSON-RPC as the test writes it. The
 * server and the client are closed when the test finishes (`onTestFinished`), client first.
 */
import { onTestFinished } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import type { ClientOptions } from '../../src/client/options.js';
import type { Transport } from '../../src/protocol/transport.js';
import type { McpServer } from '../../src/server/index.js';
import { createLinkedPair } from '../../src/transport/memory.js';
import { eventually } from './wait.js';

/**
 * Connects `server` to one end of a linked pair and mcpwire's client (with `options`, e.g. the
 * `era`) to the other. Rejects as `McpClient.connect` does; the server is closed either way
 * when the test finishes.
 */
export async function connectKitClient(server: McpServer, options: ClientOptions = {}): Promise<McpClient> {
  const [clientEnd, serverEnd] = createLinkedPair();
  onTestFinished(() => server.close());
  server.connect(serverEnd);
  const client = await McpClient.connect(clientEnd, options);
  onTestFinished(() => client.close());
  return client;
}

/** The client's end of {@link rawKitPeer}: raw JSON-RPC in, everything the server sent out. */
export interface RawKitPeer {
  /** Every message the server sent, in order. */
  received: Array<Record<string, unknown>>;
  /** Sends any value as one message (not checked). */
  send(message: unknown): Promise<void>;
  /** Sends a request with the next numeric id and resolves with the message answering it (bounded). */
  ask(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Resolves with the first message carrying `id` (already received or future; bounded, 10 s). */
  answerTo(id: unknown, what?: string): Promise<Record<string, unknown>>;
}

/**
 * Connects `server` to one end of a linked pair and hands the test the other end as a raw
 * peer: no handshake is made for it. The server is closed when the test finishes.
 */
export function rawKitPeer(server: McpServer): RawKitPeer {
  const [client, serverEnd]: [Transport, Transport] = createLinkedPair();
  onTestFinished(() => server.close());
  server.connect(serverEnd);
  const received: Array<Record<string, unknown>> = [];
  client.onMessage((value) => received.push(value as Record<string, unknown>));
  let next = 1;
  const answerTo = (id: unknown, what = `the answer to ${String(id)}`) =>
    eventually(() => received.find((m) => m.id === id), { what });
  return {
    received,
    send: async (message) => void (await client.send(message as never)),
    answerTo,
    ask: async (method, params) => {
      const id = next++;
      await client.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
      return answerTo(id, `the answer to ${method}`);
    },
  };
}
