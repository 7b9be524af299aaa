/**
 * Which tools a client sees. An app-only tool (`_meta.ui.visibility` without `model`) is meant
 * for a view to call; a text-only host would hand it to its model, since nothing in its
 * `tools/list` marks it otherwise. So, by default, a client that did not declare the ui
 * extension with `text/html;profile=mcp-app` among its `mimeTypes` (legacy: at `initialize`;
 * 2026: on the request) is not shown such tools, and its `tools/call` of one is -32602 as for an
 * unknown tool. `McpServerOptions.apps.hideAppOnlyFromTextClients: false` shows them to all.
 * (The spec leaves this to hosts; hiding at the server is mcpwire's choice.)
 */
import { McpError } from '../../protocol/errors.js';
import { acceptsAppHtml, isModelVisible, type UiClientCapability } from '../../protocol/extensions/apps-types.js';
import { EXTENSION_IDS, extensionSettings } from '../../protocol/extensions/ids.js';
import type { ClientCapabilities, Tool } from '../../protocol/types.js';

/** `McpServerOptions.apps`. */
export interface AppsOptions {
  /** Keep app-only tools from clients that cannot show apps (default true). */
  hideAppOnlyFromTextClients?: boolean;
}

/** The server's resolved apps policy. */
export interface AppsPolicy {
  readonly hideAppOnlyFromTextClients: boolean;
}

/** The policy of `options`; `INVALID_ARGUMENT` for an unknown key or a non-boolean value. */
export function appsPolicy(options: AppsOptions | undefined): AppsPolicy {
  if (options === undefined) return { hideAppOnlyFromTextClients: true };
  if (options === null || typeof options !== 'object')
    throw new McpError('INVALID_ARGUMENT', 'McpServer option "apps" must be an object');
  for (const key of Object.keys(options))
    if (key !== 'hideAppOnlyFromTextClients')
      throw new McpError('INVALID_ARGUMENT', `unknown McpServer option "apps.${key}"`);
  const hide = options.hideAppOnlyFromTextClients ?? true;
  if (typeof hide !== 'boolean')
    throw new McpError('INVALID_ARGUMENT', 'McpServer option "apps.hideAppOnlyFromTextClients" must be a boolean');
  return { hideAppOnlyFromTextClients: hide };
}

/** The ui settings a client declared, or `undefined`. */
export function clientUi(capabilities: ClientCapabilities | undefined): UiClientCapability | undefined {
  return extensionSettings(capabilities, EXTENSION_IDS.ui);
}

/** Which tools a client with `capabilities` sees; `undefined` when it sees every tool. */
export function toolsVisibleTo(
  policy: AppsPolicy,
  capabilities: ClientCapabilities | undefined,
): ((tool: Tool) => boolean) | undefined {
  if (!policy.hideAppOnlyFromTextClients || acceptsAppHtml(clientUi(capabilities))) return undefined;
  return isModelVisible;
}

/** Whether a client with `capabilities` sees `tool`. */
export function toolVisibleTo(policy: AppsPolicy, capabilities: ClientCapabilities | undefined, tool: Tool): boolean {
  return toolsVisibleTo(policy, capabilities)?.(tool) ?? true;
}
