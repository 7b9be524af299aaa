/**
 * `createGateway`: the configured servers served as one MCP server. The gateway is a kit
 * `McpServer` whose tools, prompts, resources and templates are registrations standing for the
 * upstreams' (`forwarders.ts`), derived from what each connected upstream lists:
 *
 * - names are `SERVER__TOOL` (and `SERVER__PROMPT`) by the manager's naming rules with the
 *   gateway's separator: provider-safe, within 64 characters, collision-proof whatever the
 *   names contain, and mapped back by a table, never by splitting;
 * - resource URIs carry their server (`resource-uris.ts`);
 * - an upstream's `list_changed` re-reads that list, and a server that connects, drops or
 *   leaves the config changes the set: every change reaches downstream clients as the kit's
 *   `list_changed` (legacy sessions, 2026 listen streams);
 * - a server that is down or needs a login is not silently dropped: the status resource
 *   (`mcpwire://gateway/status`) lists every configured server with its state and last error.
 *
 * The gateway never keeps a tool list of its own beyond the upstreams' last answers: every
 * change recomputes the whole set and registers only the difference.
 */
import { McpManager } from '../manager/mcp-manager.js';
import type { McpClient } from '../client/mcp-client.js';
import { McpError } from '../protocol/errors.js';
import type { Disposer } from '../protocol/transport.js';
import { ToolRegistry } from '../manager/catalogue/tool-registry.js';
import { McpServer } from '../server/mcp-server.js';
import { VERSION } from '../util/version.js';
import { checkGatewayOptions, type GatewayOptions } from './gateway-options.js';
import { InputRouter } from './input-router.js';
import {
  forwardedPrompt,
  forwardedResource,
  forwardedTemplate,
  forwardedTool,
  serverCatchAll,
  type ForwardingContext,
} from './forwarders.js';
import { readLists, type ListKind, type UpstreamLists } from './upstream-lists.js';
import { GATEWAY_STATUS_URI, gatewayStatus, type GatewayStatus } from './gateway-status.js';

const ALL_LISTS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'templates'];
const DEFAULT_LIST_TIMEOUT_MS = 30_000;

/** A running gateway. */
export interface Gateway {
  /** The gateway's MCP server: mount it with `createHttpHandler`, `createFetchHandler` or a stdio transport. */
  readonly server: McpServer;
  /** The manager of the upstreams. */
  readonly manager: McpManager;
  /** Resolves once every configured server was tried and the lists of those that connected were read. */
  readonly ready: Promise<void>;
  /** The upstreams and their state, as the status resource reports them. */
  status(): GatewayStatus;
  /** The server and tool behind an exposed tool name, or undefined. */
  resolveTool(name: string): { server: string; tool: string } | undefined;
  /** How many downstream calls (tools, prompts) are in flight on the upstream `server`. */
  inFlight(server: string): number;
  /** Closes the kit server, then (when the gateway made it) the manager and every upstream. Idempotent. */
  close(): Promise<void>;
}

/** One registration the gateway holds: what it was made from, and how to withdraw it. */
interface Held {
  key: string;
  dispose: Disposer;
}

/** An upstream the gateway follows: its client, the listeners on it, its last lists. */
interface Attached {
  client: McpClient;
  off: Disposer[];
  lists: UpstreamLists | undefined;
  /** Bumped by every read, so that a slower, older read never overwrites a newer one. */
  generation: number;
}

/**
 * Makes the gateway and starts connecting the upstreams (`ready` tells when they were all
 * tried). Throws `INVALID_ARGUMENT` for bad options.
 */
export function createGateway(options: GatewayOptions): Gateway {
  checkGatewayOptions(options);
  const router = new InputRouter();
  const owned = !(options.manager instanceof McpManager);
  const manager =
    options.manager instanceof McpManager
      ? options.manager
      : McpManager.create({
          ...options.manager,
          // The gateway's handlers, whatever the options say: input goes to the downstream caller.
          client: { ...options.manager.client, handlers: router.handlers },
        });
  const server = new McpServer({
    name: options.name ?? 'mcpwire-gateway',
    version: options.version ?? VERSION,
    ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.state !== undefined ? { state: options.state } : {}),
  });
  const naming = { prefix: '', separator: options.separator ?? '__' };
  const listTimeoutMs = options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
  const lifetime = new AbortController();
  const attached = new Map<string, Attached>();
  const held = new Map<string, Held>();
  let tools = new ToolRegistry(naming);
  let closing: Promise<void> | undefined;

  const via: ForwardingContext = {
    router,
    client: async (name) => {
      const client = manager.getConnection(name);
      if (client && !client.isClosed) return client;
      if (!manager.listServers().includes(name))
        throw new McpError('INVALID_ARGUMENT', `no server "${name}" is configured`, { server: name });
      return manager.connect(name);
    },
  };

  /** Registers what the upstreams offer now and withdraws what they no longer do. */
  const sync = (): void => {
    if (lifetime.signal.aborted) return;
    const wanted = new Map<string, () => Disposer>();
    const toolRegistry = new ToolRegistry(naming);
    const promptRegistry = new ToolRegistry(naming);
    for (const [name, upstream] of attached) {
      const lists = upstream.lists;
      if (!lists) continue;
      toolRegistry.register(name, lists.tools);
      promptRegistry.register(
        name,
        lists.prompts.map((prompt) => ({ name: prompt.name, inputSchema: { type: 'object' } })),
      );
      if (lists.resources.length > 0 || lists.templates.length > 0)
        wanted.set(key('catch-all', name, ''), () => server.registerResourceTemplate(serverCatchAll(via, name)));
      for (const resource of lists.resources)
        wanted.set(key('resource', name, resource), () =>
          server.registerResource(forwardedResource(via, name, resource)),
        );
      for (const template of lists.templates)
        wanted.set(key('template', name, template), () =>
          server.registerResourceTemplate(forwardedTemplate(via, name, template)),
        );
    }
    for (const entry of toolRegistry.list()) {
      wanted.set(key('tool', entry.name, entry.definition, entry.server), () => {
        const { definition, ui } = forwardedTool(via, entry.server, entry.name, entry.definition);
        return ui ? server.registerAppTool({ ...definition, ui }) : server.registerTool(definition);
      });
    }
    for (const entry of promptRegistry.list()) {
      const prompt = attached.get(entry.server)?.lists?.prompts.find((p) => p.name === entry.tool);
      if (prompt)
        wanted.set(key('prompt', entry.name, prompt, entry.server), () =>
          server.registerPrompt(forwardedPrompt(via, entry.server, entry.name, prompt)),
        );
    }
    // Withdraw first, so that a name moving between two tools is free when it is registered again.
    for (const [k, registration] of held) {
      if (wanted.has(k)) continue;
      registration.dispose();
      held.delete(k);
    }
    for (const [k, register] of wanted) {
      if (held.has(k)) continue;
      try {
        held.set(k, { key: k, dispose: register() });
      } catch (error) {
        server.logger({
          level: 'warning',
          msg: 'an upstream item could not be served',
          item: k.slice(0, 200),
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    tools = toolRegistry;
  };

  /** Reads `kinds` of `name`'s lists again, then syncs; an older read finishing later is dropped. */
  const refresh = async (name: string, kinds: readonly ListKind[]): Promise<void> => {
    const upstream = attached.get(name);
    if (!upstream) return;
    const generation = ++upstream.generation;
    try {
      const lists = await readLists(upstream.client, kinds, upstream.lists, {
        signal: lifetime.signal,
        timeoutMs: listTimeoutMs,
      });
      if (attached.get(name) !== upstream || upstream.generation !== generation) return;
      upstream.lists = lists;
      sync();
    } catch (error) {
      if (lifetime.signal.aborted) return;
      server.logger({
        level: 'warning',
        msg: 'an upstream list could not be read',
        server: name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };

  /** Follows the manager: attaches connected servers (a new client too), detaches the others. */
  const follow = (): Promise<void> => {
    if (lifetime.signal.aborted) return Promise.resolve();
    const reads: Promise<void>[] = [];
    let detached = false;
    for (const [name, upstream] of attached) {
      const client = manager.getConnection(name);
      if (client === upstream.client && !client.isClosed) continue;
      for (const off of upstream.off) off();
      attached.delete(name);
      detached = true;
    }
    for (const name of manager.listServers()) {
      if (attached.has(name) || !manager.isConnected(name)) continue;
      const client = manager.getConnection(name);
      if (!client || client.isClosed) continue;
      const upstream: Attached = { client, off: [], lists: undefined, generation: 0 };
      upstream.off.push(
        client.on('toolsChanged', () => void refresh(name, ['tools'])),
        client.on('promptsChanged', () => void refresh(name, ['prompts'])),
        client.on('resourcesChanged', () => void refresh(name, ['resources', 'templates'])),
        client.on('log', (params) => {
          const call = router.soleCall(name);
          call?.log(params.level, params.data, params.logger ?? name);
        }),
      );
      attached.set(name, upstream);
      reads.push(refresh(name, ALL_LISTS));
    }
    if (detached) sync();
    return Promise.all(reads).then(() => undefined);
  };

  const offManager = [
    manager.on('status', () => void follow()),
    manager.on('catalogChanged', () => void follow()),
    manager.on('reload', () => void follow()),
  ];

  server.registerResource({
    uri: GATEWAY_STATUS_URI,
    name: 'gateway-status',
    title: 'Gateway status',
    description: 'Every server behind this gateway, its state and its last error.',
    mimeType: 'application/json',
    read: () => [{ uri: GATEWAY_STATUS_URI, mimeType: 'application/json', text: JSON.stringify(status(), null, 2) }],
  });

  const status = (): GatewayStatus =>
    gatewayStatus(
      manager.getStatus(),
      (name) => attached.get(name)?.lists,
      (name) => tools.list().filter((entry) => entry.server === name).length,
    );

  const ready = (async () => {
    try {
      await manager.connectAll();
    } catch (error) {
      if (lifetime.signal.aborted) return;
      server.logger({
        level: 'error',
        msg: 'the upstream servers could not be started',
        error: error instanceof Error ? error.message : String(error),
      });
    }
    await follow();
  })();

  return {
    server,
    manager,
    ready,
    status,
    resolveTool: (name) => tools.resolveToolName(name),
    inFlight: (name) => router.count(name),
    close: () =>
      (closing ??= (async () => {
        lifetime.abort(new McpError('CONNECTION_CLOSED', 'the gateway closed'));
        for (const off of offManager) off();
        for (const upstream of attached.values()) for (const off of upstream.off) off();
        attached.clear();
        await server.close();
        if (owned) await manager.close();
        await ready.catch(() => undefined);
      })()),
  };
}

/** A registration's identity: its kind, its exposed name and what it was made from. */
function key(kind: string, name: string, source: unknown, server = ''): string {
  return `${kind}\u0000${server}\u0000${name}\u0000${typeof source === 'string' ? source : JSON.stringify(source)}`;
}
