/**
 * A connected server's tools as the catalogue holds them: its list, after its `includeTools` /
 * `excludeTools` globs, read when it connects and again when it announces `list_changed`.
 */
import type { McpClient } from '../../client/mcp-client.js';
import type { Tool } from '../../protocol/types.js';
import { toolAllowed, type ManagedServer } from '../servers/managed-server.js';
import type { ServerSlot } from '../servers/server-slot.js';

/**
 * The tools of `client` the catalogue holds for `spec` (none without the tools capability); rejects when listing fails.
 */
export async function catalogueToolsOf(spec: ManagedServer, client: McpClient): Promise<Tool[]> {
  const tools = client.capabilities.tools ? await client.listTools({ refresh: true }) : [];
  return tools.filter((tool) => toolAllowed(spec, tool.name));
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
  const client = slot?.client;
  if (!slot || !client || slot.status !== 'connected') return;
  let tools: Tool[];
  try {
    tools = await catalogueToolsOf(slot.spec, client);
  } catch {
    return;
  }
  if (slot.client !== client || slot.status !== 'connected') return;
  publish(tools);
}
