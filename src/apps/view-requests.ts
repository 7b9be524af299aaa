/**
 * What the host does with each message a view sends once it is initialized: the view→host
 * request table and the notification table. MCP requests go to the view's own server only:
 * `tools/call` of a tool the server lists as app-callable (`_meta.ui.visibility` includes `app`;
 * anything else, unknown tools included, is refused with -32000), after `approveToolCall`;
 * `resources/read`; `ping`. The `ui/*` requests go to the host's hooks; a request with no hook,
 * or an unknown method, is refused. The view's code is untrusted: params are checked here, and a
 * refusal never says more than why.
 */
import { isAppCallable } from '../protocol/extensions/apps-types.js';
import { isMcpError } from '../protocol/errors.js';
import type { CallToolResult, Tool } from '../protocol/types.js';
import type { AppHostOptions } from './app-host-options.js';
import { UI_METHODS, type UiDisplayMode, type UiModelContext } from './bridge-types.js';

/** The JSON-RPC code of a request the host refuses (apps.mdx). */
export const VIEW_REFUSED = -32000;

/** A request the host will not serve: its JSON-RPC code and message go back to the view. */
export class ViewRefusal extends Error {
  readonly rpcCode: number;
  constructor(message: string, rpcCode = VIEW_REFUSED) {
    super(message);
    this.name = 'ViewRefusal';
    this.rpcCode = rpcCode;
  }
}

/** What a handler may reach: the host's options and the one view that asked. */
export interface ViewRequestContext {
  readonly options: AppHostOptions;
  /** The tool this view shows. */
  readonly tool: Tool;
  /** The view's lifetime: aborted at teardown. */
  readonly signal: AbortSignal;
  /** The server's tools (listed once per view; the verdict on a call is from this list). */
  serverTools(): Promise<Tool[]>;
  resize(size: { width?: number; height?: number }): void;
  setModelContext(context: UiModelContext): void;
  displayMode(): UiDisplayMode;
  setDisplayMode(mode: UiDisplayMode): void;
  offersMode(mode: unknown): mode is UiDisplayMode;
  requestTeardown(): void;
}

type Params = Record<string, unknown>;
type RequestHandler = (context: ViewRequestContext, params: Params) => Promise<Record<string, unknown>>;
type NotificationHandler = (context: ViewRequestContext, params: Params) => void;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A server's JSON-RPC error goes back as it was; anything else is an internal error. */
function relayed(error: unknown): ViewRefusal {
  if (isMcpError(error) && typeof error.rpcCode === 'number') return new ViewRefusal(error.message, error.rpcCode);
  return new ViewRefusal(error instanceof Error ? error.message : String(error), -32603);
}

async function callTool(context: ViewRequestContext, params: Params): Promise<Record<string, unknown>> {
  const name = params.name;
  if (typeof name !== 'string') throw new ViewRefusal('tools/call needs a tool name', -32602);
  const args = params.arguments === undefined ? {} : params.arguments;
  if (!isObject(args)) throw new ViewRefusal('tools/call arguments must be an object', -32602);
  const tool = (await context.serverTools()).find((t) => t.name === name);
  if (!tool || !isAppCallable(tool)) throw new ViewRefusal(`tool ${name} is not callable by an app`);
  const approve = context.options.approveToolCall;
  if (approve && !(await approve(name, args))) throw new ViewRefusal(`the host declined the call of ${name}`);
  let result: CallToolResult;
  try {
    result = await context.options.client.callTool(name, args, { signal: context.signal });
  } catch (error) {
    throw relayed(error);
  }
  return result;
}

async function readResource(context: ViewRequestContext, params: Params): Promise<Record<string, unknown>> {
  if (typeof params.uri !== 'string') throw new ViewRefusal('resources/read needs a uri', -32602);
  try {
    return await context.options.client.readResource(params.uri, { signal: context.signal });
  } catch (error) {
    throw relayed(error);
  }
}

async function openLink(context: ViewRequestContext, params: Params): Promise<Record<string, unknown>> {
  const hook = context.options.onOpenLink;
  if (!hook) throw new ViewRefusal('this host opens no links');
  const url = typeof params.url === 'string' ? params.url : '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ViewRefusal('ui/open-link needs an absolute URL', -32602);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new ViewRefusal(`links of scheme ${parsed.protocol} are not opened`);
  const opened = await hook(parsed.href);
  return opened ? {} : { isError: true };
}

async function message(context: ViewRequestContext, params: Params): Promise<Record<string, unknown>> {
  const hook = context.options.onMessage;
  if (!hook) throw new ViewRefusal('this host takes no messages from views');
  if (params.role !== 'user' || !Array.isArray(params.content))
    throw new ViewRefusal('ui/message needs role "user" and a content array', -32602);
  await hook({ role: 'user', content: params.content as never });
  return {};
}

async function updateModelContext(context: ViewRequestContext, params: Params): Promise<Record<string, unknown>> {
  if (!context.options.onModelContext) throw new ViewRefusal('this host keeps no model context for views');
  const update: UiModelContext = {};
  if (Array.isArray(params.content)) update.content = params.content as never;
  if (isObject(params.structuredContent)) update.structuredContent = params.structuredContent;
  context.setModelContext(update);
  context.options.onModelContext(update);
  return {};
}

async function requestDisplayMode(context: ViewRequestContext, params: Params): Promise<Record<string, unknown>> {
  const mode = params.mode;
  if (context.offersMode(mode) && context.options.onDisplayMode) {
    const granted = context.options.onDisplayMode(mode);
    if (context.offersMode(granted)) context.setDisplayMode(granted);
  }
  return { mode: context.displayMode() };
}

/** The view→host requests the host serves (once the view is initialized). */
export const VIEW_REQUESTS: Readonly<Record<string, RequestHandler>> = {
  'tools/call': callTool,
  'resources/read': readResource,
  ping: () => Promise.resolve({}),
  [UI_METHODS.openLink]: openLink,
  [UI_METHODS.message]: message,
  [UI_METHODS.updateModelContext]: updateModelContext,
  [UI_METHODS.requestDisplayMode]: requestDisplayMode,
};

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.ceil(value) : undefined;
}

/** The view→host notifications the host acts on; any other is audited and dropped. */
export const VIEW_NOTIFICATIONS: Readonly<Record<string, NotificationHandler>> = {
  [UI_METHODS.sizeChanged]: (context, params) => {
    const size: { width?: number; height?: number } = {};
    const width = dimension(params.width);
    const height = dimension(params.height);
    if (width !== undefined) size.width = width;
    if (height !== undefined) size.height = height;
    context.resize(size);
    context.options.onSizeChanged?.(size);
  },
  'notifications/message': (context, params) => context.options.onLog?.(params),
  [UI_METHODS.requestTeardown]: (context) => context.requestTeardown(),
};
