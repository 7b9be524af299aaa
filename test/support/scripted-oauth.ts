/**
 * A protected MCP endpoint and a scripted authorization server in one HTTP fixture on
 * 127.0.0.1: `/mcp` answers 401 with `resource_metadata`, the metadata documents and `/register`
 * answer as configured, `/token` records what reaches it. For the failure paths of a login,
 * where what matters is what the client refuses before a real server would be involved.
 */
import { json, startHttpFixture, type HttpFixture } from './http-fixture.js';

export interface ScriptedOAuthOptions {
  /** The `resource` the protected resource metadata names (default: this server's `/mcp`). */
  metadataResource?: (origin: string) => string;
}

/** Starts the fixture; `seen('POST')` etc. and `requests` show what the client asked for. */
export async function startScriptedOAuth(options: ScriptedOAuthOptions = {}): Promise<HttpFixture> {
  let origin = '';
  const fixture = await startHttpFixture((seen, res) => {
    const path = seen.path.split('?')[0];
    if (path === '/.well-known/oauth-protected-resource/mcp') {
      return json(res, {
        resource: options.metadataResource?.(origin) ?? `${origin}/mcp`,
        authorization_servers: [origin],
      });
    }
    if (path === '/.well-known/oauth-authorization-server') {
      return json(res, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (path === '/register')
      return json(res, { client_id: 'scripted-client', redirect_uris: seen.json?.redirect_uris ?? [] }, 201);
    if (path === '/token') return json(res, { error: 'invalid_grant' }, 400);
    if (path === '/mcp')
      return json(res, { error: 'invalid_token' }, 401, {
        'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      });
    return false;
  });
  origin = `http://127.0.0.1:${fixture.port}`;
  return fixture;
}
