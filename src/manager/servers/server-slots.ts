/**
 * The manager's supervised servers: one {@link ServerSlot} per configured server, by name in
 * configuration order (a `Map`), each wired to what the manager keeps beside it (the catalogue,
 * the events, the approval step, the login hooks), and what is asked of all of them at once:
 * connect every auto-connecting one, log in to one, the live clients, a list gathered from each.
 */
import type { McpClient } from '../../client/mcp-client.js';
import type { ClientOptions } from '../../client/options.js';
import { McpError } from '../../protocol/errors.js';
import type { Emitter } from '../../util/emitter.js';
import { scrubSecrets } from '../../util/redact.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import { catalogueToolsOf, refreshServerTools } from '../catalogue/server-tools.js';
import { unknownServerError } from '../catalogue/unknown-names.js';
import type { DebugLogger } from '../debug-log.js';
import { loginCommand } from '../login-hint.js';
import type { ManagerEvents, ManagerOptions } from '../manager-types.js';
import type { ApprovalStep } from '../permissions/approval-step.js';
import type { ManagedServer } from './managed-server.js';
import { ServerSlot } from './server-slot.js';

/** What the slots are wired to: the manager's parts beside them. */
export interface SlotWiring {
  clientOptions: ClientOptions;
  catalogue: Catalogue;
  events: Emitter<ManagerEvents>;
  approval: ApprovalStep;
  log: DebugLogger | undefined;
  loginOptions: Pick<ManagerOptions, 'onAuthorizationUrl' | 'tokenStore'>;
  /** The config errors of entries left out, by server name (why a server is not there). */
  leftOut: () => ReadonlyMap<string, McpError>;
}

/** What {@link ServerSlots.connectEach} reports. */
export interface ConnectAllResult {
  connected: string[];
  failed: Array<{ server: string; error: McpError }>;
}

const SEPARATOR = '__';

export class ServerSlots extends Map<string, ServerSlot> {
  constructor(private readonly wiring: SlotWiring) {
    super();
  }

  /**
   * Adds a slot for `server` (replacing any of that name without disconnecting it: the caller's
   * job). Throws `CONFIG_INVALID` for a name holding `__`, which separates namespaced tool names.
   */
  add(server: ManagedServer): void {
    if (server.name.includes(SEPARATOR))
      throw new McpError(
        'CONFIG_INVALID',
        `server name must not contain "${SEPARATOR}" (it separates namespaced tool names)`,
        { server: server.name },
      );
    const { catalogue, events, loginOptions } = this.wiring;
    this.set(
      server.name,
      new ServerSlot(server, {
        clientOptions: this.wiring.clientOptions,
        refusal: (spec) => this.wiring.approval.refusal(spec),
        changed: (change) => {
          if (change.status !== 'connected') catalogue.drop(change.server);
          events.emit('status', change);
        },
        listTools: catalogueToolsOf,
        publishTools: (name, tools) => catalogue.publish(name, tools),
        toolsChanged: (name) => refreshServerTools(this.get(name), (tools) => catalogue.publish(name, tools)),
        diagnostic: (name, diagnostic) => events.emit('diagnostic', { server: name, diagnostic }),
        log: this.wiring.log,
        loginHooks: (interactive) => ({
          ...(interactive && loginOptions.onAuthorizationUrl
            ? { onAuthorizationUrl: loginOptions.onAuthorizationUrl }
            : {}),
          ...(loginOptions.tokenStore ? { store: loginOptions.tokenStore } : {}),
        }),
        needsAuth: (name, error) => {
          const secrets = this.get(name)?.secrets ?? [];
          events.emit('needsAuth', {
            server: name,
            command: loginCommand(name),
            reason: scrubSecrets(error.message, secrets),
          });
        },
      }),
    );
  }

  /**
   * The slot of `name`; throws `INVALID_ARGUMENT` naming the configured servers (and the nearest)
   * if none, or the config error that left its entry out.
   */
  require(name: string): ServerSlot {
    const slot = this.get(name);
    if (!slot) throw unknownServerError(name, [...this.keys()], undefined, this.wiring.leftOut());
    return slot;
  }

  /**
   * Logs in to `name` and connects it (see `McpManager.login`). Throws `INVALID_ARGUMENT` for an
   * unknown name; an `AUTH_REQUIRED` that no login page could answer says where to log in instead.
   */
  async login(name: string, signal: AbortSignal | undefined): Promise<McpClient> {
    const slot = this.require(name);
    try {
      return await slot.login(signal);
    } catch (error) {
      if (
        this.wiring.loginOptions.onAuthorizationUrl ||
        slot.spec.headersHelper ||
        !(error instanceof McpError) ||
        error.code !== 'AUTH_REQUIRED'
      )
        throw error;
      throw new McpError(
        'AUTH_REQUIRED',
        `no login page can be shown here (the host gave no onAuthorizationUrl): run mcpwire auth login ${name} in a shell, then /mcp connect ${name}`,
        { server: name, cause: error },
      );
    }
  }

  /** Connects every enabled server with `autoConnect` (default true), in parallel. Never rejects. */
  async connectEach(): Promise<ConnectAllResult> {
    const chosen = [...this.values()].filter((slot) => slot.spec.enabled !== false && slot.spec.autoConnect !== false);
    const outcomes = await Promise.allSettled(chosen.map((slot) => slot.connect()));
    const result: ConnectAllResult = { connected: [], failed: [] };
    outcomes.forEach((outcome, i) => {
      const server = chosen[i]!.spec.name;
      if (outcome.status === 'fulfilled') result.connected.push(server);
      else
        result.failed.push({
          server,
          error:
            outcome.reason instanceof McpError
              ? outcome.reason
              : new McpError('TRANSPORT', String(outcome.reason), { server }),
        });
    });
    return result;
  }

  /** The client of every server connected now, in configuration order. */
  clients(): McpClient[] {
    return [...this.values()].flatMap((slot) => slot.connectedClient() ?? []);
  }

  /** What `read` lists of each connected server, concatenated; a server whose read fails adds nothing. */
  async gather<T>(read: (client: McpClient, server: string) => Promise<T[]>): Promise<T[]> {
    const connected = [...this.values()].flatMap((slot) => {
      const client = slot.connectedClient();
      return client ? [{ client, server: slot.spec.name }] : [];
    });
    const lists = await Promise.allSettled(connected.map(({ client, server }) => read(client, server)));
    return lists.flatMap((list) => (list.status === 'fulfilled' ? list.value : []));
  }
}
