/**
 * What an {@link AppHost} is given: the MCP client of the view's server (structural: mcpwire's
 * `McpClient` satisfies it, so does any relay with these four members), where to mount views, the
 * sandbox proxy's address, and the hooks that decide what a view's requests do. A hook left out
 * refuses its request and leaves its capability undeclared.
 */
import type { CallToolResult, Implementation, ReadResourceResult, Tool } from '../protocol/types.js';
import type { AppAuditEvent, UiDisplayMode, UiHostContext, UiMessage, UiModelContext } from './bridge-types.js';
import type { AppContainer, AppFrame } from './dom-shapes.js';

/** The MCP side a host needs: one server connection (views may reach only this one). */
export interface AppServerClient {
  readonly name: string;
  listTools(options?: { signal?: AbortSignal }): Promise<Tool[]>;
  callTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  readResource(uri: string, options?: { signal?: AbortSignal }): Promise<ReadResourceResult>;
}

export interface AppHostOptions {
  client: AppServerClient;
  /** The element views are appended to (an `HTMLElement`). */
  container: AppContainer;
  /**
   * The sandbox proxy page (`sandboxProxyHtml()` served with `sandboxProxyHeaders()`), on an origin
   * other than the host page's.
   */
  sandboxUrl: string | URL;
  /** The host named in `ui/initialize`'s answer. */
  hostInfo?: Implementation;
  /** Over the defaults (inline, web, the runtime's locale and time zone). */
  hostContext?: Partial<UiHostContext>;
  /** `ui/open-link`: true when the link was opened. Absent: refused, and no `openLinks` capability. */
  onOpenLink?: (url: string) => boolean | Promise<boolean>;
  /** `ui/message`: a message the view adds to the conversation. Absent: refused. */
  onMessage?: (message: UiMessage) => void | Promise<void>;
  /** `ui/update-model-context` (the last one wins; also on {@link AppView.modelContext}). Absent: refused. */
  onModelContext?: (context: UiModelContext) => void;
  /** `ui/request-display-mode`: the mode in force after the request. Absent: the mode stays as it is. */
  onDisplayMode?: (mode: UiDisplayMode) => UiDisplayMode;
  /** `ui/notifications/size-changed`, after the frame was resized. */
  onSizeChanged?: (size: { width?: number; height?: number }) => void;
  /** A view's `notifications/message` (a log line). */
  onLog?: (params: Record<string, unknown>) => void;
  /** A view's `tools/call` of an app-callable tool of its server: false refuses it (-32000). */
  approveToolCall?: (name: string, args: unknown) => boolean | Promise<boolean>;
  /**
   * Every bridge message as it crossed, for a trace: `out` posted to the view's proxy, `in` heard
   * from it (after the source and origin checks). Called after the message is sent or received.
   */
  onBridgeFrame?: (frame: { tool: string; dir: 'out' | 'in'; message: unknown }) => void;
  /** Every message a view sent, with the verdict, and the policy of every view created. */
  audit?: (event: AppAuditEvent) => void;
  /** The largest view HTML accepted, in UTF-8 bytes (default 5 MiB). */
  maxHtmlBytes?: number;
  /** How long the proxy and the view may take to get ready, and a teardown to be answered (default 10 s). */
  timeoutMs?: number;
}

/** One rendered view. */
export interface AppView {
  /** The proxy iframe (an `HTMLIFrameElement`). */
  readonly frame: AppFrame;
  /** The tool call's result (as the view got it: an error is an `isError` result). */
  readonly result: Promise<CallToolResult>;
  /** The last context the view asked the model to see. */
  readonly modelContext: UiModelContext | undefined;
  /** Sends `ui/resource-teardown`, waits for the answer (bounded by `timeoutMs`), removes the frame. Idempotent. */
  teardown(reason?: string): Promise<void>;
}

export const DEFAULT_MAX_HTML_BYTES = 5 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;
