/**
 * A web host of MCP Apps (`io.modelcontextprotocol/ui`, spec 2026-01-26): `render()` shows the
 * view of one tool call of one server in a double iframe — a sandbox proxy on its own origin, the
 * view inside it under a Content-Security-Policy built from the domains the resource declares —
 * and runs the bridge between the view, the host's hooks and the server. The tool is called in
 * parallel with the view's loading; the view gets the input and then the result only once it
 * has said `ui/notifications/initialized`.
 */
import { McpError, isMcpError } from '../protocol/errors.js';
import {
  UI_MIME_TYPE,
  toolUiMeta,
  type UiPermissions,
  type UiResourceMeta,
} from '../protocol/extensions/apps-types.js';
import type { CallToolResult, ReadResourceResult, Tool } from '../protocol/types.js';
import { bytesFromBase64 } from '../util/base64url.js';
import { buildAppCsp, sanitizeCsp } from './app-csp.js';
import { DEFAULT_MAX_HTML_BYTES, DEFAULT_TIMEOUT_MS, type AppHostOptions, type AppView } from './app-host-options.js';
import { LiveAppView } from './app-view.js';
import type { UiHostContext } from './bridge-types.js';
import type { AppFrame, HostWindow } from './dom-shapes.js';
import { defaultHostContext, mergeHostContext, viewHostContext } from './host-context.js';
import { proxyFrameUrl } from './sandbox-proxy-page.js';

/** One call to show: the tool (by name, or as listed) and its arguments. */
export interface RenderCall {
  tool: string | Tool;
  arguments?: Record<string, unknown>;
  /** Aborts the tool call (the view hears `tool-cancelled`); before the view is ready, the render too. */
  signal?: AbortSignal;
}

const PERMISSION_FEATURES: Record<keyof UiPermissions, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The permissions a resource asks for that this host knows, each as `{}`. */
function sanitizePermissions(value: unknown): UiPermissions | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: UiPermissions = {};
  for (const key of Object.keys(PERMISSION_FEATURES) as Array<keyof UiPermissions>) {
    const asked = (value as Record<string, unknown>)[key];
    if (asked !== null && typeof asked === 'object') out[key] = {};
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The `allow` attribute (Permissions Policy) of a view's frames. */
function allowAttribute(permissions: UiPermissions | undefined): string {
  if (!permissions) return '';
  return (Object.keys(permissions) as Array<keyof UiPermissions>).map((key) => PERMISSION_FEATURES[key]).join('; ');
}

/** Whether `mimeType` is the MCP App profile (case and spaces around `;` aside). */
function isAppMimeType(mimeType: string | undefined): boolean {
  return mimeType !== undefined && mimeType.toLowerCase().replace(/\s*;\s*/g, ';') === UI_MIME_TYPE;
}

/** The view's HTML of a `resources/read` result, checked (profile, size). */
function viewHtml(read: ReadResourceResult, uri: string, maxBytes: number): { html: string; meta: UiResourceMeta } {
  const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
  if (!content) throw new McpError('PROTOCOL', `resources/read of ${uri} returned no contents`);
  if (!isAppMimeType(content.mimeType))
    throw new McpError('PROTOCOL', `${uri} is ${content.mimeType ?? 'untyped'}, not ${UI_MIME_TYPE}`);
  let html: string;
  let bytes: number;
  if ('text' in content && typeof content.text === 'string') {
    html = content.text;
    bytes = new TextEncoder().encode(html).length;
  } else if ('blob' in content && typeof content.blob === 'string') {
    // The size bound holds before decoding too: base64 is 4/3 of the bytes.
    if (content.blob.length > Math.ceil(maxBytes / 3) * 4 + 4)
      throw new McpError('PROTOCOL', `the view ${uri} is over ${maxBytes} bytes`);
    const decoded = bytesFromBase64(content.blob);
    if (!decoded) throw new McpError('PROTOCOL', `the view ${uri} is not valid base64`);
    html = new TextDecoder().decode(decoded);
    bytes = decoded.length;
  } else throw new McpError('PROTOCOL', `the view ${uri} has neither text nor blob`);
  if (bytes > maxBytes) throw new McpError('PROTOCOL', `the view ${uri} is ${bytes} bytes, over ${maxBytes}`);
  const ui = content._meta?.ui;
  const meta = ui !== null && typeof ui === 'object' && !Array.isArray(ui) ? (ui as UiResourceMeta) : {};
  return { html, meta };
}

let callCounter = 0;

export class AppHost {
  readonly #options: AppHostOptions;
  readonly #views = new Set<LiveAppView>();
  readonly #window: HostWindow;
  readonly #sandboxOrigin: string;
  #context: UiHostContext;
  #closed = false;

  constructor(options: AppHostOptions) {
    this.#options = options;
    const view = options.container.ownerDocument.defaultView as
      (HostWindow & { location?: { origin?: string } }) | null;
    if (!view) throw new McpError('INVALID_ARGUMENT', 'the container is in no window');
    this.#window = view;
    this.#sandboxOrigin = new URL(String(options.sandboxUrl)).origin;
    if (this.#sandboxOrigin === 'null') throw new McpError('INVALID_ARGUMENT', 'the sandbox URL has no origin');
    if (view.location?.origin === this.#sandboxOrigin)
      throw new McpError('INVALID_ARGUMENT', 'the sandbox proxy must be on an origin other than the host page');
    this.#context = mergeHostContext(defaultHostContext(), options.hostContext ?? {});
  }

  /**
   * Shows the view of one tool call: finds the tool's `ui://` resource (either spelling of its
   * `_meta`), reads it (the MCP App profile, at most `maxHtmlBytes`), mounts the proxy frame with
   * the declared policy, and calls the tool in parallel. Resolves once the view is initialized.
   * Rejects (`INVALID_ARGUMENT`) for a tool without a view, (`PROTOCOL`) for a resource that is
   * no app, (`TIMEOUT`) when the view is not ready within `timeoutMs`, (`CANCELLED`) when
   * `signal` aborts before then.
   */
  async render(call: RenderCall): Promise<AppView> {
    if (this.#closed) throw new McpError('INVALID_STATE', 'the app host is closed');
    const { client } = this.#options;
    const signal = call.signal;
    signal?.throwIfAborted();
    const tool =
      typeof call.tool === 'string'
        ? (await client.listTools({ signal })).find((t) => t.name === call.tool)
        : call.tool;
    if (!tool) throw new McpError('INVALID_ARGUMENT', `server ${client.name} has no tool ${String(call.tool)}`);
    const uri = toolUiMeta(tool)?.resourceUri;
    if (typeof uri !== 'string' || !uri.startsWith('ui://'))
      throw new McpError('INVALID_ARGUMENT', `tool ${tool.name} has no ui:// resource`);
    const read = await client.readResource(uri, { signal });
    const { html, meta } = viewHtml(read, uri, this.#options.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES);
    const csp = sanitizeCsp(meta.csp);
    const permissions = sanitizePermissions(meta.permissions);
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

    const frame = this.#options.container.ownerDocument.createElement('iframe') as AppFrame;
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    const allow = allowAttribute(permissions);
    if (allow) frame.setAttribute('allow', allow);
    frame.setAttribute('title', `${tool.title ?? tool.name} (MCP App)`);
    frame.style.border = '0';
    frame.style.width = '100%';
    const args = call.arguments ?? {};
    const callId = `call-${++callCounter}`;
    const view = new LiveAppView(
      {
        options: this.#options,
        tool,
        html,
        csp,
        permissions,
        hostContext: viewHostContext(this.#context, tool, callId),
        window: this.#window,
        frame,
        sandboxOrigin: this.#sandboxOrigin,
        timeoutMs,
        onGone: (gone) => this.#views.delete(gone),
      },
      args,
    );
    this.#views.add(view);
    this.#options.audit?.({
      kind: 'csp',
      tool: tool.name,
      resourceUri: uri,
      policy: buildAppCsp(csp),
      csp,
      permissions,
    });
    frame.src = proxyFrameUrl(this.#options.sandboxUrl, csp);
    (this.#options.container.appendChild as (node: unknown) => unknown)(frame);

    this.#callTool(view, tool.name, args, signal);
    const aborted = () => void view.teardown('the render was aborted');
    signal?.addEventListener('abort', aborted, { once: true });
    try {
      await view.ready;
    } catch (error) {
      throw signal?.aborted ? new McpError('CANCELLED', 'the render was aborted', { cause: error }) : error;
    } finally {
      signal?.removeEventListener('abort', aborted);
    }
    return view;
  }

  /** Calls the tool for the view: its result, an `isError` result for a failure, `tool-cancelled` for an abort. */
  #callTool(view: LiveAppView, name: string, args: Record<string, unknown>, signal: AbortSignal | undefined): void {
    const both = signal ? AbortSignal.any([signal, view.signal]) : view.signal;
    this.#options.client.callTool(name, args, { signal: both }).then(
      (result: CallToolResult) => view.deliverResult(result),
      (error: unknown) => {
        if (both.aborted || isMcpError(error, 'CANCELLED'))
          view.deliverCancelled(error instanceof Error ? error.message : 'cancelled');
        else
          view.deliverResult({
            isError: true,
            content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
          });
      },
    );
  }

  /** Changes the host context: every live view hears the changed part (`host-context-changed`). */
  setHostContext(patch: Partial<UiHostContext>): void {
    this.#context = mergeHostContext(this.#context, patch);
    for (const view of this.#views) view.changeHostContext(patch);
  }

  /** Tears every view down (each answered or timed out) and refuses further renders. Idempotent. */
  async close(reason = 'the host closed'): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#views].map((view) => view.teardown(reason)));
  }
}
