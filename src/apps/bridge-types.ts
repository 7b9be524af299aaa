/**
 * The `ui/*` bridge shapes between a host and its view (ext-apps spec 2026-01-26, npm 2.0.4
 * additions): the method names, the host context, the view's messages to its host, and the audit
 * record. The MCP-side shapes (a tool's and a resource's `_meta.ui`) are in
 * `protocol/extensions/apps-types.ts`.
 */
import type { ContentBlock, Implementation, Tool } from '../protocol/types.js';
import type { UiCsp, UiPermissions } from '../protocol/extensions/apps-types.js';

/** The bridge revisions this host speaks, newest first. */
export const UI_PROTOCOL_VERSIONS = ['2026-01-26', '2025-11-21'] as const;

/** Bridge method names. */
export const UI_METHODS = {
  initialize: 'ui/initialize',
  initialized: 'ui/notifications/initialized',
  proxyReady: 'ui/notifications/sandbox-proxy-ready',
  resourceReady: 'ui/notifications/sandbox-resource-ready',
  toolInput: 'ui/notifications/tool-input',
  toolInputPartial: 'ui/notifications/tool-input-partial',
  toolResult: 'ui/notifications/tool-result',
  toolCancelled: 'ui/notifications/tool-cancelled',
  hostContextChanged: 'ui/notifications/host-context-changed',
  sizeChanged: 'ui/notifications/size-changed',
  requestTeardown: 'ui/notifications/request-teardown',
  resourceTeardown: 'ui/resource-teardown',
  openLink: 'ui/open-link',
  message: 'ui/message',
  updateModelContext: 'ui/update-model-context',
  requestDisplayMode: 'ui/request-display-mode',
  downloadFile: 'ui/download-file',
} as const;

/** The prefix of the messages between the host and the proxy only (never relayed to the view). */
export const SANDBOX_METHOD_PREFIX = 'ui/notifications/sandbox-';

/** How a view is shown. */
export type UiDisplayMode = 'inline' | 'fullscreen' | 'pip';

/** What the host tells a view about where it is shown (all optional; `host-context-changed` sends a part). */
export interface UiHostContext {
  toolInfo?: { id?: string | number; tool: Tool };
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: UiDisplayMode;
  availableDisplayModes?: UiDisplayMode[];
  containerDimensions?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  [key: string]: unknown;
}

/** A view's `ui/message`: a message it asks the host to add to the conversation. */
export interface UiMessage {
  role: 'user';
  content: ContentBlock[];
}

/** A view's `ui/update-model-context`: the context it wants the model to see (the last write wins). */
export interface UiModelContext {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
}

/** The sandbox the proxy builds for the view: its CSP (as declared, sanitized) and permissions. */
export interface UiSandbox {
  csp: UiCsp | undefined;
  permissions: UiPermissions | undefined;
}

/**
 * One audit record: every message a view sent (`view-request`, `view-notification`, with the
 * verdict), and the policy applied when a view was created (`csp`).
 */
export type AppAuditEvent =
  | {
      kind: 'view-request' | 'view-notification';
      /** The tool whose view sent it. */
      tool: string;
      method: string;
      params: unknown;
      /** `allowed`, or why the host refused it (a request's JSON-RPC error message). */
      outcome: 'allowed' | { refused: string };
    }
  | {
      kind: 'csp';
      tool: string;
      resourceUri: string;
      policy: string;
      csp: UiCsp | undefined;
      permissions: UiPermissions | undefined;
    };

/** The host's identity in `ui/initialize`'s answer, unless the caller names one. */
export const DEFAULT_HOST_INFO: Implementation = { name: 'mcpwire-apps', version: '1' };
