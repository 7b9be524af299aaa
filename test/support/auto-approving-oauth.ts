/**
 * A protected MCP server and its authorization server in one HTTP fixture on 127.0.0.1, whose
 * `/authorize` approves at once: it redirects straight to the client's redirect URI with a code
 * (PKCE checked at `/token`). A test's `onAuthorizationUrl` that fetches the URL (following the
 * redirect to mcpwire's loopback receiver) plays a user who clicks "allow". `/mcp` takes only
 * the access tokens `/token` issued and not revoked since; the MCP part is the scripted legacy
 * server.
 */
import { createHash } from 'node:crypto';
import { json, legacyServer, startHttpFixture, type HttpFixture } from './http-fixture.js';

export interface AutoApprovingOAuth extends HttpFixture {
  /** Access tokens issued so far. */
  issued: string[];
  /** Makes every issued token invalid (a revoked login); refresh tokens are never issued. */
  revokeAll(): void;
}

export async function startAutoApprovingOAuth(): Promise<AutoApprovingOAuth> {
  let origin = '';
  const issued: string[] = [];
  const valid = new Set<string>();
  const codes = new Map<string, string>();
  const mcp = legacyServer({ sessions: false });
  const fixture = await startHttpFixture((seen, res, req) => {
    const url = new URL(seen.path, origin);
    switch (url.pathname) {
      case '/.well-known/oauth-protected-resource/mcp':
        return json(res, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      case '/.well-known/oauth-authorization-server':
        return json(res, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      case '/register':
        return json(
          res,
          {
            client_id: `client-${issued.length}`,
            redirect_uris: seen.json?.redirect_uris ?? [],
            token_endpoint_auth_method: 'none',
          },
          201,
        );
      case '/authorize': {
        const code = `code-${codes.size + 1}`;
        codes.set(code, url.searchParams.get('code_challenge') ?? '');
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        res.writeHead(302, { location: back.toString() }).end();
        return true;
      }
      case '/token': {
        const form = new URLSearchParams(seen.body);
        const challenge = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (challenge === undefined || createHash('sha256').update(verifier).digest('base64url') !== challenge)
          return json(res, { error: 'invalid_grant' }, 400);
        codes.delete(form.get('code')!);
        const token = `granted-access-token-${issued.length + 1}`;
        issued.push(token);
        valid.add(token);
        return json(res, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      }
      case '/mcp': {
        const header = req.headers.authorization ?? '';
        if (!valid.has(header.replace(/^Bearer /, ''))) {
          return json(res, { error: 'invalid_token' }, 401, {
            'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          });
        }
        return mcp(seen, res, req);
      }
      default:
        return false;
    }
  });
  origin = `http://127.0.0.1:${fixture.port}`;
  return Object.assign(fixture, { issued, revokeAll: () => valid.clear() });
}
