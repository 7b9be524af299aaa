/**
 * `mcpwire/apps`: a web host of MCP Apps (runtime-neutral browser code). `AppHost` renders a
 * tool's view in a sandbox proxy served by `sandboxProxyHtml()` with `sandboxProxyHeaders()` on an
 * origin of its own; `buildAppCsp` is the one policy builder both sides use.
 */
export { AppHost, type RenderCall } from './app-host.js';
export type { AppHostOptions, AppServerClient, AppView } from './app-host-options.js';
export { buildAppCsp, DEFAULT_APP_CSP, sanitizeCsp } from './app-csp.js';
export { sandboxProxyHeaders, sandboxProxyHtml, type SandboxProxyOptions } from './sandbox-proxy-page.js';
export {
  UI_METHODS,
  UI_PROTOCOL_VERSIONS,
  type AppAuditEvent,
  type UiDisplayMode,
  type UiHostContext,
  type UiMessage,
  type UiModelContext,
} from './bridge-types.js';
export type { AppContainer, AppFrame, HostWindow, MessageEventShape, PostTarget } from './dom-shapes.js';
export { VIEW_REFUSED } from './view-requests.js';
