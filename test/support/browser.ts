/**
 * Debian's chromium, headless, through playwright-core: the browser of the real-browser tests
 * (OAuth logins, the trace report). The caller closes it (in a `finally` or an `afterAll`).
 */
import { chromium, type Browser } from 'playwright-core';

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
