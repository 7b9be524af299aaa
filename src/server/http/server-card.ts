/**
 * The server's own MCP Server Card (SEP-2127, draft) and its MCP Catalog entry, served by the HTTP
 * core beside the Protected Resource Metadata, before the path check and before auth (both are
 * public by design): `GET|HEAD <endpoint>/server-card` (`application/mcp-server-card+json`) and
 * `GET|HEAD /.well-known/mcp/catalog.json`, each with `Access-Control-Allow-Origin: *` and
 * `Cache-Control: public, max-age=3600`, and their cross-origin preflight answered (204).
 *
 * The card is built from the server's `serverInfo` (name, version, title, description,
 * websiteUrl, icons) and the `serverCard` option. By default it is served only when it would be
 * valid (a reverse-DNS name and a description); otherwise there is no route and the server's log
 * gets one warning. Given explicitly, an invalid card is refused when the handler is made.
 */
import { McpError } from '../../protocol/errors.js';
import {
  catalogIdentifier,
  MCP_CATALOG_PATH,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_SCHEMA,
  SERVER_CARD_SUFFIX,
  serverCardProblems,
  type McpCatalog,
  type ServerCard,
  type ServerCardRemote,
  type ServerCardRepository,
} from '../../protocol/extensions/server-card.js';
import { LEGACY_REVISIONS, MODERN_REVISIONS } from '../../protocol/revisions.js';
import type { Implementation } from '../../protocol/types.js';
import type { HttpRequestIn, ResponseSink } from '../../transport/http-server/http-exchange.js';
import type { ServerLogger } from '../server-types.js';
import { checkHost, type GuardOptions } from './request-guards.js';

/** The `serverCard` option of the HTTP handlers. */
export interface ServerCardOptions {
  /** The card's reverse-DNS name (`com.example/weather`). Default `serverInfo.name`; a different one is logged. */
  name?: string;
  /** 1–100 characters. Default the server's `description`. */
  description?: string;
  /**
   * The endpoint's public URL (`https://mcp.example.com/mcp`): the card's remote and the
   * catalog's link. Default: `http://` (or `X-Forwarded-Proto`) + the request's `Host` + `path`,
   * for an allowed Host only; give it behind TLS or a proxy that rewrites the path.
   */
  publicUrl?: string;
  repository?: ServerCardRepository;
  /** The card's `remotes`, replacing the one this handler serves. */
  remotes?: ServerCardRemote[];
  /** Serve `/.well-known/mcp/catalog.json` with this card's entry. Default true. */
  catalog?: boolean;
}

const KEYS = new Set(['name', 'description', 'publicUrl', 'repository', 'remotes', 'catalog']);

/** The CORS and caching headers of every answer here (discovery.md: CORS Requirements, Caching). */
const PUBLIC_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
  'cache-control': 'public, max-age=3600',
});

/** What the HTTP core needs to know of its options and server to serve a card. */
export interface CardSource {
  info: Implementation;
  logger: ServerLogger;
  path: string | undefined;
  option: false | ServerCardOptions | undefined;
  guards: GuardOptions;
}

/** The card and catalog routes of one handler. */
export class ServerCardRoutes {
  private constructor(
    private readonly card: Omit<ServerCard, 'remotes'>,
    private readonly options: ServerCardOptions,
    private readonly path: string | undefined,
    private readonly guards: GuardOptions,
  ) {}

  /**
   * The routes for `source`, or undefined when no card is served. Throws `INVALID_ARGUMENT` for an
   * unknown key of an explicit `serverCard` option, or an explicit card that would be invalid.
   */
  static from(source: CardSource): ServerCardRoutes | undefined {
    const { info, logger, option } = source;
    if (option === false) return undefined;
    const explicit = option !== undefined;
    if (explicit) {
      if (typeof option !== 'object' || option === null)
        throw new McpError('INVALID_ARGUMENT', 'HTTP handler option "serverCard" must be false or an object');
      for (const key of Object.keys(option))
        if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown HTTP handler option "serverCard.${key}"`);
      if (option.publicUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(option.publicUrl))
        throw new McpError('INVALID_ARGUMENT', 'HTTP handler option "serverCard.publicUrl" must be an http(s) URL');
    }
    const options = option ?? {};
    const card: Omit<ServerCard, 'remotes'> = {
      $schema: SERVER_CARD_SCHEMA,
      name: options.name ?? info.name,
      version: info.version,
      description: options.description ?? info.description ?? '',
    };
    if (info.title !== undefined) card.title = info.title;
    if (info.websiteUrl !== undefined) card.websiteUrl = info.websiteUrl;
    if (options.repository !== undefined) card.repository = options.repository;
    if (info.icons !== undefined) card.icons = info.icons;
    const sample: ServerCard = { ...card, remotes: options.remotes ?? [remote('http://localhost/mcp')] };
    if (card.description === '') delete (sample as Partial<ServerCard>).description;
    const problems = serverCardProblems(sample);
    if (problems.length > 0) {
      if (explicit)
        throw new McpError(
          'INVALID_ARGUMENT',
          `HTTP handler option "serverCard": the card is invalid: ${problems.join('; ')}`,
        );
      // Silent for a server that never described itself (most have no card to give); one that
      // gave a description meant to be found, so it hears why it is not.
      if (info.description !== undefined)
        logger({
          level: 'warning',
          msg: 'no server card served (give the server a reverse-DNS name and a description, or serverCard: false)',
          problems,
        });
      return undefined;
    }
    if (card.name !== info.name)
      logger({
        level: 'warning',
        msg: 'the server card names another server than serverInfo: clients that compare them will warn',
        card: card.name,
        serverInfo: info.name,
      });
    return new ServerCardRoutes(card, options, source.path, source.guards);
  }

  /**
   * Answers a request for the card or the catalog (`path`: the target's path, no query) and
   * returns true, or leaves it alone and returns false.
   */
  serve(req: HttpRequestIn, sink: ResponseSink, path: string): boolean {
    const endpoint = this.endpointOf(path);
    const isCatalog = endpoint === undefined && this.options.catalog !== false && path === MCP_CATALOG_PATH;
    if (endpoint === undefined && !isCatalog) return false;
    if (req.method === 'OPTIONS') {
      sink.send(204, { ...PUBLIC_HEADERS, 'content-length': '0' });
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sink.send(405, { ...PUBLIC_HEADERS, allow: 'GET, HEAD, OPTIONS', 'content-length': '0' });
      return true;
    }
    const url = this.publicUrl(req, endpoint ?? this.path ?? '');
    if (url === undefined) {
      // A Host we do not answer to would be echoed into a publicly cacheable document.
      const body = JSON.stringify({ error: 'Forbidden: the Host header is not an allowed host' });
      sink.send(403, { 'content-type': 'application/json' }, body);
      return true;
    }
    const document = isCatalog ? this.catalogOf(url) : this.cardOf(url);
    const body = JSON.stringify(document);
    const headers = {
      ...PUBLIC_HEADERS,
      'content-type': isCatalog ? 'application/json' : SERVER_CARD_MEDIA_TYPE,
      'content-length': String(new TextEncoder().encode(body).byteLength),
    };
    if (req.method === 'HEAD') sink.send(200, headers);
    else sink.send(200, headers, body);
    return true;
  }

  /** The card with its remote at `url`. */
  cardOf(url: string): ServerCard {
    return { ...this.card, remotes: this.options.remotes ?? [remote(url)] };
  }

  private catalogOf(url: string): McpCatalog {
    return {
      specVersion: 'draft',
      entries: [
        {
          identifier: catalogIdentifier(this.card.name)!,
          displayName: this.card.title ?? this.card.name,
          type: SERVER_CARD_MEDIA_TYPE,
          url: `${url.replace(/\/$/, '')}${SERVER_CARD_SUFFIX}`,
        },
      ],
    };
  }

  /** The endpoint path a card path belongs to, or undefined when `path` is not a card path. */
  private endpointOf(path: string): string | undefined {
    if (!path.endsWith(SERVER_CARD_SUFFIX)) return undefined;
    const endpoint = path.slice(0, -SERVER_CARD_SUFFIX.length);
    if (this.path === undefined) return endpoint; // every path is the endpoint: any of them has a card
    return endpoint === this.path.replace(/\/$/, '') ? this.path : undefined;
  }

  /** The endpoint's public URL: the option's, else from the request for an allowed Host. */
  private publicUrl(req: HttpRequestIn, endpoint: string): string | undefined {
    if (this.options.publicUrl !== undefined) return this.options.publicUrl;
    if (checkHost(req, this.guards)) return undefined;
    const host = req.header('host');
    if (host === undefined) return undefined;
    const forwarded = req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    const scheme = forwarded === 'https' ? 'https' : 'http';
    return `${scheme}://${host}${endpoint === '' ? '/' : endpoint}`;
  }
}

function remote(url: string): ServerCardRemote {
  return {
    type: 'streamable-http',
    url,
    supportedProtocolVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS],
  };
}
