/**
 * `McpServer.registerAppTool`: a tool with an MCP App view (SEP-1865). Its `_meta` carries the
 * view in both spellings hosts read (`_meta.ui` and the deprecated flat `_meta["ui/resourceUri"]`,
 * as ext-apps' `registerAppTool` writes them), and its results always carry text `content`: the
 * spec's §Server Behavior says a tool MUST return meaningful content for hosts without the UI.
 */
import { McpError } from '../../protocol/errors.js';
import {
  LEGACY_UI_RESOURCE_URI_KEY,
  UI_SCHEME,
  type UiToolMeta,
  type UiToolVisibility,
} from '../../protocol/extensions/apps-types.js';
import type { ToolDefinition, ToolHandler, ToolResult } from '../server-types.js';

/** The view of an app tool, written as the tool's `_meta.ui`. */
export interface AppToolUi {
  /** The `ui://` resource (registered with `registerAppResource`) the host renders for this tool. */
  resourceUri: `ui://${string}`;
  /**
   * Who may call the tool (default both): `model` puts it in the agent's tool list, `app` lets the
   * view of this server call it. A tool without `model` is app-only: see `McpServerOptions.apps`.
   */
  visibility?: UiToolVisibility[];
}

/** A tool with a view, for `McpServer.registerAppTool`. */
export type AppToolDefinition<Args = Record<string, unknown>, Structured = unknown> = ToolDefinition<
  Args,
  Structured
> & { ui: AppToolUi };

/**
 * The plain tool definition of `definition`: `_meta.ui` (merged over any `_meta.ui` given) and
 * the flat key set, the handler wrapped so that a result with empty `content` and
 * `structuredContent` gets one text block of its JSON. Throws `INVALID_ARGUMENT` for a
 * `resourceUri` that is not `ui://…` or a visibility that is not a list of `model` / `app`.
 */
export function appToolDefinition(definition: AppToolDefinition): ToolDefinition {
  const { ui, ...tool } = definition;
  const name = String(tool.name);
  if (ui === null || typeof ui !== 'object')
    throw new McpError('INVALID_ARGUMENT', `app tool "${name}" needs ui: { resourceUri: "ui://…" }`);
  const { resourceUri, visibility } = ui;
  if (typeof resourceUri !== 'string' || !resourceUri.startsWith(`${UI_SCHEME}//`))
    throw new McpError('INVALID_ARGUMENT', `app tool "${name}": ui.resourceUri must be a ui:// URI`);
  if (visibility !== undefined && (!Array.isArray(visibility) || visibility.some((v) => v !== 'model' && v !== 'app')))
    throw new McpError('INVALID_ARGUMENT', `app tool "${name}": ui.visibility must list "model" and/or "app"`);
  const given = tool._meta?.ui;
  const uiMeta: UiToolMeta = {
    ...(given !== null && typeof given === 'object' && !Array.isArray(given) ? (given as UiToolMeta) : {}),
    resourceUri,
    ...(visibility !== undefined ? { visibility: [...visibility] } : {}),
  };
  return {
    ...tool,
    _meta: { ...tool._meta, ui: uiMeta, [LEGACY_UI_RESOURCE_URI_KEY]: resourceUri },
    handler: withTextFallback(tool.handler),
  };
}

/** `handler`, its results given a text block of their `structuredContent` when `content` is empty. */
function withTextFallback(handler: ToolHandler): ToolHandler {
  return async (args, context) => {
    const result: ToolResult = await handler(args, context);
    if (
      result !== null &&
      typeof result === 'object' &&
      Array.isArray(result.content) &&
      result.content.length === 0 &&
      result.structuredContent !== undefined
    )
      return { ...result, content: [{ type: 'text', text: JSON.stringify(result.structuredContent) }] };
    return result;
  };
}
