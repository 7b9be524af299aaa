/**
 * `mcpwire app` as a developer runs it (the built CLI, a configured stdio kit server whose view is
 * built with ext-apps' `App`), opened in Debian's Chromium at the address it prints: the view gets
 * its input and result from the live server, calls the server's app-only tool through the page's
 * relay, the page lists what it did, and the trace file holds both lanes (the MCP session and the
 * view's bridge as `ui`). The relay refuses a request without the page's token or from another
 * origin, and a method it does not relay. Ctrl-C (SIGINT) closes it; `--once` stops by itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { appViewHtml } from './support/apps-view.js';
import { launchBrowser, watchedPage } from './support/browser.js';
import { requireBuiltCli, startCli, type RunningCli } from './support/cli.js';
import { useConfigDirs } from './support/config-dirs.js';

/** The page's document, inside `page.waitForFunction` (the tests are type-checked without the DOM lib). */
declare const document: {
  querySelector(s: string): unknown;
  getElementById(id: string): { textContent: string | null } | null;
};

const FIXTURE = path.resolve(import.meta.dirname, 'support/kit-app-preview-server.mjs');
const dirs = useConfigDirs('mcpwire-app-preview-');
let browser: Browser;
let viewHtml: string;

beforeAll(async () => {
  requireBuiltCli();
  viewHtml = await appViewHtml('weather preview');
  browser = await launchBrowser();
}, 60_000);
afterAll(() => browser?.close());

/** The user config naming the fixture `weather`, and the CLI started on it. */
function startPreview(extra: string[], tool = 'show_weather'): { cli: RunningCli; traceFile: string } {
  const view = path.join(dirs.root, 'view.html');
  writeFileSync(view, viewHtml);
  writeFileSync(
    path.join(dirs.home, '.mcpwire', 'config.json'),
    JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: [FIXTURE, view] } } }),
  );
  const traceFile = path.join(dirs.root, 'app.jsonl');
  const cli = startCli(
    ['app', tool, '--server', 'weather', '--arg', 'city=Oslo', '--no-browser', '--trace-file', traceFile, ...extra],
    { env: { HOME: dirs.home, XDG_CONFIG_HOME: '' }, cwd: dirs.project, timeoutMs: 60_000 },
  );
  return { cli, traceFile };
}

async function printedUrl(cli: RunningCli): Promise<string> {
  const out = await cli.until('stdout', (text) => text.includes('\n'), 'the page address');
  return out.split('\n')[0]!;
}

/** The view's frame (the srcdoc frame inside the proxy frame), once it exists. */
async function viewFrame(page: Page): Promise<Frame> {
  await page.waitForFunction(() => document.querySelector('iframe') !== null, undefined, { timeout: 15_000 });
  for (let i = 0; i < 150; i++) {
    const frame = page.frames().find((f) => f.url() === 'about:srcdoc');
    if (frame && (await frame.evaluate(() => 'viewLog' in globalThis).catch(() => false))) return frame;
    await page.waitForEvent('framenavigated', { timeout: 100 }).catch(() => undefined);
  }
  throw new Error('the view frame never appeared');
}

const readTrace = (file: string): TraceRecord[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TraceRecord);

describe('mcpwire app', () => {
  it('hosts the view against the live server, relays its calls, and traces both lanes', async () => {
    const { cli, traceFile } = startPreview([]);
    const url = await printedUrl(cli);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?t=[\w-]{20,}$/);

    const page = await watchedPage(browser);
    await page.goto(url);
    await page.waitForFunction(
      () => document.getElementById('status')?.textContent === 'the view has its result',
      undefined,
      {
        timeout: 20_000,
      },
    );
    const view = await viewFrame(page);
    const events = await view.evaluate(() => (globalThis as any).viewLog.events.map((e: any) => e.kind));
    expect(events.slice(0, 2)).toEqual(['tool-input', 'tool-result']);
    const result = await view.evaluate(() => (globalThis as any).viewLog.events[1].result);
    expect(result.structuredContent).toEqual({ city: 'Oslo', tempC: 21 });
    expect(await view.evaluate(() => (globalThis as any).viewLog.events[0].arguments)).toEqual({ city: 'Oslo' });

    // The view calls its server's app-only tool through the page's relay and the CLI's client.
    const refreshed = await view.evaluate(() => (globalThis as any).viewSteps.callTool('refresh', {}));
    expect(refreshed.ok.content).toEqual([{ type: 'text', text: 'refreshed 1' }]);
    await page.waitForFunction(
      () => document.getElementById('log')?.textContent?.includes('tools/call refresh'),
      undefined,
      {
        timeout: 10_000,
      },
    );
    await cli.until('stderr', (text) => text.includes('the view calls refresh'), 'the terminal line of the view call');

    // The relay: no token, another origin, or a method it does not relay are all refused.
    const origin = new URL(url).origin;
    const token = new URL(url).searchParams.get('t')!;
    const rpc = (headers: Record<string, string>, body: unknown) =>
      fetch(`${origin}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await rpc({ origin }, { method: 'tools/list' })).status).toBe(403);
    expect(
      (await rpc({ origin: 'http://127.0.0.1:9', 'x-mcpwire-token': token }, { method: 'tools/list' })).status,
    ).toBe(403);
    const refused = (await (await rpc({ origin, 'x-mcpwire-token': token }, { method: 'prompts/list' })).json()) as {
      error: { code: number };
    };
    expect(refused.error.code).toBe(-32601);
    expect((await fetch(`${origin}/`)).status).toBe(403);

    // Ctrl-C closes the sites and the session; the trace has both lanes.
    cli.kill('SIGINT');
    const ended = await cli.done;
    expect(ended.code).toBe(130);
    const records = readTrace(traceFile);
    const mcp = records
      .filter((r) => r.lane === undefined && r.kind === 'request' && r.dir === 'out')
      .map((r) => r.method);
    expect(mcp).toEqual(expect.arrayContaining(['tools/list', 'resources/read', 'tools/call']));
    const ui = records.filter((r) => r.lane === 'ui');
    const uiMethods = ui.map((r) => `${r.dir} ${r.method}`);
    expect(uiMethods).toEqual(
      expect.arrayContaining([
        'in ui/initialize',
        'in ui/notifications/initialized',
        'out ui/notifications/tool-input',
        'out ui/notifications/tool-result',
        'in tools/call',
      ]),
    );
    // The view heard nothing before it said it was initialized (the proxy's own sandbox-* aside).
    const firstOut = uiMethods.findIndex((m) => m.startsWith('out ui/notifications/') && !m.includes('/sandbox-'));
    expect(firstOut).toBeGreaterThan(uiMethods.indexOf('in ui/notifications/initialized'));
  }, 90_000);

  it('--once stops by itself once the view has its result', async () => {
    const { cli } = startPreview(['--once', '--json']);
    const page = await watchedPage(browser);
    await page.goto(await printedUrl(cli));
    const ended = await cli.done;
    expect(ended.code, ended.stderr).toBe(0);
    const lines = ended.stdout.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ ok: true, result: { tool: 'show_weather', delivered: true } });
  }, 90_000);

  it('names the tools the server has when TOOL is not one', async () => {
    const run = await startPreview([], 'nope').cli.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('server "weather" has no tool "nope" (it has show_weather, refresh)');
    expect(run.stdout).toBe('');
  });
});
