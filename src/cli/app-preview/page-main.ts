/**
 * The script of `mcpwire app`'s host page (browser code, bundled by the build into one inline
 * script; imports nothing from `node:*`). It reads the page's settings, renders the tool's view
 * with `AppHost` on a relay client (the CLI's own client answers through `POST /rpc`), shows in
 * the page's log what the view does, and posts every bridge frame to `POST /ui-trace` so the
 * command's trace holds the `ui` lane. Links the view asks to open open in a new tab; messages and
 * model context are shown, not sent anywhere (there is no model in a preview).
 */
import { AppHost } from '../../apps/app-host.js';
import type { AppServerClient } from '../../apps/app-host-options.js';
import { McpError } from '../../protocol/errors.js';
import type { CallToolResult, ReadResourceResult, Tool } from '../../protocol/types.js';
import { PREVIEW_CONFIG_ID, type PreviewConfig } from './preview-page.js';

interface PageDocument {
  getElementById(id: string): { textContent: string | null; append(...nodes: string[]): void } | null;
}
interface PageWindow {
  open(url: string, target: string, features: string): unknown;
}

const doc = (globalThis as unknown as { document: PageDocument }).document;
const win = globalThis as unknown as PageWindow;
const config = JSON.parse(doc.getElementById(PREVIEW_CONFIG_ID)!.textContent ?? '{}') as PreviewConfig;

function post(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mcpwire-token': config.token },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** The CLI's client, one `POST /rpc` per call. */
const relay: AppServerClient = {
  name: config.server,
  async listTools(options) {
    return ((await call('tools/list', {}, options?.signal)) as { tools: Tool[] }).tools;
  },
  async callTool(name, args, options) {
    return (await call('tools/call', { name, arguments: args ?? {} }, options?.signal)) as CallToolResult;
  },
  async readResource(uri, options) {
    return (await call('resources/read', { uri }, options?.signal)) as ReadResourceResult;
  },
};

async function call(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
  const response = await post('/rpc', { method, params }, signal);
  const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (answer.error)
    throw new McpError('SERVER_ERROR', answer.error.message, {
      server: config.server,
      method,
      rpcCode: answer.error.code,
      rpcMessage: answer.error.message,
    });
  return answer.result;
}

const log = (line: string) => doc.getElementById('log')?.append(`${line}\n`);
const status = (text: string) => {
  const element = doc.getElementById('status');
  if (element) element.textContent = text;
};

// Bridge frames go to the CLI in small batches, in order (one request in flight at a time).
let frames: unknown[] = [];
let flushing: Promise<void> = Promise.resolve();
function traceFrame(frame: unknown): void {
  frames.push(frame);
  if (frames.length > 1) return;
  flushing = flushing.then(async () => {
    await Promise.resolve();
    const batch = frames;
    frames = [];
    await post('/ui-trace', batch).catch(() => undefined);
  });
}

const host = new AppHost({
  client: relay,
  container: doc.getElementById('apps') as never,
  sandboxUrl: config.sandboxUrl,
  hostInfo: { name: 'mcpwire app', version: '1' },
  onOpenLink: (url) => {
    log(`open-link ${url}`);
    return win.open(url, '_blank', 'noopener,noreferrer') !== null;
  },
  onMessage: (message) => log(`message ${JSON.stringify(message.content)}`),
  onModelContext: (context) => log(`model context ${JSON.stringify(context)}`),
  onLog: (params) => log(`log ${JSON.stringify(params.data ?? params)}`),
  onBridgeFrame: traceFrame,
  audit: (event) => {
    if (event.kind === 'csp') log(`policy ${event.policy}`);
    else if (event.outcome !== 'allowed') log(`refused ${event.method}: ${event.outcome.refused}`);
    else if (event.kind === 'view-request' && event.method === 'tools/call')
      log(`tools/call ${String((event.params as { name?: unknown } | undefined)?.name)}`);
  },
});

status('starting the view…');
host.render({ tool: config.tool, arguments: config.arguments }).then(
  async (view) => {
    status('the view is running');
    const result = await view.result;
    status(result.isError ? 'the tool failed (the view has the error)' : 'the view has its result');
    log(`result ${JSON.stringify(result).slice(0, 2_000)}`);
  },
  (error: unknown) => {
    status('the view could not start');
    log(`error ${error instanceof Error ? error.message : String(error)}`);
  },
);
