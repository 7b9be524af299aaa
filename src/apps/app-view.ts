/**
 * One view's lifecycle, from its proxy frame to its teardown. The order is the bridge's:
 * the proxy says `sandbox-proxy-ready` → the host sends `sandbox-resource-ready {html, csp,
 * permissions}` (to the proxy, never relayed) → the view asks `ui/initialize` and is answered →
 * the view says `ui/notifications/initialized`. Until that last message the host sends the view
 * nothing but the `ui/initialize` answer: the tool input, the result and context changes wait in
 * the send queue, flushed in order once the view is initialized (tool input first, always).
 * Every message the view sends is audited with its verdict.
 */
import { McpError } from '../protocol/errors.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { UiPermissions, UiCsp } from '../protocol/extensions/apps-types.js';
import type { CallToolResult, Tool } from '../protocol/types.js';
import {
  DEFAULT_HOST_INFO,
  UI_METHODS,
  UI_PROTOCOL_VERSIONS,
  type UiDisplayMode,
  type UiHostContext,
  type UiModelContext,
} from './bridge-types.js';
import type { AppFrame, HostWindow } from './dom-shapes.js';
import type { AppHostOptions, AppView } from './app-host-options.js';
import { hostCapabilities, mergeHostContext, offersMode } from './host-context.js';
import { ViewChannel } from './view-channel.js';
import { VIEW_NOTIFICATIONS, VIEW_REQUESTS, ViewRefusal, type ViewRequestContext } from './view-requests.js';

/** What a view is made from. */
export interface AppViewParts {
  options: AppHostOptions;
  tool: Tool;
  html: string;
  csp: UiCsp | undefined;
  permissions: UiPermissions | undefined;
  hostContext: UiHostContext;
  window: HostWindow;
  frame: AppFrame;
  sandboxOrigin: string;
  timeoutMs: number;
  /** Called once the view is gone (torn down or failed). */
  onGone(view: LiveAppView): void;
}

type Phase = 'loading' | 'initializing' | 'initialized' | 'gone';

export class LiveAppView implements AppView {
  readonly frame: AppFrame;
  readonly result: Promise<CallToolResult>;
  readonly #parts: AppViewParts;
  readonly #channel: ViewChannel;
  readonly #lifetime = new AbortController();
  readonly #queue: Array<{ method: string; params: Record<string, unknown> }> = [];
  #resolveResult!: (result: CallToolResult) => void;
  #phase: Phase = 'loading';
  #context: UiHostContext;
  #modelContext: UiModelContext | undefined;
  #tools: Promise<Tool[]> | undefined;
  #resourceSent = false;
  #delivered = false;
  #tearingDown: Promise<void> | undefined;
  #ready!: { resolve(): void; reject(error: Error): void };
  /** Resolves once the view is initialized; rejects when it does not get there within the timeout. */
  readonly ready: Promise<void>;

  constructor(parts: AppViewParts, args: Record<string, unknown>) {
    this.#parts = parts;
    this.frame = parts.frame;
    this.#context = parts.hostContext;
    this.result = new Promise((resolve) => (this.#resolveResult = resolve));
    this.ready = new Promise<void>((resolve, reject) => (this.#ready = { resolve, reject }));
    this.ready.catch(() => undefined);
    const timer = setTimeout(
      () =>
        this.#fail(
          new McpError('TIMEOUT', `the view of ${parts.tool.name} was not ready within ${parts.timeoutMs} ms`),
        ),
      parts.timeoutMs,
    );
    void this.ready.then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
    this.#channel = new ViewChannel(parts.window, parts.frame, parts.sandboxOrigin, {
      onRequest: (request) => void this.#onRequest(request),
      onNotification: (notification) => this.#onNotification(notification),
      onFrame: (dir, message) => parts.options.onBridgeFrame?.({ tool: parts.tool.name, dir, message }),
    });
    this.#send(UI_METHODS.toolInput, { arguments: args });
  }

  get modelContext(): UiModelContext | undefined {
    return this.#modelContext;
  }

  /** The view's lifetime (aborted when it is gone): its own requests' calls end with it. */
  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  /** Hands the view the tool's result (after its input). Once. */
  deliverResult(result: CallToolResult): void {
    if (this.#delivered) return;
    this.#delivered = true;
    this.#resolveResult(result);
    this.#send(UI_METHODS.toolResult, result);
  }

  /** Tells the view the call was cancelled (the result resolves as an `isError` result). Once. */
  deliverCancelled(reason: string): void {
    if (this.#delivered) return;
    this.#delivered = true;
    this.#resolveResult({ isError: true, content: [{ type: 'text', text: `cancelled: ${reason}` }] });
    this.#send(UI_METHODS.toolCancelled, { reason });
  }

  /** A part of the host context changed: the view hears it (once initialized; before, the answer carries it). */
  changeHostContext(patch: Partial<UiHostContext>): void {
    this.#context = mergeHostContext(this.#context, patch);
    if (this.#phase === 'initialized') this.#channel.notify(UI_METHODS.hostContextChanged, patch);
  }

  teardown(reason = 'the host closed the view'): Promise<void> {
    return (this.#tearingDown ??= (async () => {
      // A call still running is cancelled first: the view hears why before it is asked to close.
      this.deliverCancelled(reason);
      if (this.#phase === 'initialized') {
        try {
          await this.#channel.request(UI_METHODS.resourceTeardown, {}, this.#parts.timeoutMs);
        } catch {
          // An unanswered teardown does not keep the view: the frame goes either way.
        }
      }
      this.#gone(new McpError('CANCELLED', `the view was torn down: ${reason}`));
    })());
  }

  #gone(error: Error): void {
    if (this.#phase === 'gone') return;
    this.#phase = 'gone';
    this.#ready.reject(error);
    this.#lifetime.abort(error);
    this.#channel.close();
    this.frame.remove();
    this.#parts.onGone(this);
  }

  #fail(error: Error): void {
    if (this.#phase === 'initialized' || this.#phase === 'gone') return;
    this.deliverCancelled(error.message);
    this.#gone(error);
  }

  /** Host-initiated traffic: sent now when the view is initialized, else queued. */
  #send(method: string, params: Record<string, unknown>): void {
    if (this.#phase === 'gone') return;
    if (this.#phase !== 'initialized') {
      this.#queue.push({ method, params });
      return;
    }
    this.#channel.notify(method, params);
  }

  #flush(): void {
    for (const { method, params } of this.#queue.splice(0)) {
      this.#channel.notify(method, params);
    }
  }

  #audit(kind: 'view-request' | 'view-notification', method: string, params: unknown, refused?: string): void {
    this.#parts.options.audit?.({
      kind,
      tool: this.#parts.tool.name,
      method,
      params,
      outcome: refused === undefined ? 'allowed' : { refused },
    });
  }

  #onNotification(notification: JsonRpcNotification): void {
    const params = (notification.params ?? {}) as Record<string, unknown>;
    const method = notification.method;
    if (method === UI_METHODS.proxyReady) {
      // The proxy's, not the view's: answered once with the resource.
      if (this.#resourceSent) return;
      this.#resourceSent = true;
      this.#channel.notify(UI_METHODS.resourceReady, {
        html: this.#parts.html,
        ...(this.#parts.csp ? { csp: this.#parts.csp } : {}),
        ...(this.#parts.permissions ? { permissions: this.#parts.permissions } : {}),
      });
      return;
    }
    if (method === UI_METHODS.initialized) {
      if (this.#phase !== 'initializing') return this.#audit('view-notification', method, params, 'not expected now');
      this.#audit('view-notification', method, params);
      this.#phase = 'initialized';
      this.#flush();
      this.#ready.resolve();
      return;
    }
    const handler = VIEW_NOTIFICATIONS[method];
    if (!handler || this.#phase !== 'initialized')
      return this.#audit('view-notification', method, params, handler ? 'the view is not initialized' : 'unknown');
    this.#audit('view-notification', method, params);
    handler(this.#requestContext(), params);
  }

  async #onRequest(request: JsonRpcRequest): Promise<void> {
    const params = Array.isArray(request.params) ? {} : (request.params ?? {});
    const method = request.method;
    try {
      let result: Record<string, unknown>;
      if (method === UI_METHODS.initialize) result = this.#initialize(params);
      else {
        const handler = VIEW_REQUESTS[method];
        if (!handler) throw new ViewRefusal(`method ${method} is not served by this host`, -32601);
        if (this.#phase !== 'initialized') throw new ViewRefusal('the view is not initialized');
        result = await handler(this.#requestContext(), params);
      }
      this.#audit('view-request', method, params);
      this.#channel.respond(request.id, result);
    } catch (error) {
      const refusal = error instanceof ViewRefusal ? error : new ViewRefusal(String(error), -32603);
      this.#audit('view-request', method, params, refusal.message);
      this.#channel.respondError(request.id, refusal.rpcCode, refusal.message);
    }
  }

  #initialize(params: Record<string, unknown>): Record<string, unknown> {
    if (this.#phase !== 'loading') throw new ViewRefusal('ui/initialize was already answered');
    this.#phase = 'initializing';
    const asked = params.protocolVersion;
    const protocolVersion = (UI_PROTOCOL_VERSIONS as readonly unknown[]).includes(asked)
      ? (asked as string)
      : UI_PROTOCOL_VERSIONS[0];
    return {
      protocolVersion,
      hostInfo: this.#parts.options.hostInfo ?? DEFAULT_HOST_INFO,
      hostCapabilities: hostCapabilities(this.#parts.options, {
        csp: this.#parts.csp,
        permissions: this.#parts.permissions,
      }),
      hostContext: this.#context,
    };
  }

  #requestContext(): ViewRequestContext {
    return {
      options: this.#parts.options,
      tool: this.#parts.tool,
      signal: this.#lifetime.signal,
      serverTools: () => {
        const listed = (this.#tools ??= this.#parts.options.client.listTools({ signal: this.#lifetime.signal }));
        listed.catch(() => (this.#tools = undefined)); // a failed listing is asked again next time
        return listed;
      },
      resize: ({ height }) => {
        if (height !== undefined) this.frame.style.height = `${height}px`;
      },
      setModelContext: (context) => (this.#modelContext = context),
      displayMode: () => this.#context.displayMode ?? 'inline',
      setDisplayMode: (mode: UiDisplayMode) => this.changeHostContext({ displayMode: mode }),
      offersMode: (mode: unknown): mode is UiDisplayMode => offersMode(this.#context, mode),
      requestTeardown: () => void this.teardown('the view asked to close'),
    };
  }
}
