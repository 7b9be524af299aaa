/**
 * Finding who issues tokens for an MCP server (spec: basic/authorization, "Authorization Server
 * Discovery"): the Protected Resource Metadata (RFC 9728) at the URL of the challenge's
 * `resource_metadata`, else the path-based then the root well-known URL, whose `resource` must be
 * this server; then the authorization server's metadata (RFC 8414 / OpenID discovery) in the
 * spec's order, whose `issuer` must be the one asked for. A server with no resource metadata may
 * be a 2025-03-26 server: metadata at its origin, else — only when its 401 named the `Bearer`
 * scheme, as an OAuth resource server must (RFC 6750 §3) — the default `/authorize`, `/token`,
 * `/register` there. A server with neither metadata nor a `Bearer` challenge does not offer OAuth
 * (an API key, a proxy's own login): {@link NotOAuthError}. MCP-specific, so hand-written;
 * oauth4webapi checks the issuer.
 */
import * as oauth from 'oauth4webapi';
import { errorMessage } from '../protocol/errors.js';
import { redactUrl } from '../util/redact.js';
import { OAuthError } from './auth-error.js';
import { isAcceptableEndpoint, type OAuthFetch } from './oauth-http.js';

/** RFC 9728 metadata, the fields used. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  [key: string]: unknown;
}

/** What discovery found. */
export interface Discovered {
  /** The resource metadata, absent for a 2025-03-26 server. */
  resourceMetadata: ResourceMetadata | undefined;
  resourceMetadataUrl: string | undefined;
  /** The `resource` to send: the metadata's exactly as published, else the server URL. */
  resource: string;
  /** The authorization server (its metadata, or the 2025-03-26 defaults). */
  authorizationServer: oauth.AuthorizationServer;
  /**
   * The metadata URLs tried and found empty when {@link authorizationServer} is the 2025-03-26
   * default endpoints (no metadata anywhere); absent when metadata was found.
   */
  fallbackAfter?: string[];
}

/** What a discovery step needs. */
export interface DiscoveryContext {
  serverUrl: URL;
  serverName: string;
  fetch: OAuthFetch;
  signal?: AbortSignal | undefined;
  /**
   * True when the refusal that started the login named the `Bearer` (or `DPoP`) scheme: without
   * it and without metadata, the server is not taken for a 2025-03-26 OAuth server.
   */
  bearerChallenged?: boolean;
}

/**
 * The server answered 401 but offers no OAuth login: no protected resource metadata, no
 * authorization server metadata (and no `Bearer` challenge, or the 2025-03-26 default endpoints
 * are not there). Its credentials come from `headers` or a `headersHelper`. `tried` lists the
 * metadata URLs that had none.
 */
export class NotOAuthError extends OAuthError {
  override readonly name: string = 'NotOAuthError';
  readonly tried: readonly string[];

  constructor(serverName: string, tried: readonly string[], why?: string, cause?: unknown) {
    super(
      `this server does not offer OAuth login (no protected resource / authorization server metadata at ${tried.map((u) => redactUrl(u)).join(', ')}${why ? `; ${why}` : ''}); configure its credentials with headers or headersHelper`,
      { server: serverName, step: 'discovery', ...(cause !== undefined ? { cause } : {}) },
    );
    this.tried = tried.map((u) => redactUrl(u));
  }
}

/**
 * Runs discovery from a challenge's `resource_metadata` (may be undefined). Rejects with an
 * {@link OAuthError} (step `discovery`) when the metadata names another server, no authorization
 * server is found, or an endpoint is neither HTTPS nor loopback.
 */
export async function discover(
  context: DiscoveryContext,
  resourceMetadataUrl: string | undefined,
): Promise<Discovered> {
  const found = await findResourceMetadata(context, resourceMetadataUrl);
  const tried = found ? [] : resourceMetadataUrls(context.serverUrl, resourceMetadataUrl);
  if (found) {
    const { metadata, url } = found;
    const issuer = metadata.authorization_servers?.[0];
    if (typeof issuer !== 'string')
      throw fail(context, `the protected resource metadata at ${redactUrl(url)} names no authorization server`, url);
    const authorizationServer = await findServerMetadata(context, issuer);
    if (!authorizationServer)
      throw fail(context, `no authorization server metadata found for ${redactUrl(issuer)}`, issuer);
    return { resourceMetadata: metadata, resourceMetadataUrl: url, resource: metadata.resource, authorizationServer };
  }
  // 2025-03-26: no resource metadata; the MCP server's origin is the authorization server, and
  // like any other it is reached over HTTPS or on loopback (a code and a verifier go there).
  const origin = context.serverUrl.origin;
  if (!isAcceptableEndpoint(context.serverUrl))
    throw fail(
      context,
      `${origin} publishes no protected resource metadata and, as its own authorization server, is neither HTTPS nor on loopback`,
      origin,
    );
  const resource = resourceOf(context.serverUrl);
  const statuses: number[] = [];
  const metadata = await findServerMetadata(context, origin, true, statuses);
  if (metadata)
    return { resourceMetadata: undefined, resourceMetadataUrl: undefined, resource, authorizationServer: metadata };
  tried.push(`${origin}/.well-known/oauth-authorization-server`);
  // The default endpoints are for 2025-03-26 OAuth servers only; one that did not even name the
  // Bearer scheme in its 401 is guarded by something else (a browser sent to a made-up /authorize helps nobody).
  if (!context.bearerChallenged)
    throw new NotOAuthError(context.serverName, tried, 'and its 401 named no Bearer challenge');
  // Metadata is public by definition (RFC 8414 §3): an origin that refuses it too guards every path, OAuth's included.
  if (statuses.some((status) => status === 401 || status === 403))
    throw new NotOAuthError(context.serverName, tried, `and ${origin} answers HTTP ${statuses[0]} even there`);
  const authorizationServer: oauth.AuthorizationServer = {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  };
  return {
    resourceMetadata: undefined,
    resourceMetadataUrl: undefined,
    resource,
    authorizationServer,
    fallbackAfter: tried,
  };
}

/** The canonical URI of an MCP server as a `resource` (no fragment). */
export function resourceOf(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.toString();
}

/** The resource metadata URLs to try, in order: the header's, else path-based then root. */
export function resourceMetadataUrls(serverUrl: URL, fromHeader: string | undefined): string[] {
  if (fromHeader !== undefined) return [fromHeader];
  const root = `${serverUrl.origin}/.well-known/oauth-protected-resource`;
  const path = serverUrl.pathname.replace(/\/+$/, '');
  return path === '' ? [root] : [`${root}${path}`, root];
}

/**
 * The authorization-server metadata URLs for `issuer`, in the spec's order: with a path,
 * RFC 8414 path insertion, OpenID path insertion, OpenID path appending; without one, RFC 8414
 * then OpenID.
 */
export function serverMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '')
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** True when metadata's `resource` identifies this server: same origin, and its path this one's or a parent of it. */
export function resourceMatches(resource: string, serverUrl: URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(resource);
  } catch {
    return false;
  }
  if (parsed.origin !== serverUrl.origin || parsed.hash !== '') return false;
  const want = parsed.pathname.replace(/\/+$/, '');
  const have = serverUrl.pathname.replace(/\/+$/, '');
  return want === '' || want === have || have.startsWith(`${want}/`);
}

async function findResourceMetadata(
  context: DiscoveryContext,
  fromHeader: string | undefined,
): Promise<{ metadata: ResourceMetadata; url: string } | undefined> {
  for (const url of resourceMetadataUrls(context.serverUrl, fromHeader)) {
    const response = await get(context, url);
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      continue;
    }
    const metadata = (await readJson(context, response, url)) as ResourceMetadata;
    if (typeof metadata?.resource !== 'string')
      throw fail(context, `the protected resource metadata at ${redactUrl(url)} has no "resource"`, url);
    // RFC 9728 §3.3: metadata for another resource must not be used (a server pointing at someone else's login).
    if (!resourceMatches(metadata.resource, context.serverUrl)) {
      throw fail(
        context,
        `the protected resource metadata at ${redactUrl(url)} is for ${redactUrl(metadata.resource)}, not for ${redactUrl(context.serverUrl)}; refusing to log in`,
        url,
      );
    }
    return { metadata, url };
  }
  return undefined;
}

/**
 * The metadata of `issuer`, or undefined when none of its well-known URLs has any (their HTTP
 * statuses pushed on `statuses`). Rejects with an `OAuthError` (step `discovery`) for an issuer
 * or endpoint neither HTTPS nor on loopback, a fetch that failed or metadata refused.
 */
export async function findServerMetadata(
  context: DiscoveryContext,
  issuer: string,
  legacy = false,
  statuses: number[] = [],
): Promise<oauth.AuthorizationServer | undefined> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw fail(context, `the authorization server ${JSON.stringify(issuer)} is not a URL`, undefined);
  }
  if (!isAcceptableEndpoint(issuerUrl))
    throw fail(context, `the authorization server ${redactUrl(issuerUrl)} is neither HTTPS nor on loopback`, issuer);
  const urls = legacy ? [`${issuerUrl.origin}/.well-known/oauth-authorization-server`] : serverMetadataUrls(issuer);
  for (const url of urls) {
    const response = await get(context, url);
    if (response.status !== 200) {
      statuses.push(response.status);
      await response.body?.cancel().catch(() => {});
      continue;
    }
    let metadata: oauth.AuthorizationServer;
    try {
      // Checks that `issuer` is the one the URL was built from (RFC 8414 §3.3). A 2025-03-26
      // server's metadata sits at its origin whatever its issuer, so that one is taken as it is.
      metadata = legacy ? await legacyMetadata(response) : await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      throw fail(
        context,
        `the authorization server metadata at ${redactUrl(url)} was refused: ${errorMessage(error)}`,
        url,
        error,
      );
    }
    for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
      const value = metadata[key];
      if (typeof value === 'string' && !isAcceptableEndpoint(new URL(value)))
        throw fail(context, `the ${key} ${redactUrl(value)} is neither HTTPS nor on loopback`, url);
    }
    return metadata;
  }
  return undefined;
}

/**
 * `error` of a login against the 2025-03-26 default endpoints, as it should be reported: a
 * registration that failed with anything but RFC 7591's `400` (a 404, a 401 of a server guarding
 * every path, a page that is not JSON) means the endpoints are not there, so the server offers no
 * OAuth login ({@link NotOAuthError}); any other error is returned as it is.
 */
export function defaultEndpointsMissing(error: unknown, found: Discovered, serverName: string): unknown {
  if (found.fallbackAfter === undefined || !(error instanceof OAuthError) || error.step !== 'registration')
    return error;
  const status = httpStatusOf(error.cause);
  if (status === 400) return error;
  const at = redactUrl(String(found.authorizationServer.registration_endpoint));
  return new NotOAuthError(
    serverName,
    found.fallbackAfter,
    `and the default registration endpoint ${at} answered ${status === undefined ? 'no registration' : `HTTP ${status}`}`,
    error,
  );
}

/** The HTTP status behind an oauth4webapi error, when it has one. */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof oauth.ResponseBodyError) return error.status;
  // oauth4webapi's "unexpected status" error carries the response (of our fetch's own Response class).
  const status = ((error as { cause?: unknown } | undefined)?.cause as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

async function legacyMetadata(response: Response): Promise<oauth.AuthorizationServer> {
  const body = (await response.json()) as { issuer?: unknown };
  if (typeof body?.issuer !== 'string') throw new Error('no "issuer"');
  return body as oauth.AuthorizationServer;
}

async function get(context: DiscoveryContext, url: string): Promise<Response> {
  try {
    return await context.fetch(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      ...(context.signal ? { signal: context.signal } : {}),
    });
  } catch (error) {
    throw fail(context, `could not fetch ${redactUrl(url)}: ${errorMessage(error)}`, url, error);
  }
}

async function readJson(context: DiscoveryContext, response: Response, url: string): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    throw fail(context, `${redactUrl(url)} did not answer JSON`, url, error);
  }
}

function fail(context: DiscoveryContext, reason: string, url: string | undefined, cause?: unknown): OAuthError {
  return new OAuthError(reason, {
    server: context.serverName,
    step: 'discovery',
    ...(url !== undefined ? { url: redactUrl(url) } : {}),
    ...(cause !== undefined ? { cause } : {}),
  });
}
