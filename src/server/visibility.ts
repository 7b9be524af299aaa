/**
 * Who is shown what: `McpServerOptions.visibility` decides, per request, which tools, prompts
 * and resources a client sees (a gateway's policies per principal; MCP Apps' app-only tools are
 * decided beside it, by `apps/app-only-tools.ts`). An item a request is not shown is unknown to
 * it everywhere: left out of its lists, and its call, get, read or completion answered as for a
 * name or URI the server does not have. The functions run for every list entry and lookup, so
 * they are plain and synchronous; a throw counts as "not shown" (and is logged by nobody: keep
 * them total).
 */
import type { ClientCapabilities, Prompt, Tool } from '../protocol/types.js';
import { toolsVisibleTo } from './apps/app-only-tools.js';
import type { AuthInfo } from './auth-info.js';
import type { VisibilityRequest } from './visibility-types.js';

export type { VisibilityOptions, VisibilityRequest } from './visibility-types.js';
import type { ServerCore } from './router/server-core.js';

/** The filter of the tools `request` sees; undefined when it sees every tool. */
export function visibleTools(
  core: ServerCore,
  capabilities: ClientCapabilities | undefined,
  auth: AuthInfo | undefined,
  purpose: VisibilityRequest['purpose'] = 'list',
): ((tool: Tool) => boolean) | undefined {
  const apps = toolsVisibleTo(core.apps, capabilities);
  const decide = core.visibility?.tool;
  if (!decide) return apps;
  const request: VisibilityRequest = { auth, clientCapabilities: capabilities ?? {}, purpose };
  return (tool) => (apps ? apps(tool) : true) && shown(() => decide(tool, request));
}

/** Whether `request` sees `tool`. */
export function toolShown(
  core: ServerCore,
  capabilities: ClientCapabilities | undefined,
  auth: AuthInfo | undefined,
  tool: Tool,
): boolean {
  return visibleTools(core, capabilities, auth, 'use')?.(tool) ?? true;
}

/** The filter of the prompts a request sees; undefined when it sees every one. */
export function visiblePrompts(
  core: ServerCore,
  capabilities: ClientCapabilities | undefined,
  auth: AuthInfo | undefined,
  purpose: VisibilityRequest['purpose'] = 'list',
): ((prompt: Prompt) => boolean) | undefined {
  const decide = core.visibility?.prompt;
  if (!decide) return undefined;
  const request: VisibilityRequest = { auth, clientCapabilities: capabilities ?? {}, purpose };
  return (prompt) => shown(() => decide(prompt, request));
}

/** The filter of the resource URIs and templates a request sees; undefined when it sees every one. */
export function visibleResources(
  core: ServerCore,
  capabilities: ClientCapabilities | undefined,
  auth: AuthInfo | undefined,
  purpose: VisibilityRequest['purpose'] = 'list',
): ((uri: string) => boolean) | undefined {
  const decide = core.visibility?.resource;
  if (!decide) return undefined;
  const request: VisibilityRequest = { auth, clientCapabilities: capabilities ?? {}, purpose };
  return (uri) => shown(() => decide(uri, request));
}

function shown(decide: () => boolean): boolean {
  try {
    return decide() === true;
  } catch {
    return false;
  }
}
