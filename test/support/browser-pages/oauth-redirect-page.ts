/**
 * A browser page's script (bundled by esbuild for Chromium; see
 * test/oauth-login-by-redirect-in-chromium.test.ts): mcpwire's OAuth by redirect from `src/auth`
 * alone, with a `fetch` that plays the HTTP transport's part of the authorize hook (headers before
 * each request; after a 401/403, the refusal handed back once). `start` sends the page to the
 * authorization server; on the redirect URI's page, `finishAndCall` finishes the login from
 * `location.href` and runs a legacy MCP session with DPoP-bound tokens: initialize, initialized,
 * tools/call `whoami`.
 */
import { startRedirectLogin } from '../../../src/auth/browser-login.js';
import { OAuthSession } from '../../../src/auth/oauth-session.js';
import { SessionStorageTokenStore } from '../../../src/auth/session-storage-store.js';
import { HttpError } from '../../../src/protocol/errors.js';
import { parseAuthChallenges } from '../../../src/util/auth-challenge.js';

/** The page's globals used here (the project compiles without the DOM library). */
const page = globalThis as unknown as {
  location: { origin: string; href: string; assign(url: string): void };
  history: { replaceState(state: unknown, title: string, url: string): void };
  sessionStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
  oauthPage: unknown;
};

const options = () => ({ store: new SessionStorageTokenStore(), redirectUri: `${page.location.origin}/callback` });

/** Starts the login: discovery, registration (CORS), the pending login in sessionStorage, then away. */
async function start(mcpUrl: string): Promise<void> {
  await startRedirectLogin(mcpUrl, { ...options(), onAuthorizationUrl: (url) => page.location.assign(url.href) });
}

/** What the page saw after logging in. */
export interface PageOutcome {
  serverName: string;
  subject: unknown;
  tokenType: string | undefined;
  keyExtractable: boolean | undefined;
  /** Everything the tab's sessionStorage holds, as text. */
  storage: string;
  statuses: number[];
}

async function finishAndCall(mcpUrl: string): Promise<PageOutcome> {
  const url = new URL(mcpUrl);
  const store = new SessionStorageTokenStore();
  const session = new OAuthSession(url, 'kit', { ...options(), store, callbackUrl: page.location.href });
  const statuses: number[] = [];
  let sessionId: string | undefined;
  const post = async (message: Record<string, unknown>): Promise<any> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(message.method === 'initialize' ? {} : { 'mcp-protocol-version': '2025-11-25' }),
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    };
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    let auth = await session.authorize({ method: 'POST', url });
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(url, { method: 'POST', headers: { ...headers, ...auth }, body });
      statuses.push(response.status);
      if ((response.status === 401 || response.status === 403) && attempt < 2) {
        const rejected = new HttpError('AUTH_REQUIRED', `HTTP ${response.status}`, {
          url: url.href,
          status: response.status,
          challenge: parseAuthChallenges(response.headers.get('www-authenticate') ?? undefined),
          ...(response.headers.get('dpop-nonce') ? { dpopNonce: response.headers.get('dpop-nonce')! } : {}),
        });
        const again = await session.authorize({
          method: 'POST',
          url,
          rejected,
          rejectedAuthorization: auth?.authorization,
        });
        if (again) {
          auth = again;
          continue;
        }
      }
      sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
      const text = await response.text();
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
        return text === '' ? undefined : JSON.parse(text);
      const data = text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .filter(Boolean);
      return JSON.parse(data.at(-1)!);
    }
  };
  const init = await post({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
  });
  await post({ method: 'notifications/initialized' });
  const call = await post({ id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
  // The code and state leave the address bar once used.
  page.history.replaceState(null, '', '/');
  const login = await store.get(url.href);
  const key = login?.dpopKey as { keyPair?: { privateKey: { extractable: boolean } } } | undefined;
  const storage: string[] = [];
  for (let i = 0; i < page.sessionStorage.length; i++) {
    const name = page.sessionStorage.key(i)!;
    storage.push(`${name}=${page.sessionStorage.getItem(name)}`);
  }
  return {
    serverName: init?.result?.serverInfo?.name,
    subject: call?.result?.structuredContent?.subject,
    tokenType: login?.tokens?.tokenType,
    keyExtractable: key?.keyPair?.privateKey.extractable,
    storage: storage.join('\n'),
    statuses,
  };
}

page.oauthPage = { start, finishAndCall };
