/**
 * A protected MCP endpoint and a scripted authorization server in one HTTP fixture on
 * 127.0.0.1: `/mcp` answers 401 with `resource_metadata`, the metadata documents and `/register`
 * answer as configured, `/token` records what reaches it. For the failure paths of a login,
 * where what matters is what the client refuses before a real server would be involved.
 */
import { onTestFinished } from 'vitest';
import { PROCESS_HTTP_ROUTES } from '../../src/client/http-routes.js';
import { json, startHttpFixture, type HttpFixture } from './http-fixture.js';
import { answerOAuthDiscovery, refuseWithChallenge } from './oauth-discovery.js';

export interface ScriptedOAuthOptions {
  /** The `resource` the protected resource metadata names (default: this server's `/mcp`). */
  metadataResource?: (origin: string) => string;
}

/**
 * Starts the fixture for one test (call it inside a test): `seen('POST')` etc. and `requests`
 * show what the client asked for. When the test finishes it is closed and the process-wide
 * route verdicts are forgotten.
 */
export async function startScriptedOAuth(options: ScriptedOAuthOptions = {}): Promise<HttpFixture> {
  let origin = '';
  const fixture = await startHttpFixture((seen, res) => {
    if (answerOAuthDiscovery(origin, seen, res, { resource: options.metadataResource?.(origin) })) return true;
    const path = seen.path.split('?')[0];
    if (path === '/register')
      return json(res, { client_id: 'scripted-client', redirect_uris: seen.json?.redirect_uris ?? [] }, 201);
    if (path === '/token') return json(res, { error: 'invalid_grant' }, 400);
    if (path === '/mcp') return refuseWithChallenge(res, origin);
    return false;
  });
  origin = `http://127.0.0.1:${fixture.port}`;
  onTestFinished(async () => {
    await fixture.close();
    PROCESS_HTTP_ROUTES.clear();
  });
  return fixture;
}

/**
 * Plays the browser of a user who approves at once: opens the `redirect_uri` of the authorization
 * URL `url` with `code` and the `state` sent, and drops the receiver's page.
 */
export async function approveWithCode(url: URL, code: string): Promise<void> {
  const callback = new URL(url.searchParams.get('redirect_uri')!);
  callback.searchParams.set('code', code);
  callback.searchParams.set('state', url.searchParams.get('state')!);
  await (await fetch(callback)).body?.cancel();
}
