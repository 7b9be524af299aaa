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
import { ResourceUpdates } from './resource-updates.js';
import { UPSTREAM_TASKS_EXTENSION } from './upstream-task.js';
import { GATEWAY_STATUS_URI, gatewayStatus, type GatewayStatus } from './gateway-status.js';
import { GatewayAccess } from './gateway-access.js';
import { PinStore } from './pins/pin-store.js';
import { compilePolicies } from './policy/policies.js';
import { compileVirtualServers } from './policy/virtual-servers.js';
import type { PolicyTarget } from './policy/pattern.js';
import { rateLimiterFor } from './policy/state-buckets.js';
import { registerSearchMode, type SearchEntry } from './search-mode.js';
import type { Tool } from '../protocol/types.js';
import { ToolError } from '../server/tools/tool-error.js';
import { PerPrincipalUpstreams } from './credentials/per-principal-upstreams.js';

const ALL_LISTS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'templates'];
const DEFAULT_LIST_TIMEOUT_MS = 30_000;

/** A running gateway. */
export interface Gateway {
  /** The gateway's MCP server: mount it with `createHttpHandler`, `createFetchHandler` or a stdio transport. */
  readonly server: McpServer;
  /** One server per virtual server (`virtualServers`), by name: mount each at `/mcp/NAME`. */
  readonly virtualServers: ReadonlyMap<string, McpServer>;
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

/** A server the gateway serves, and which upstream items it includes. */
interface Surface {
  server: McpServer;
  includes(target: PolicyTarget): boolean;
  /** Search mode on a virtual server: the catalogue's entries it includes. */
  filtered?: () => ReadonlyMap<string, SearchEntry>;
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
  /** Its listed resources' updates, told downstream under the gateway's URIs (`resource-updates.ts`). */
  updates: ResourceUpdates;
  /** Bumped by every read, so that a slower, older read never overwrites a newer one. */
  generation: number;
  /** Its first read of every list (settles, never rejects): `ready` waits for it. */
  firstRead: Promise<void>;
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
          // The gateway's handlers, whatever the options say: input goes to the downstream caller;
          // and the tasks extension, so that an upstream may run a call as its task (`upstream-task.ts`).
          client: {
            ...options.manager.client,
            handlers: router.handlers,
            extensions: { ...options.manager.client?.extensions, ...UPSTREAM_TASKS_EXTENSION },
          },
        });
  const naming = { prefix: '', separator: options.separator ?? '__' };
  const policies = options.policies
    ? compilePolicies(options.policies, 'gateway.policies', { separator: naming.separator })
    : undefined;
  const virtual = options.virtualServers
    ? compileVirtualServers(options.virtualServers, 'gateway.virtualServers', { separator: naming.separator })
    : undefined;
  const pinOptions = options.pins === true ? {} : options.pins;
  let pins: PinStore | undefined;
  let tools = new ToolRegistry(naming);
  let prompts = new ToolRegistry(naming);
  let searchEntries = new Map<string, SearchEntry>();
  const access = new GatewayAccess({
    policies,
    pins: () => pins,
    pinning: pinOptions !== undefined,
    trustOnFirstUse: pinOptions?.trustOnFirstUse ?? true,
    limiter: options.rateLimit ? rateLimiterFor(options.rateLimit, options.state) : undefined,
    tool: (name) => tools.get(name),
    promptServer: (name) => prompts.get(name)?.server,
  });
  const visibility = access.visibility();
  const makeServer = (name: string, description?: string) =>
    new McpServer({
      name,
      version: options.version ?? VERSION,
      ...(description !== undefined ? { description } : {}),
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.logger !== undefined ? { logger: options.logger } : {}),
      ...(options.state !== undefined ? { state: options.state } : {}),
      ...(visibility ? { visibility } : {}),
    });
  const rootName = options.name ?? 'mcpwire-gateway';
  const server = makeServer(rootName);
  /** The root server (everything) and one per virtual server (its tool set), each with what it includes. */
  const surfaces: Surface[] = [{ server, includes: () => true }];
  const virtualServers = new Map<string, McpServer>();
  for (const name of virtual?.names() ?? []) {
    const entry = virtual!.get(name)!;
    const surface = makeServer(`${rootName}-${name}`, entry.description);
    virtualServers.set(name, surface);
    surfaces.push({ server: surface, includes: (target) => virtual!.includes(name, target) });
  }
  const searchMode = options.mode === 'search';
  const searchOffs = searchMode
    ? surfaces.map((surface) => registerSearchMode(surface.server, () => surface.filtered?.() ?? searchEntries))
    : [];
  for (const surface of surfaces.slice(1)) {
    let cache: { of: Map<string, SearchEntry>; kept: Map<string, SearchEntry> } | undefined;
    surface.filtered = () => {
      if (cache?.of !== searchEntries)
        cache = {
          of: searchEntries,
          kept: new Map(
            [...searchEntries].filter(([, e]) =>
              surface.includes({ server: e.server, tool: tools.get(e.name)?.tool, name: e.name }),
            ),
          ),
        };
      return cache.kept;
    };
  }
  const listTimeoutMs = options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
  const lifetime = new AbortController();
  const attached = new Map<string, Attached>();
  const held = new Map<string, Held>();
  let closing: Promise<void> | undefined;

  const perUser = options.tokenExchange
    ? new PerPrincipalUpstreams(options.tokenExchange, {
        spec: (name) => manager.getServer(name),
        clientOptions: {
          ...(options.manager instanceof McpManager ? {} : options.manager.client),
          handlers: router.handlers,
        },
      })
    : undefined;

  const via: ForwardingContext = {
    router,
    lease: (name, auth) => (perUser?.handles(name) ? perUser.lease(name, auth) : undefined),
    client: async (name) => {
      const client = manager.getConnection(name);
      if (client && !client.isClosed) return client;
      if (!manager.listServers().includes(name))
        throw new McpError('INVALID_ARGUMENT', `no server "${name}" is configured`, { server: name });
      return manager.connect(name);
    },
  };

  /** A forwarded tool's definition, its call first checked against the pins and the rate limit. */
  const guardedTool = (entry: { name: string; server: string; definition: Tool }) => {
    const forwarded = forwardedTool(via, entry.server, entry.name, entry.definition);
    const forward = forwarded.definition.handler;
    forwarded.definition.handler = (args, context) => {
      const refusal = access.refusal(entry.name, entry.definition);
      if (refusal !== undefined) throw new ToolError('TOOL_WITHHELD', refusal);
      const spent = access.spend(context.auth);
      return spent ? spent.then(() => forward(args, context)) : forward(args, context);
    };
    return forwarded;
  };

  /** Registers what the upstreams offer now on every surface that includes it, and withdraws the rest. */
  const sync = (): void => {
    if (lifetime.signal.aborted) return;
    const wanted = new Map<string, () => Disposer>();
    const toolRegistry = new ToolRegistry(naming);
    const promptRegistry = new ToolRegistry(naming);
    const want = (k: string, target: PolicyTarget, register: (on: McpServer) => Disposer) =>
      surfaces.forEach((surface, i) => {
        if (surface.includes(target)) wanted.set(`${i}\u0000${k}`, () => register(surface.server));
      });
    for (const [name, upstream] of attached) {
      const lists = upstream.lists;
      if (!lists) continue;
      toolRegistry.register(name, lists.tools);
      promptRegistry.register(
        name,
        lists.prompts.map((prompt) => ({ name: prompt.name, inputSchema: { type: 'object' } })),
      );
      const whole = { server: name };
      if (lists.resources.length > 0 || lists.templates.length > 0)
        want(key('catch-all', name, ''), whole, (on) => on.registerResourceTemplate(serverCatchAll(via, name)));
      for (const resource of lists.resources)
        want(key('resource', name, resource), whole, (on) =>
          on.registerResource(forwardedResource(via, name, resource)),
        );
      for (const template of lists.templates)
        want(key('template', name, template), whole, (on) =>
          on.registerResourceTemplate(forwardedTemplate(via, name, template)),
        );
    }
    const entries = new Map<string, SearchEntry>();
    for (const entry of toolRegistry.list()) {
      const target = { server: entry.server, tool: entry.tool, name: entry.name };
      if (searchMode) {
        const { definition } = guardedTool(entry);
        entries.set(entry.name, {
          name: entry.name,
          server: entry.server,
          wire: { ...entry.definition, name: entry.name },
          definition,
          reachable: (context) =>
            access.allows(context.auth, entry.name, entry) &&
            access.refusal(entry.name, entry.definition) === undefined,
          refusal: () => access.refusal(entry.name, entry.definition),
        });
        continue;
      }
      want(key('tool', entry.name, entry.definition, entry.server), target, (on) => {
        const { definition, ui } = guardedTool(entry);
        return ui ? on.registerAppTool({ ...definition, ui }) : on.registerTool(definition);
      });
    }
    for (const entry of promptRegistry.list()) {
      const prompt = attached.get(entry.server)?.lists?.prompts.find((p) => p.name === entry.tool);
      if (prompt)
        want(key('prompt', entry.name, prompt, entry.server), { server: entry.server }, (on) =>
          on.registerPrompt(forwardedPrompt(via, entry.server, entry.name, prompt)),
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
    prompts = promptRegistry;
    if (searchMode) searchEntries = entries;
    void observePins();
  };

  /** Records the tools in the pin store; a verdict that changed what is served tells the clients. */
  const observePins = async (): Promise<void> => {
    if (!pins) return;
    const before = JSON.stringify(tools.list().map((e) => access.refusal(e.name, e.definition) ?? ''));
    try {
      await pins.observe(
        tools.list().map((e) => ({ name: e.name, server: e.server, tool: e.tool, definition: e.definition })),
        { trustOnFirstUse: pinOptions?.trustOnFirstUse ?? true, signal: lifetime.signal },
      );
    } catch (error) {
      if (lifetime.signal.aborted) return;
      server.logger({ level: 'error', msg: 'the pins could not be written', error: String(error) });
      return;
    }
    pinsChanged(before);
  };
  const pinsChanged = (before?: string): void => {
    const after = JSON.stringify(tools.list().map((e) => access.refusal(e.name, e.definition) ?? ''));
    if (before === after) return;
    for (const surface of surfaces) surface.server.notifyListChanged('tools');
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
      upstream.updates.follow(lists.resources);
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
      const updates = new ResourceUpdates(
        client,
        name,
        (uri) => {
          for (const surface of surfaces)
            if (surface.includes({ server: name })) surface.server.notifyResourceUpdated(uri);
        },
        server.logger,
      );
      const upstream: Attached = {
        client,
        off: [],
        lists: undefined,
        updates,
        generation: 0,
        firstRead: Promise.resolve(),
      };
      upstream.off.push(
        () => updates.dispose(),
        client.on('toolsChanged', () => void refresh(name, ['tools'])),
        client.on('promptsChanged', () => void refresh(name, ['prompts'])),
        client.on('resourcesChanged', () => void refresh(name, ['resources', 'templates'])),
        client.on('log', (params) => {
          const call = router.soleCall(name);
          call?.log(params.level, params.data, params.logger ?? name);
        }),
      );
      attached.set(name, upstream);
      upstream.firstRead = refresh(name, ALL_LISTS);
    }
    if (detached) sync();
    // Every attached upstream's first read, including one a status event started before this call.
    return Promise.all([...attached.values()].map((upstream) => upstream.firstRead)).then(() => undefined);
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
    if (pinOptions) {
      pins = await PinStore.open(pinOptions.file);
      offManager.push(
        pins.watch(
          () => {
            pinsChanged();
          },
          (error) => server.logger({ level: 'error', msg: 'the pins file could not be read', error: String(error) }),
        ),
      );
    }
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
    virtualServers,
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
        for (const off of searchOffs) off();
        await Promise.all(surfaces.map((surface) => surface.server.close()));
        await perUser?.close();
        if (owned) await manager.close();
        await ready.catch(() => undefined);
      })()),
  };
}

/** A registration's identity: its kind, its exposed name and what it was made from. */
function key(kind: string, name: string, source: unknown, server = ''): string {
  return `${kind}\u0000${server}\u0000${name}\u0000${typeof source === 'string' ? source : JSON.stringify(source)}`;
}
