/**
 * Debian's chromium, headless, through playwright-core: the browser of the real-browser tests
 * (OAuth logins, the trace report, the client and the kit in a page). The caller closes it (in a
 * `finally` or an `afterAll`).
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, onTestFinished } from 'vitest';

/** Headless Debian chromium with the flags this machine needs (no sandbox, no GPU, no background traffic). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What {@link watchedPage} checks besides page errors and requests off loopback. */
export interface WatchOptions {
  /** Counts a `console.error` of the page as an error too. */
  consoleErrors?: boolean;
  /** Runs before the checks when the test finishes (e.g. closing the page's client). */
  beforeCheck?: (page: Page) => Promise<unknown>;
}

/**
 * A page in a fresh context of `browser`, watched for the test that opens it: when the test
 * finishes, it fails on any page error (uncaught, or a `console.error` when asked) and on any
 * request to a host other than 127.0.0.1, and the context closes.
 */
export async function watchedPage(browser: Browser, options: WatchOptions = {}): Promise<Page> {
  const context = await browser.newContext();
  onTestFinished(() => context.close());
  const errors: string[] = [];
  const offLoopback: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).hostname !== '127.0.0.1') offLoopback.push(request.url());
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  if (options.consoleErrors)
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  onTestFinished(async () => {
    await options.beforeCheck?.(page);
    expect(errors, 'page errors').toEqual([]);
    expect(offLoopback, 'requests off loopback').toEqual([]);
  });
  return page;
}
