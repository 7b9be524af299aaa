/**
 * The login by redirect in tests: the browser's trip through an auto-approving provider
 * (`startAuthorizationServer({ autoApprove: true })`) played over HTTP with cookies, stopped where
 * the provider sends the browser back to the app's redirect URI (never fetched: that URL is
 * the callback the app's page reads), a `sessionStorage` stand-in that outlives the store
 * instances (one per "page"), and a kit server requiring DPoP-bound tokens from the provider.
 */
import { onTestFinished } from 'vitest';
import { jwtBearer, McpServer, type AuthInfo, type HttpHandlerOptions } from '../../src/server/index.js';
import type { KeyValueStorage } from '../../src/auth/session-storage-store.js';
import { listenKitAt, type KitHttp } from './kit-http.js';
import { followRedirects } from './oauth-servers.js';
import { registerWhoamiTool } from './kit-tools.js';

/**
 * Follows the authorization URL's redirects (at most 20, each bounded by 30 s) with the cookies
 * they set, and resolves with the first `Location` that starts with `redirectUri`.
 */
export function followToRedirectUri(url: URL | string, redirectUri: string): Promise<URL> {
  return followRedirects(url, ({ answer, location }) => {
    if (location === undefined)
      throw new Error(`${answer.url} answered ${answer.status} without sending the browser on`);
    return location.href.startsWith(redirectUri) ? location : undefined;
  });
}

/** A `sessionStorage` stand-in whose entries can be read (what a page would leave in the tab). */
export class MapStorage implements KeyValueStorage {
  readonly entries = new Map<string, string>();
  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.entries.set(key, value);
  }
  removeItem(key: string): void {
    this.entries.delete(key);
  }
}

/** A kit server with `whoami` whose endpoint takes only DPoP-bound JWTs of `issuer` (server nonces on). */
export async function startDpopKit(
  issuer: string,
  extra: (url: string) => HttpHandlerOptions = () => ({}),
): Promise<{ kit: KitHttp; seen: Array<AuthInfo | undefined> }> {
  const seen: Array<AuthInfo | undefined> = [];
  const server = new McpServer({ name: 'dpop-kit', version: '1.0.0', logger: () => undefined });
  onTestFinished(() => server.close());
  registerWhoamiTool(server, seen);
  const kit = await listenKitAt(server, (url) => ({
    ...extra(url),
    auth: {
      resource: url,
      authorizationServers: [issuer],
      scopesSupported: ['mcp:tools'],
      verifyToken: jwtBearer({ issuer }),
      dpop: { required: true, nonce: true },
    },
  }));
  onTestFinished(() => kit.close());
  return { kit, seen };
}
