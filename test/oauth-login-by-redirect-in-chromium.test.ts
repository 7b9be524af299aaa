/**
 * OAuth by redirect in Debian's Chromium against the real oidc-provider, with DPoP: a page on one
 * loopback origin (mcpwire's `src/auth` bundled by esbuild for the browser, no `node:*` import)
 * starts the login (discovery and dynamic registration over CORS, the PKCE verifier and `state`
 * in sessionStorage), goes to the provider (which approves at once) and comes back to its
 * redirect URI, where it finishes the login (the token bound to a non-extractable Web Crypto key)
 * and runs a legacy MCP session on a kit server on another origin (`cors` and `auth.dpop` with
 * nonces), reading `WWW-Authenticate`, `DPoP-Nonce` and `Mcp-Session-Id` through CORS. No page
 * error, no request off loopback.
 *
 * The same login through `McpClient.connect({ url, auth: { redirectUri, callbackUrl } })` in the
 * page runs on the neutral root with HTTP on fetch.
 */
import { build, stop } from 'esbuild';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { launchBrowser, watchedPage } from './support/browser.js';
import { serveNode, type Listening } from './support/mounts.js';
import { startAuthorizationServer } from './support/oauth-servers.js';
import { startDpopKit } from './support/redirect-login.js';
import type { PageOutcome } from './support/browser-pages/oauth-redirect-page.js';

const PAGES = path.join(import.meta.dirname, 'support', 'browser-pages');

/** `entry` bundled for the browser; fails on any import left unbundled (a `node:*` one, say). */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [path.join(PAGES, entry)],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  expect(Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path))).toEqual([]);
  return result.outputFiles[0]!.text;
}

/** The app: its page at `/` and at `/callback` (the redirect URI), loading `script`. */
async function serveApp(script: string): Promise<Listening> {
  const app = await serveNode((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>app</title><script type="module" src="/app.js"></script>');
  });
  onTestFinished(() => app.stop());
  return app;
}

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stop(); // esbuild's service process ends with the file
});

/** A fresh page at `url` once its script set `ready`, failing the test on any page error or a request off loopback. */
async function openPage(url: string, ready: string): Promise<Page> {
  const page = await watchedPage(browser!);
  page.setDefaultTimeout(30_000);
  await page.goto(url);
  await page.waitForFunction((name) => name in globalThis, ready);
  return page;
}

describe('OAuth by redirect in Chromium', () => {
  it('logs in by redirect at oidc-provider with DPoP and calls a tool on a kit server on another origin', async () => {
    const app = await serveApp(await bundle('oauth-redirect-page.ts'));
    const as = await startAuthorizationServer({ autoApprove: true, registrationCorsOrigin: app.origin });
    onTestFinished(() => as.close());
    const { kit, seen } = await startDpopKit(as.issuer, () => ({ cors: { origins: [app.origin] } }));

    const page = await openPage(`${app.origin}/`, 'oauthPage');
    const away = page.waitForURL((url) => url.pathname === '/callback', { waitUntil: 'load' });
    // The page goes away while this runs: its promise may never settle.
    void page.evaluate((mcp) => (globalThis as any).oauthPage.start(mcp), kit.url).catch(() => {});
    await away;
    const callback = new URL(page.url());
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('iss')).toBe(as.issuer);
    await page.waitForFunction(() => 'oauthPage' in globalThis);

    const outcome = await page.evaluate(
      (mcp) => (globalThis as any).oauthPage.finishAndCall(mcp) as Promise<PageOutcome>,
      kit.url,
    );
    expect(outcome).toMatchObject({
      serverName: 'dpop-kit',
      subject: 'alice',
      tokenType: 'DPoP',
      keyExtractable: false,
    });
    // The kit asked once for its nonce (read through CORS), then took each bound token.
    expect(outcome.statuses).toEqual([401, 200, 202, 200]);
    expect(seen).toHaveLength(1);
    expect((seen[0]?.claims?.cnf as { jkt?: string } | undefined)?.jkt).toBeTruthy();
    // The tab keeps the login without its key, and no login is pending any more.
    expect(outcome.storage).toMatch(/"tokenType":"DPoP"/);
    expect(outcome.storage).not.toMatch(/"pending"|"verifier"|"d":|keyPair|privateJwk/);
    expect(new URL(page.url()).search).toBe('');
    expect(as.grants).toEqual([{ grantType: 'authorization_code', ok: true }]);
  }, 120_000);

  it('the full client logs in by redirect and calls a tool in the browser (McpClient.connect with auth.callbackUrl)', async () => {
    const script = await bundle('oauth-client-page.js');
    const app = await serveApp(script);
    const as = await startAuthorizationServer({ autoApprove: true, registrationCorsOrigin: app.origin });
    onTestFinished(() => as.close());
    const { kit } = await startDpopKit(as.issuer, () => ({ cors: { origins: [app.origin] } }));
    const page = await openPage(`${app.origin}/`, 'oauthClientPage');
    const away = page.waitForURL((url) => url.pathname === '/callback', { waitUntil: 'load' });
    void page.evaluate((mcp) => (globalThis as any).oauthClientPage.connect(mcp), kit.url).catch(() => {});
    await away;
    await page.waitForFunction(() => 'oauthClientPage' in globalThis);
    const outcome = await page.evaluate(
      (mcp) => (globalThis as any).oauthClientPage.connect(mcp) as Promise<{ subject: unknown; tools: string[] }>,
      kit.url,
    );
    expect(outcome).toEqual({ subject: 'alice', tools: ['whoami'] });
  }, 120_000);
});
