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
import { answerOAuthDiscovery, refuseWithChallenge } from './oauth-discovery.js';

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
    if (answerOAuthDiscovery(origin, seen, res, { metadata: { grant_types_supported: ['authorization_code'] } }))
      return true;
    const url = new URL(seen.path, origin);
    switch (url.pathname) {
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
        if (!valid.has(header.replace(/^Bearer /, ''))) return refuseWithChallenge(res, origin);
        return mcp(seen, res, req);
      }
      default:
        return false;
    }
  });
  origin = `http://127.0.0.1:${fixture.port}`;
  return Object.assign(fixture, { issued, revokeAll: () => valid.clear() });
}
