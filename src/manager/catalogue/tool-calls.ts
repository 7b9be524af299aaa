/**
 * A call of a catalogue tool, as `McpManager.callTool` and `execute` make it: the name resolved
 * to its server, the permission rules asked, the server's own tool timeout applied, a debug line
 * before and after, and every error scrubbed of the server's secrets. `execute` adds the
 * result's text for a model.
 */
import type { CallOptions } from '../../client/options.js';
import { McpError } from '../../protocol/errors.js';
import { scrubSecrets } from '../../util/redact.js';
import type { CallToolResult } from '../../protocol/types.js';
import { resultToText } from '../../llm/result-text.js';
import type { Catalogue } from './catalogue.js';
import { logCall, type DebugLogger } from '../debug-log.js';
import { redactError } from '../error-redaction.js';
import type { ExecuteResult } from '../manager-types.js';
import type { PermissionGate } from '../permissions/permission-gate.js';
import type { ServerSlot } from '../servers/server-slot.js';
import { slotOfName, unavailableToolError } from './unavailable-tool.js';
import { unknownToolError } from './unknown-names.js';

/** What a call needs of the manager. */
export interface CallContext {
  readonly catalogue: Catalogue;
  readonly slots: ReadonlyMap<string, ServerSlot>;
  readonly gate: PermissionGate;
  readonly log: DebugLogger | undefined;
  /** The config errors of entries left out, by server name. */
  readonly leftOut: () => ReadonlyMap<string, McpError>;
}

/** Calls the catalogue tool `name`; rejects as `McpManager.callTool` documents. */
export async function callCatalogueTool(
  ctx: CallContext,
  name: string,
  args: Record<string, unknown> | undefined,
  options: CallOptions,
): Promise<CallToolResult> {
  const entry = ctx.catalogue.entryOf(name);
  if (!entry) throw notCallable(ctx, name);
  const slot = ctx.slots.get(entry.server);
  const secrets = slot?.secrets ?? [];
  try {
    await ctx.gate.authorize(entry, args, options.signal);
    const client = slot?.connectedClient();
    if (!slot || !client) throw slot ? unavailableToolError(name, slot) : notCallable(ctx, name);
    const timeout = slot.spec.toolTimeoutMs;
    const call = client.callTool(
      entry.tool,
      args,
      timeout !== undefined && options.timeoutMs === undefined ? { ...options, timeoutMs: timeout } : options,
    );
    return await (ctx.log
      ? logCall(ctx.log, call, { name, server: entry.server, tool: entry.tool, args, secrets })
      : call);
  } catch (error) {
    // A server may echo its credential back (`bad token Bearer sk-…`): never hand that on.
    const shown = redactError(error, secrets);
    // The server wants a login it cannot get by itself: the slot waits in needs-auth.
    if (shown instanceof McpError && shown.code === 'AUTH_REQUIRED') slot?.authLost(shown);
    throw shown;
  }
}

/**
 * {@link callCatalogueTool}, plus the result's text for a model (cut at `maxResultChars`), with
 * the server's secrets shown as `***`: a server that echoes its token in a result (`token sk-…
 * was refused`) must not get it into a prompt. `result`, `content` and `structuredContent` stay
 * what the server sent.
 */
export async function executeCatalogueTool(
  ctx: CallContext,
  name: string,
  args: Record<string, unknown> | undefined,
  options: CallOptions,
  maxResultChars: number | undefined,
): Promise<ExecuteResult> {
  const entry = ctx.catalogue.entryOf(name);
  const result = await callCatalogueTool(ctx, name, args, options);
  const source = `tool "${entry!.tool}" (server "${entry!.server}")`;
  const text = resultToText(result, maxResultChars !== undefined ? { maxChars: maxResultChars, source } : { source });
  const secrets = ctx.slots.get(entry!.server)?.secrets ?? [];
  return {
    name,
    server: entry!.server,
    tool: entry!.tool,
    result,
    content: result.content,
    structuredContent: result.structuredContent,
    isError: result.isError === true,
    text: scrubSecrets(text.text, secrets),
    truncated: text.truncated,
  };
}

/** Why `name` cannot be called: its server's state, an unknown server, or "tool not found" with the nearest tools. */
function notCallable(ctx: CallContext, name: string): McpError {
  const slot = slotOfName(name, ctx.slots, ctx.catalogue.lastOwnerOf(name));
  if (slot && slot.snapshot().status !== 'connected') return unavailableToolError(name, slot);
  return unknownToolError(name, ctx.gate.visible(ctx.catalogue.list()), [...ctx.slots.keys()], ctx.leftOut());
}
