/**
 * Reading MCP Server Cards and MCP Catalogs (SEP-2127, draft) before connecting: one bounded GET
 * each, through `fetch` only (every runtime). A card is advisory: what it says is checked and its
 * problems listed, never trusted, and {@link compareServerCard} says where it disagrees with what
 * the live connection reports (the runtime values win; nothing here is a ground for a security
 * decision).
 */
import { HttpError, McpError } from '../protocol/errors.js';
import {
  MCP_CATALOG_PATH,
  mcpCatalogProblems,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_SUFFIX,
  serverCardProblems,
  type McpCatalog,
  type ServerCard,
} from '../protocol/extensions/server-card.js';
import type { Implementation } from '../protocol/types.js';
import { redactUrl } from '../util/redact.js';
import { readBoundedBody } from '../util/bounded-body.js';

/** Options of {@link fetchServerCard} and {@link fetchMcpCatalog}. */
export interface CardFetchOptions {
  /** The `fetch` to use (default the runtime's). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  signal?: AbortSignal;
  /** The whole exchange's bound (default 10000 ms): `TIMEOUT` past it. */
  timeoutMs?: number;
  /** The largest body read (default 64 KiB): `TRANSPORT` past it. */
  maxBytes?: number;
}

/** A card as read: where from, the document, and what is wrong with it (empty: valid). */
export interface FetchedServerCard {
  url: string;
  /** The document as sent (its problems listed beside it: read it as untrusted). */
  card: ServerCard;
  problems: string[];
}

/** A catalog as read: where from, the document, and what is wrong with it. */
export interface FetchedMcpCatalog {
  url: string;
  catalog: McpCatalog;
  problems: string[];
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 64 * 1024;

/**
 * Reads the Server Card of the MCP endpoint `url` (`GET <url>/server-card`); a URL that already
 * ends in `/server-card` (a catalog entry's) is read as it is. Rejects with `HttpError`
 * (`TRANSPORT`) naming the URL for no answer, an HTTP error status, a body past `maxBytes` or one
 * that is not JSON; `TIMEOUT` past `timeoutMs`; the signal's reason when it aborts. A JSON body
 * that is not a valid card resolves, with its problems.
 */
export async function fetchServerCard(url: string | URL, options: CardFetchOptions = {}): Promise<FetchedServerCard> {
  return fetchCardDocument(cardUrl(url), options);
}

/**
 * Reads a card at exactly `url` (no suffix added: a legacy location such as
 * `/.well-known/mcp.json`); rejects as {@link fetchServerCard} does. Not in the public surface.
 */
export async function fetchCardDocument(url: string, options: CardFetchOptions = {}): Promise<FetchedServerCard> {
  const target = parsed(url).toString();
  const value = await fetchJson(target, SERVER_CARD_MEDIA_TYPE, 'server card', options);
  return { url: target, card: value as ServerCard, problems: serverCardProblems(value) };
}

/**
 * Reads the MCP Catalog of `origin` (`GET <origin>/.well-known/mcp/catalog.json`; any path of the
 * URL is dropped). Rejects as {@link fetchServerCard} does.
 */
export async function fetchMcpCatalog(
  origin: string | URL,
  options: CardFetchOptions = {},
): Promise<FetchedMcpCatalog> {
  const target = new URL(MCP_CATALOG_PATH, parsed(origin)).toString();
  const value = await fetchJson(target, 'application/json', 'MCP catalog', options);
  return { url: target, catalog: value as McpCatalog, problems: mcpCatalogProblems(value) };
}

/**
 * Where `card` disagrees with what the connection reports (`serverInfo`, and the negotiated
 * `protocolVersion` against the remotes' `supportedProtocolVersions`), one line each; empty when
 * they agree; a field the card or the server leaves out is not compared. Prefer the runtime values.
 */
export function compareServerCard(
  card: Partial<ServerCard>,
  serverInfo: Implementation,
  protocolVersion?: string,
): string[] {
  const found: string[] = [];
  const differs = (field: string, carded: unknown, live: unknown) => {
    if (carded !== undefined && live !== undefined && carded !== live)
      found.push(`${field}: the card says ${JSON.stringify(carded)}, the server ${JSON.stringify(live)}`);
  };
  differs('name', card.name, serverInfo.name);
  differs('version', card.version, serverInfo.version);
  differs('title', card.title, serverInfo.title);
  differs('description', card.description, serverInfo.description);
  if (protocolVersion !== undefined && Array.isArray(card.remotes)) {
    const listed = card.remotes.flatMap((remote) => remote?.supportedProtocolVersions ?? []);
    if (listed.length > 0 && !listed.includes(protocolVersion))
      found.push(`protocol version: the card lists ${listed.join(', ')}, the connection speaks ${protocolVersion}`);
  }
  return found;
}

function cardUrl(url: string | URL): string {
  const base = parsed(url);
  if (base.pathname.endsWith(SERVER_CARD_SUFFIX)) return base.toString();
  base.pathname = `${base.pathname.replace(/\/$/, '')}${SERVER_CARD_SUFFIX}`;
  return base.toString();
}

function parsed(url: string | URL): URL {
  try {
    const result = new URL(url);
    if (result.protocol !== 'http:' && result.protocol !== 'https:') throw new Error('not http(s)');
    result.hash = '';
    return result;
  } catch {
    throw new McpError('INVALID_ARGUMENT', `not an http(s) URL: ${redactUrl(String(url))}`);
  }
}

/** One bounded GET of a JSON document: the parsed value. */
async function fetchJson(url: string, accept: string, what: string, options: CardFetchOptions): Promise<unknown> {
  const shown = redactUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  options.signal?.throwIfAborted();
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  const fail = (reason: string, details: { status?: number; unreachable?: boolean; cause?: unknown } = {}) =>
    new HttpError('TRANSPORT', `${what} at ${shown}: ${reason}`, { url: shown, ...details });
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(url, {
        headers: { accept: `${accept}, application/json;q=0.9` },
        redirect: 'follow',
        signal,
      });
    } catch (error) {
      throw fail('no answer', { unreachable: true, cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw fail(`HTTP ${response.status}`, { status: response.status });
    }
    // A GET on an MCP endpoint itself may open its SSE stream, which never ends: not a document.
    const type = response.headers.get('content-type') ?? '';
    if (/text\/event-stream/i.test(type)) {
      await response.body?.cancel().catch(() => {});
      throw fail(`the answer is an event stream (${type}), not JSON`, { status: response.status });
    }
    const text = await boundedText(response, maxBytes);
    if (text === undefined) throw fail(`larger than ${maxBytes} bytes (maxBytes)`, { status: response.status });
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw fail('the body is not JSON', { status: response.status, cause: error });
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timer.signal.aborted) throw new McpError('TIMEOUT', `${what} at ${shown}: no answer within ${timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}

/** The body as text, or undefined once it passes `maxBytes` (the rest is not read). */
async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  const bytes = await readBoundedBody(response, maxBytes);
  return bytes && new TextDecoder().decode(bytes);
}
