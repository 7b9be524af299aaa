/**
 * A connected server's tools as the catalogue holds them: its list, without the tools only its
 * MCP Apps may call, after its `includeTools` / `excludeTools` globs, read when it connects and
 * again when it announces `list_changed`.
 */
import type { McpClient } from '../../client/mcp-client.js';
import { isModelVisible } from '../../protocol/extensions/apps-types.js';
import type { Tool } from '../../protocol/types.js';
import { toolAllowed, type ManagedServer } from '../servers/managed-server.js';
import type { ServerSlot } from '../servers/server-slot.js';

/**
 * The tools of `tools` a model may be offered: those whose `_meta.ui.visibility` names `model`
 * (a tool that says nothing is visible). An app-only tool (`visibility: ['app']`) is for the
 * views of its own server (MCP Apps, SEP-1865): the spec says a host MUST NOT put it in the
 * agent's tool list, so it is never in the catalogue, whose names are what `execute` accepts.
 */
export function modelVisibleTools(tools: readonly Tool[]): Tool[] {
  return tools.filter((tool) => isModelVisible(tool));
}

/**
 * The tools of `client` the catalogue holds for `spec` (none without the tools capability):
 * the model-visible ones ({@link modelVisibleTools}) its globs allow. Rejects when listing fails.
 * The client itself still lists and calls the app-only ones (`client.listTools()`).
 */
export async function catalogueToolsOf(spec: ManagedServer, client: McpClient): Promise<Tool[]> {
  const tools = client.capabilities.tools ? await client.listTools({ refresh: true }) : [];
  return modelVisibleTools(tools).filter((tool) => toolAllowed(spec, tool.name));
}

/**
 * Lists the tools of `slot`'s connected client again and hands them to `publish`, unless the
 * slot is not connected or its client changed meanwhile. Never rejects: a failed list leaves the
 * catalogue as it was (the slot's status reports a broken connection).
 */
export async function refreshServerTools(
  slot: ServerSlot | undefined,
  publish: (tools: Tool[]) => void,
): Promise<void> {
  const client = slot?.connectedClient();
  if (!slot || !client) return;
  let tools: Tool[];
  try {
    tools = await catalogueToolsOf(slot.spec, client);
  } catch {
    return;
  }
  if (slot.connectedClient() !== client) return;
  publish(tools);
}
