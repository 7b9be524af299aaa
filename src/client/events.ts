/**
 * The events of an `McpClient`. Every `on()` registration returns a disposer.
 */
import type { CloseInfo, TransportDiagnostic } from '../protocol/transport.js';
import type { LoggingMessageParams, ProgressParams, ResourceUpdatedParams } from '../protocol/types.js';

/** Events of a client; `on()` returns a disposer. */
export interface ClientEvents {
  /** The server's tool list changed (caches already dropped). */
  toolsChanged: () => void;
  /** The server's resource or template list changed. */
  resourcesChanged: () => void;
  /** The server's prompt list changed. */
  promptsChanged: () => void;
  /** A subscribed resource changed. */
  resourceUpdated: (params: ResourceUpdatedParams) => void;
  /** A log message from the server. */
  log: (params: LoggingMessageParams) => void;
  /** Any progress notification (per-call callbacks get their own). */
  progress: (params: ProgressParams) => void;
  /** A line the stdio server wrote to stderr. */
  stderr: (line: string) => void;
  /** The connection closed; `error` says why when it was not the client's doing. */
  close: (info: CloseInfo) => void;
  /** Something non-fatal: junk on stdout, a late response, a listen stream that restarted. */
  diagnostic: (diagnostic: TransportDiagnostic) => void;
  /** 2025-11-25 URL-mode elicitation finished out of band. */
  elicitationComplete: (params: { elicitationId: string }) => void;
}
