/**
 * The upstreams the gateway tests put behind a gateway, started once per test file:
 * - `sdkV1Upstream()`: the official SDK v1 server over Streamable HTTP with sessions
 *   (`sdk-v1-gateway-upstream.mjs`), a real process;
 * - `kitModernUpstream()`: an mcpwire kit server on a real loopback listener, which a client
 *   reaches on 2026-07-28 (a resource, an input round, a tool that reports progress);
 * - `everythingDefinition()`: `@modelcontextprotocol/server-everything` over stdio, as a manager
 *   server definition (the manager starts it).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer, type HttpHandlerOptions } from '../../src/server/index.js';
import {
  createGateway,
  gatewayHttp,
  type Gateway,
  type GatewayCardOptions,
  type GatewayHttp,
  type GatewayOptions,
} from '../../src/gateway/index.js';
import type { ServerDefinition } from '../../src/manager/servers/managed-server.js';
import { EVERYTHING } from './cli.js';
import { listenKitAt, type KitHttp } from './kit-http.js';
import { waitUntilGone } from './processes.js';
import { within } from './wait.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SDK_V1_UPSTREAM = path.join(HERE, 'sdk-v1-gateway-upstream.mjs');

/** A started upstream process and how to stop it (SIGKILL, then waits until it is gone). */
export interface UpstreamProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the SDK v1 upstream; resolves with its URL once it listens (bounded, 20 s). */
export async function sdkV1Upstream(): Promise<UpstreamProcess> {
  const child = spawn(process.execPath, [SDK_V1_UPSTREAM], { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await waitUntilGone(child.pid!);
  };
  try {
    const url = await within(
      new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
          const line = /^(\{.*\})$/m.exec(text);
          if (line) resolve((JSON.parse(line[1]!) as { url: string }).url);
        });
        child.once('exit', (code) => reject(new Error(`the SDK v1 upstream exited (${code}) before listening`)));
      }),
      { timeoutMs: 20_000, what: 'the SDK v1 upstream to listen' },
    );
    return { url, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The kit upstream (`kit-upstream` 1.0.0): `add` with progress, `confirm` asking for input, a resource. */
export async function kitModernUpstream(): Promise<KitHttp & { server: McpServer }> {
  const server = new McpServer({ name: 'kit-upstream', version: '1.0.0', logger: () => undefined });
  server.registerTool({
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    } as const,
    handler: ({ a, b }, context) => {
      context.progress(1, 2, 'half');
      context.progress(2, 2, 'done');
      return { content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } };
    },
  });
  server.registerTool({
    name: 'confirm',
    description: 'Asks the user to confirm.',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      const answer = await context.elicit({
        message: 'Go on?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      return { content: [{ type: 'text', text: `confirmed:${answer.action}:${String(answer.content?.ok)}` }] };
    },
  });
  server.registerResource({
    uri: 'kit://readme',
    name: 'readme',
    mimeType: 'text/plain',
    read: (uri) => [{ uri, mimeType: 'text/plain', text: 'the kit readme' }],
  });
  const http = await listenKitAt(server, () => ({}));
  return { ...http, server };
}

/** server-everything over stdio, named `name`. */
export function everythingDefinition(name: string): ServerDefinition {
  return { name, transport: 'stdio', command: process.execPath, args: [path.resolve(EVERYTHING), 'stdio'] };
}

/** A gateway over the shared upstreams, served over HTTP on a loopback listener. */
export interface GatewayScene {
  v1: UpstreamProcess;
  kit: KitHttp & { server: McpServer };
  gateway: Gateway;
  /** The gateway's endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Closes the listener, the gateway (and its upstream processes), then the upstreams. */
  close(): Promise<void>;
}

/**
 * Starts the SDK v1 and kit upstreams, a gateway over them (and `extra` servers) and its HTTP
 * endpoint (each virtual server at `/mcp/NAME`; `http(url)` adds handler options, e.g. `auth`);
 * for `beforeAll` (with `close()` in `afterAll`).
 */
export async function startGatewayScene(
  extra: ServerDefinition[] = [],
  options: Omit<GatewayOptions, 'manager'> = {},
  http?: (url: string) => Omit<HttpHandlerOptions, 'path'>,
): Promise<GatewayScene> {
  const [v1, kit] = await Promise.all([sdkV1Upstream(), kitModernUpstream()]);
  const gateway = createGateway({
    manager: { servers: [{ name: 'v1', url: v1.url }, { name: 'kit', url: kit.url }, ...extra] },
    logger: () => undefined,
    ...options,
  });
  await gateway.ready;
  const served = await serveGateway(gateway, http);
  return {
    v1,
    kit,
    gateway,
    url: served.url,
    close: async () => {
      await served.close();
      await gateway.close();
      await Promise.all([v1.stop(), kit.close()]);
    },
  };
}

/**
 * Serves `gateway` on a loopback listener (`gatewayHttp`): `/mcp`, each virtual server at
 * `/mcp/NAME`, and their documents (metadata, cards).
 */
export async function serveGateway(
  gateway: Gateway,
  http?: (url: string) => Omit<HttpHandlerOptions, 'path'>,
  card?: GatewayCardOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  let routes: GatewayHttp | undefined;
  const listener = createServer((req, res) => {
    if (routes) routes.handle(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
  routes = gatewayHttp(gateway, {
    ...(card ? { card } : {}),
    ...(http ? { options: (path: string) => http(`${url}${path.slice('/mcp'.length)}`) } : {}),
  });
  return {
    url,
    close: async () => {
      await routes?.close();
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}
