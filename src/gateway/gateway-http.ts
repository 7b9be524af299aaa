/**
 * The gateway on one Node HTTP listener: the root server at `/mcp`, each virtual server at
 * `/mcp/NAME`, and the documents each endpoint serves outside its path — its Protected
 * Resource Metadata (`/.well-known/oauth-protected-resource/mcp[/NAME]`, and the root one), its
 * Server Card (`/mcp[/NAME]/server-card`) and the MCP catalog (`/.well-known/mcp/catalog.json`,
 * the root's). A request for anything else is `null` from {@link GatewayHttp.handlerFor}.
 *
 * The card (`card`): the root's under `card.name` (reverse-DNS, `com.example/gateway`), each
 * virtual server's under `NAME-VIRTUAL` with its own description (or the root's and the
 * virtual server's name), each with `publicUrl` + its path when given.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHttpHandler, type McpHttpHandler } from '../server/http/node-handler.js';
import type { HttpHandlerOptions } from '../server/http/http-handler-options.js';
import type { Gateway } from './gateway.js';

/** The gateway's Server Card settings: the root's card, from which the virtual servers' follow. */
export interface GatewayCardOptions {
  /** Reverse-DNS name with one slash (`com.example/gateway`). */
  name: string;
  /** 1–100 characters. */
  description: string;
  /** The root endpoint's public URL (`https://mcp.example.com/mcp`); default: the request's Host. */
  publicUrl?: string;
}

export interface GatewayHttp {
  /** The handler that serves `req`'s path, or null (not an endpoint or document of this gateway). */
  handlerFor(req: IncomingMessage): McpHttpHandler | null;
  /** Serves `req` or answers 404. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Closes every handler (their sessions and streams). */
  close(): Promise<void>;
}

const WELL_KNOWN_PRM = '/.well-known/oauth-protected-resource';
const CATALOG = '/.well-known/mcp/catalog.json';
const CARD = '/server-card';

/**
 * Handlers for `gateway` under `root` (default `/mcp`); `options(path, virtual)` gives each
 * endpoint's handler options (auth, say), `card` its Server Card.
 */
export function gatewayHttp(
  gateway: Gateway,
  settings: {
    root?: string;
    card?: GatewayCardOptions;
    options?: (path: string, virtual: string | undefined) => Omit<HttpHandlerOptions, 'path' | 'serverCard'>;
  } = {},
): GatewayHttp {
  const root = (settings.root ?? '/mcp').replace(/\/$/, '');
  const byPath = new Map<string, McpHttpHandler>();
  const mount = (path: string, virtual: string | undefined, server: Gateway['server']) => {
    const card = settings.card;
    const description = virtual === undefined ? undefined : server.info.description;
    byPath.set(
      path,
      createHttpHandler(server, {
        ...settings.options?.(path, virtual),
        path,
        ...(card
          ? {
              serverCard: {
                name: virtual === undefined ? card.name : `${card.name}-${virtual}`,
                description:
                  virtual === undefined
                    ? card.description
                    : (description ?? `${card.description}: ${virtual}`).slice(0, 100),
                ...(card.publicUrl !== undefined
                  ? { publicUrl: `${card.publicUrl.replace(/\/$/, '')}${path.slice(root.length)}` }
                  : {}),
                catalog: virtual === undefined,
              },
            }
          : { serverCard: false }),
      }),
    );
  };
  mount(root, undefined, gateway.server);
  for (const [name, server] of gateway.virtualServers) mount(`${root}/${name}`, name, server);
  const rootHandler = byPath.get(root)!;

  const handlerFor = (req: IncomingMessage): McpHttpHandler | null => {
    const pathname = new URL(req.url ?? '/', 'http://gateway').pathname.replace(/\/$/, '');
    const exact = byPath.get(pathname);
    if (exact) return exact;
    if (pathname.endsWith(CARD)) return byPath.get(pathname.slice(0, -CARD.length)) ?? null;
    if (pathname === CATALOG || pathname === WELL_KNOWN_PRM) return rootHandler;
    if (pathname.startsWith(`${WELL_KNOWN_PRM}/`)) return byPath.get(pathname.slice(WELL_KNOWN_PRM.length)) ?? null;
    return null;
  };
  return {
    handlerFor,
    handle(req, res) {
      const handler = handlerFor(req);
      if (handler) void handler(req, res);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not an MCP endpoint of this gateway\n');
    },
    close: async () => {
      await Promise.all([...byPath.values()].map((handler) => handler.close()));
    },
  };
}
