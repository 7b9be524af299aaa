/* global location -- a browser page */
/**
 * A browser page's script: the whole client logging in by redirect (see
 * test/oauth-login-by-redirect-in-chromium.test.ts). `connect` on the app's first page meets the
 * server's 401 and sends the page to the authorization server; on the redirect URI's page it
 * finishes the login from `location.href`, lists the tools and calls `whoami`. Plain JavaScript:
 * it imports the neutral root (`src/neutral.ts`, neutral-root's), which esbuild resolves and
 * the type check does not need before it exists.
 */
import { LoginRedirectError, SessionStorageTokenStore } from '../../../src/auth/neutral.js';
import { McpClient } from '../../../src/neutral.js';

async function connect(mcpUrl) {
  const back = location.pathname === '/callback';
  try {
    const client = await McpClient.connect(
      {
        url: mcpUrl,
        auth: {
          store: new SessionStorageTokenStore(),
          redirectUri: `${location.origin}/callback`,
          onAuthorizationUrl: (url) => location.assign(url.href),
          ...(back ? { callbackUrl: location.href } : {}),
        },
      },
      { name: 'kit' },
    );
    try {
      const tools = (await client.listTools()).map((tool) => tool.name);
      const subject = (await client.callTool('whoami', {})).structuredContent.subject;
      return { subject, tools };
    } finally {
      await client.close();
    }
  } catch (error) {
    if (error instanceof LoginRedirectError) return undefined; // on the way to the authorization server
    throw error;
  }
}

globalThis.oauthClientPage = { connect };
