/**
 * What a `ServerSlot` needs from its manager: the client options, the approval step, where its
 * status changes, tools, diagnostics and debug lines go, and the login hooks of a connect.
 */
import type { McpClient } from '../../client/mcp-client.js';
import type { ClientOptions } from '../../client/options.js';
import type { McpError } from '../../protocol/errors.js';
import type { TransportDiagnostic } from '../../protocol/transport.js';
import type { Tool } from '../../protocol/types.js';
import type { DebugLogger } from '../debug-log.js';
import type { ManagedServer } from './managed-server.js';
import type { LoginHooks } from './server-oauth.js';
import type { StatusChange } from './slot-state.js';

/** What a slot needs from its manager. */
export interface SlotHooks {
  clientOptions: ClientOptions;
  /**
   * Resolves undefined when this server may start (project servers), else with why not (the
   * text after `was not approved to start (defined in FILE)`); rejects to refuse with a reason.
   */
  refusal(spec: ManagedServer): Promise<string | undefined>;
  changed(change: StatusChange): void;
  /** The tools of a client that just connected, as the catalogue should hold them; rejects when it cannot list them. */
  listTools(spec: ManagedServer, client: McpClient): Promise<Tool[]>;
  /** Puts `tools` in the catalogue as the server's whole tool set (synchronous). */
  publishTools(server: string, tools: Tool[]): void;
  /** The connected client's tool list may have changed (list_changed); never rejects. */
  toolsChanged(server: string): Promise<void>;
  /** A non-fatal problem the client noticed (junk on stdout, …), from its first byte on. */
  diagnostic(server: string, diagnostic: TransportDiagnostic): void;
  /** Debug lines (connection attempts and outcomes); undefined when logging is off. */
  log: DebugLogger | undefined;
  /**
   * The OAuth hooks of a connect: `interactive` for a login the user asked for (with the host's
   * browser hook), otherwise only what needs no person (the store).
   */
  loginHooks(interactive: boolean): LoginHooks;
  /** The server went to `needs-auth` (after the `status` change); `error` is scrubbed of its secrets. */
  needsAuth(server: string, error: McpError): void;
}
