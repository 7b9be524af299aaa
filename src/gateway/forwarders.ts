/**
 * The kit registrations that stand for one upstream's tools, prompts, resources and templates:
 * each handler forwards to the upstream's current client (or, for a server reached as the calling
 * user, that user's own: `ForwardingContext.lease`) with the downstream request's signal
 * (a cancel downstream cancels upstream), its progress (upstream progress reaches the caller)
 * and the call marked in flight for the input router. Answers come back with their resource
 * URIs rewritten; a failure upstream becomes an error the model can read, naming the server.
 */
import type { McpClient } from '../client/mcp-client.js';
import { McpError } from '../protocol/errors.js';
import { UI_SCHEME } from '../protocol/extensions/apps-types.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../protocol/types.js';
import type { PromptDefinition } from '../server/prompt-set.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../server/resource-set.js';
import { ResourceNotFoundError } from '../server/resource-not-found.js';
import type { CompleteHandler, RequestContext, ToolDefinition, ToolResult } from '../server/server-types.js';
import { ToolError } from '../server/tools/tool-error.js';
import { InputRequiredSignal } from '../server/input/input-round.js';
import type { AppToolUi } from '../server/apps/app-tool.js';
import type { AuthInfo } from '../server/auth-info.js';
import type { UpstreamLease } from './credentials/per-principal-upstreams.js';
import { auditPrincipal, publishForward } from './forward-channel.js';
import type { InputRouter } from './input-router.js';
import { gatewayUri, serverUriPrefixes, upstreamUri } from './resource-uris.js';
import { rewriteBlocks, rewriteContents, rewriteToolMeta } from './rewrite-uris.js';
import { callUpstreamTool, isTaskCapable } from './upstream-task.js';

/** What a forwarder needs of the gateway. */
export interface ForwardingContext {
  /** The server's client now, connecting it when it is not; rejects when it cannot be reached. */
  client(server: string): Promise<McpClient>;
  /**
   * The client a call of the caller with `auth` uses on `server`, held until `release()`, when
   * that server is not reached through the shared client (token exchange: the caller's own
   * connection); undefined means the shared one.
   */
  lease?(server: string, auth: AuthInfo | undefined): Promise<UpstreamLease> | undefined;
  router: InputRouter;
}

/** The client for a call of the caller behind `context` on `server` (see `ForwardingContext.lease`). */
async function leaseFor(via: ForwardingContext, server: string, context: RequestContext): Promise<UpstreamLease> {
  return (await via.lease?.(server, context.auth)) ?? { client: await via.client(server), release: () => {} };
}

/** A tool registration for `tool` of `server`, exposed as `name`; `ui` when it has an MCP Apps view. */
export function forwardedTool(
  via: ForwardingContext,
  server: string,
  name: string,
  tool: Tool,
): { definition: ToolDefinition; ui?: AppToolUi } {
  const definition: ToolDefinition = {
    name,
    inputSchema: tool.inputSchema,
    checkSchemas: false,
    handler: (args, context) =>
      forward(via, server, { method: 'tools/call', target: tool.name }, context, async (client, signal) => {
        const result = await callUpstreamTool(client, tool, args, context, signal);
        const out: ToolResult = { content: rewriteBlocks(server, result.content ?? []) };
        if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
        if (result.isError) out.isError = true;
        if (result._meta !== undefined) out._meta = result._meta;
        return out;
      }),
  };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  // A task-capable tool stays one. The gateway runs such a call as a task of its own (the kit's
  // task runtime: its ids, `tasks/get`, `tasks/update`, `tasks/cancel`), which awaits the upstream
  // call and follows the upstream's task when there is one (`upstream-task.ts`); see docs/gateway.md.
  if (isTaskCapable(tool)) definition.taskSupport = tool.execution!.taskSupport!;
  const meta = rewriteToolMeta(server, tool._meta);
  if (meta !== undefined) definition._meta = meta;
  const ui = meta?.ui as { resourceUri?: unknown; visibility?: unknown } | undefined;
  if (typeof ui?.resourceUri === 'string' && ui.resourceUri.startsWith(`${UI_SCHEME}//`)) {
    const appUi: AppToolUi = { resourceUri: ui.resourceUri as AppToolUi['resourceUri'] };
    if (Array.isArray(ui.visibility)) appUi.visibility = ui.visibility as AppToolUi['visibility'];
    return { definition, ui: appUi };
  }
  return { definition };
}

/** A prompt registration for `prompt` of `server`, exposed as `name`, with completion of each argument. */
export function forwardedPrompt(
  via: ForwardingContext,
  server: string,
  name: string,
  prompt: Prompt,
): PromptDefinition {
  const definition: PromptDefinition = {
    name,
    get: (args, context) =>
      forward(via, server, { method: 'prompts/get', target: prompt.name }, context, async (client, signal) => {
        const result = await client.getPrompt(prompt.name, args, { signal });
        return {
          ...(result.description !== undefined ? { description: result.description } : {}),
          messages: result.messages.map((message) => ({
            ...message,
            content: rewriteBlocks(server, [message.content])[0]!,
          })),
        };
      }),
  };
  if (prompt.title !== undefined) (definition as { title?: string }).title = prompt.title;
  if (prompt.description !== undefined) definition.description = prompt.description;
  if (prompt.arguments !== undefined) definition.arguments = prompt.arguments;
  if (prompt._meta !== undefined) definition._meta = prompt._meta;
  const complete: Record<string, CompleteHandler> = {};
  for (const argument of prompt.arguments ?? [])
    complete[argument.name] = completer(via, server, { type: 'ref/prompt', name: prompt.name }, argument.name);
  definition.complete = complete;
  return definition;
}

/** A listed resource of `server` under its gateway URI. */
export function forwardedResource(via: ForwardingContext, server: string, resource: Resource): ResourceDefinition {
  const { uri, ...rest } = resource;
  return { ...rest, uri: gatewayUri(server, uri), read: (_uri, context) => readUpstream(via, server, uri, context) };
}

/**
 * A listed template of `server` under its gateway form, with completion of its variables; it
 * matches nothing itself (the server's catch-all reads every URI of the server).
 */
export function forwardedTemplate(
  via: ForwardingContext,
  server: string,
  template: ResourceTemplate,
): ResourceTemplateDefinition {
  const { uriTemplate, ...rest } = template;
  const complete: Record<string, CompleteHandler> = {};
  for (const variable of templateVariables(uriTemplate))
    complete[variable] = completer(via, server, { type: 'ref/resource', uri: uriTemplate }, variable);
  return {
    ...rest,
    uriTemplate: gatewayUri(server, uriTemplate),
    match: () => undefined,
    read: () => [],
    complete,
  };
}

/** The unlisted template that reads any gateway URI of `server` (listed resources, links, templates, views). */
export function serverCatchAll(via: ForwardingContext, server: string): ResourceTemplateDefinition {
  const prefixes = serverUriPrefixes(server);
  return {
    uriTemplate: `${prefixes[1]}{+uri}`,
    name: `${server} (any resource)`,
    listed: false,
    match: (uri) => {
      if (!prefixes.some((prefix) => uri.startsWith(prefix))) return undefined;
      const upstream = upstreamUri(uri);
      return upstream?.server === server ? { uri: upstream.uri } : undefined;
    },
    read: (_uri, variables, context) => readUpstream(via, server, variables.uri!, context),
  };
}

/** The variable names of an RFC 6570 template (`{a}`, `{+a}`, `{?a,b*}`, `{/a:3}`). */
export function templateVariables(uriTemplate: string): string[] {
  const names: string[] = [];
  for (const [, body] of uriTemplate.matchAll(/\{([^}]*)\}/g)) {
    for (const spec of body!.replace(/^[+#./;?&=,!@|]/, '').split(','))
      names.push(spec.replace(/(\*|:\d+)$/, '').trim());
  }
  return [...new Set(names.filter((name) => name !== ''))];
}

function completer(
  via: ForwardingContext,
  server: string,
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  argument: string,
): CompleteHandler {
  return async (value, { arguments: given }) => {
    const client = await via.client(server);
    if (!client.capabilities.completions) return [];
    const completion = await client.complete(ref, { name: argument, value }, { context: { arguments: given } });
    return completion.values;
  };
}

async function readUpstream(via: ForwardingContext, server: string, uri: string, context: RequestContext) {
  const { client, release } = await leaseFor(via, server, context);
  try {
    const facts = () => ({ server, method: 'resources/read', target: uri, principal: auditPrincipal(context) });
    const result = await publishForward(facts, () => client.readResource(uri, { signal: context.signal }));
    return result.contents.map((contents) => rewriteContents(server, contents));
  } catch (error) {
    // Not found upstream is not found here (the kit answers with the gateway's URI).
    if (error instanceof McpError && (error.rpcCode === -32002 || error.rpcCode === -32602))
      throw new ResourceNotFoundError(uri);
    throw error;
  } finally {
    release();
  }
}

/**
 * Runs `work` on the server's client with the call marked in flight (`signal` is the upstream
 * call's) and published as `upstream` of `server` (`forward-channel.ts`); an upstream failure
 * becomes a `ToolError`, and a 2026 round that must ask first ends with the kit's signal for it
 * (`input-router.ts`).
 */
async function forward<T>(
  via: ForwardingContext,
  server: string,
  upstream: { method: string; target: string },
  context: RequestContext,
  work: (client: McpClient, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const call = via.router.enter(server, context);
  let release = () => {};
  try {
    const facts = () => ({ server, ...upstream, principal: auditPrincipal(context) });
    const result = await publishForward(facts, async () => {
      const lease = await leaseFor(via, server, context);
      release = lease.release;
      return work(lease.client, call.signal);
    });
    if (call.inputRequired) throw call.inputRequired;
    return result;
  } catch (error) {
    if (call.inputRequired) throw call.inputRequired;
    // A question of an upstream task the caller's round cannot answer yet: the kit ends the round.
    if (error instanceof InputRequiredSignal) throw error;
    if (error instanceof ToolError || context.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError('UPSTREAM_ERROR', `The server "${server}" failed: ${message}`, { cause: error });
  } finally {
    release();
    call.done();
  }
}
