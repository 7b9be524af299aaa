/**
 * A browser page's script: the whole client logging in by redirect (see
 * test/oauth-login-by-redirect-in-chromium.test.ts). `connect` on the app's first page meets the
 * server's 401 and sends the page to the authorization server; on the redirect URI's page it
 * finishes the login from `location.href` and calls `whoami`.
 */
import { LoginRedirectError } from '../../../src/auth/auth-error.js';
import { SessionStorageTokenStore } from '../../../src/auth/session-storage-store.js';
import { McpClient } from '../../../src/client/mcp-client.js';

const page = globalThis as unknown as {
  location: { origin: string; href: string; pathname: string; assign(url: string): void };
  oauthClientPage: unknown;
};

async function connect(mcpUrl: string): Promise<{ subject: unknown; tools: string[] } | undefined> {
  const back = page.location.pathname === '/callback';
  try {
    const client = await McpClient.connect(
      {
        url: mcpUrl,
        auth: {
          store: new SessionStorageTokenStore(),
          redirectUri: `${page.location.origin}/callback`,
          onAuthorizationUrl: (url) => page.location.assign(url.href),
          ...(back ? { callbackUrl: page.location.href } : {}),
        },
      },
      { name: 'kit' },
    );
    try {
      const tools = (await client.listTools()).map((tool) => tool.name);
      const subject = ((await client.callTool('whoami', {})).structuredContent as { subject?: unknown }).subject;
      return { subject, tools };
    } finally {
      await client.close();
    }
  } catch (error) {
    if (error instanceof LoginRedirectError) return undefined; // on the way to the authorization server
    throw error;
  }
}

page.oauthClientPage = { connect };
