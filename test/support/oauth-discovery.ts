/**
 * The discovery half of a scripted OAuth setup inside an HTTP fixture (see http-fixture.ts): a
 * protected resource at `<origin>/mcp` whose authorization server is `origin` itself, with
 * `/authorize`, `/token` and `/register` there. Routes answer the documents and the challenge;
 * what the endpoints do is the test's.
 */
import type { ServerResponse } from 'node:http';
import { json, type Seen } from './http-fixture.js';

/** Options of {@link answerOAuthDiscovery}. */
export interface OAuthDiscoveryOptions {
  /** The `resource` the protected resource metadata names (default `<origin>/mcp`). */
  resource?: string;
  /** Fields added to (or replacing those of) the authorization server metadata. */
  metadata?: Record<string, unknown>;
}

/**
 * Answers `/.well-known/oauth-protected-resource/mcp` and `/.well-known/oauth-authorization-server`
 * (PKCE S256, public clients, dynamic registration) and returns true; returns false for any
 * other path, so a route goes on with its own.
 */
export function answerOAuthDiscovery(
  origin: string,
  seen: Seen,
  res: ServerResponse,
  options: OAuthDiscoveryOptions = {},
): boolean {
  const path = seen.path.split('?')[0];
  if (path === '/.well-known/oauth-protected-resource/mcp')
    return json(res, { resource: options.resource ?? `${origin}/mcp`, authorization_servers: [origin] });
  if (path === '/.well-known/oauth-authorization-server')
    return json(res, {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      ...options.metadata,
    });
  return false;
}

/** The challenge of `<origin>/mcp` without a good token: `<scheme> resource_metadata="…"`. */
export function resourceChallenge(origin: string, scheme = 'Bearer'): string {
  return `${scheme} resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
}

/** Answers 401 `{ error: 'invalid_token' }` with {@link resourceChallenge}; returns true. */
export function refuseWithChallenge(res: ServerResponse, origin: string): true {
  return json(res, { error: 'invalid_token' }, 401, { 'www-authenticate': resourceChallenge(origin) });
}
