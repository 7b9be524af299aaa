/**
 * The two loopback sites of `mcpwire app`: the host page (the preview, running `AppHost` on a
 * relay client) and the sandbox proxy page, each on its own port so they are two origins, as the
 * Apps spec asks of a web host. The host site answers:
 *
 * - `GET /?t=TOKEN`: the page, with the tool, its arguments and the sandbox URL in it;
 * - `POST /rpc` (header `x-mcpwire-token`): `{ method, params }` relayed to the CLI's own client,
 *   `tools/list`, `tools/call` and `resources/read` only, answered `{ result }` or `{ error }`;
 * - `POST /ui-trace` (same header): the bridge frames the page saw, written to the trace sink as
 *   the `ui` lane (`out` host → view, `in` view → host), redacted as the MCP lane is.
 *
 * Every request must name the site by its own `Host` (no DNS-rebound name reaches the client),
 * a POST must come from the host origin, and the token (random, in the printed URL only) must
 * match. Nothing else is served; bodies are bounded.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxProxyHeaders, sandboxProxyHtml } from '../../apps/sandbox-proxy-page.js';
import type { McpClient } from '../../client/mcp-client.js';
import { isMcpError } from '../../protocol/errors.js';
import type { Tool } from '../../protocol/types.js';
import { TraceBuilder } from '../../observe/trace-builder.js';
import type { TraceSink } from '../../observe/trace-sink.js';
import { previewPageHtml, type PreviewConfig } from './preview-page.js';

/** The methods the page may relay to the server. */
const RELAYED = new Set(['tools/list', 'tools/call', 'resources/read']);
const MAX_BODY = 8 << 20;

export interface PreviewSitesOptions {
  client: McpClient;
  tool: Tool;
  arguments: Record<string, unknown>;
  /** The bundled page script (`AppHost` and the relay client). */
  pageScript: string;
  /** Where the `ui` lane goes (the command's trace), if anywhere. */
  trace?: { sink: TraceSink; secrets: readonly string[] };
  /** Told of each bridge event worth a line on the terminal (a view's message, link, result). */
  onEvent?: (line: string) => void;
  /** The view was handed its tool's result (or told the call was cancelled). */
  onDelivered?: () => void;
}

export interface PreviewSites {
  /** The page to open (carries the token). */
  url: string;
  /** Closes both sites (open connections included). Idempotent. */
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), { 'content-type': 'application/json' });
}

/** The request body as JSON, refused past {@link MAX_BODY}. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error(`the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

function sameToken(given: string | null | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Starts both sites on loopback; rejects (with nothing left listening) when either cannot. */
export async function startPreviewSites(options: PreviewSitesOptions): Promise<PreviewSites> {
  const token = randomBytes(24).toString('base64url');
  const trace = options.trace;
  const ui = trace && new TraceBuilder({ server: options.client.name, lane: 'ui', secrets: trace.secrets });
  let hostAuthority = '';
  let sandboxAuthority = '';

  const sandbox = createServer((req, res) => {
    if (req.headers.host !== sandboxAuthority || (req.method !== 'GET' && req.method !== 'HEAD'))
      return send(res, 403, 'forbidden');
    const url = new URL(req.url ?? '/', `http://${sandboxAuthority}`);
    if (url.pathname !== '/sandbox') return send(res, 404, 'not found');
    res.writeHead(200, sandboxProxyHeaders(url));
    res.end(sandboxProxyHtml({ hostOrigin: `http://${hostAuthority}` }));
  });

  const relay = async (body: unknown): Promise<unknown> => {
    const { method, params } = (body ?? {}) as { method?: unknown; params?: Record<string, unknown> };
    if (typeof method !== 'string' || !RELAYED.has(method))
      return { error: { code: -32601, message: `the preview relays only ${[...RELAYED].join(', ')}` } };
    try {
      if (method === 'tools/list') return { result: { tools: await options.client.listTools() } };
      if (method === 'resources/read') return { result: await options.client.readResource(String(params?.uri)) };
      const name = String(params?.name);
      const result = await options.client.callTool(name, (params?.arguments ?? {}) as Record<string, unknown>);
      return { result };
    } catch (error) {
      const rpc = isMcpError(error) ? error.rpcCode : undefined;
      return { error: { code: rpc ?? -32603, message: error instanceof Error ? error.message : String(error) } };
    }
  };

  const host = createServer((req, res) => {
    if (req.headers.host !== hostAuthority) return send(res, 403, 'forbidden');
    const url = new URL(req.url ?? '/', `http://${hostAuthority}`);
    if (req.method === 'GET' && url.pathname === '/') {
      if (!sameToken(url.searchParams.get('t'), token)) return send(res, 403, 'forbidden');
      const config: PreviewConfig = {
        token,
        tool: options.tool,
        arguments: options.arguments,
        server: options.client.name,
        sandboxUrl: `http://${sandboxAuthority}/sandbox`,
      };
      return send(res, 200, previewPageHtml(config, options.pageScript), {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': [
          "default-src 'none'",
          "script-src 'unsafe-inline'",
          "style-src 'unsafe-inline'",
          "connect-src 'self'",
          `frame-src http://${sandboxAuthority}`,
          "base-uri 'none'",
          "form-action 'none'",
        ].join('; '),
        'referrer-policy': 'origin',
      });
    }
    if (req.method !== 'POST' || (url.pathname !== '/rpc' && url.pathname !== '/ui-trace'))
      return send(res, 404, 'not found');
    if (req.headers.origin !== `http://${hostAuthority}` || !sameToken(req.headers['x-mcpwire-token'] as string, token))
      return send(res, 403, 'forbidden');
    void readJson(req).then(
      async (body) => {
        if (url.pathname === '/rpc') return sendJson(res, 200, await relay(body));
        for (const frame of Array.isArray(body) ? body : []) {
          const { dir, message, tool } = (frame ?? {}) as { dir?: unknown; message?: unknown; tool?: unknown };
          if (dir !== 'in' && dir !== 'out') continue;
          if (trace && ui) trace.sink(ui.frame(dir, message));
          const line = eventLine(dir, message, typeof tool === 'string' ? tool : options.tool.name);
          if (line) options.onEvent?.(line);
          const method = (message as { method?: unknown } | null)?.method;
          if (
            dir === 'out' &&
            (method === 'ui/notifications/tool-result' || method === 'ui/notifications/tool-cancelled')
          )
            options.onDelivered?.();
        }
        sendJson(res, 200, {});
      },
      (error: unknown) => sendJson(res, 400, { error: { code: -32700, message: (error as Error).message } }),
    );
  });

  try {
    sandboxAuthority = await listen(sandbox);
    hostAuthority = await listen(host);
  } catch (error) {
    await Promise.all([stop(sandbox), stop(host)]);
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostAuthority}/?t=${token}`,
    close: () => (closing ??= Promise.all([stop(host), stop(sandbox)]).then(() => undefined)),
  };
}

/** A terminal line for the bridge messages a developer watches for, else undefined. */
function eventLine(dir: 'in' | 'out', message: unknown, tool: string): string | undefined {
  const m = (message ?? {}) as { method?: unknown; params?: Record<string, unknown> };
  if (typeof m.method !== 'string') return undefined;
  if (dir === 'in' && m.method === 'ui/notifications/initialized') return `${tool}: the view is initialized`;
  if (dir === 'out' && m.method === 'ui/notifications/tool-result') return `${tool}: the view has its result`;
  if (dir === 'in' && m.method === 'tools/call') return `${tool}: the view calls ${String(m.params?.name)}`;
  if (dir === 'in' && (m.method === 'ui/message' || m.method === 'ui/open-link'))
    return `${tool}: the view sent ${m.method}`;
  return undefined;
}
