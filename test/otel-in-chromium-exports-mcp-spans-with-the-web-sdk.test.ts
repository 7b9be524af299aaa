/**
 * `mcpwire/otel` in Debian's Chromium with the OpenTelemetry web SDK (2.x): a page bundled by
 * esbuild for the browser (`test/support/otel-web-page.ts`) sets up `WebTracerProvider` with a
 * batched OTLP/HTTP JSON exporter, calls `instrument()`, and runs mcpwire's client against a kit
 * server on an in-memory pair. The OTLP receiver (another loopback origin, CORS on) gets the
 * spans named and attributed by OpenTelemetry's MCP conventions: CLIENT and SERVER spans for the
 * handshake and each tool call, the SERVER span the CLIENT span's child through `params._meta`,
 * the CLIENT span the child of the page's own active span, a tool error classified on both sides.
 * mcpwire's channels there are subscriber lists (no `node:diagnostics_channel`); no page error,
 * no request to anything but loopback.
 *
 * The page bundles with no Node built-in at all (esbuild refuses one for the browser platform).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop as stopEsbuild } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { ATTR } from '../src/util/mcp-semconv.js';
import { launchBrowser, watchedPage } from './support/browser.js';
import { serveNode } from './support/mounts.js';
import type { OtelPageRun } from './support/otel-web-page.js';
import { attributesOf, startOtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { within } from './support/wait.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = path.join(ROOT, 'test/support/otel-web-page.ts');

let browser: Browser | undefined;
let script = '';
beforeAll(async () => {
  const bundled = await build({
    entryPoints: [PAGE],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    // package.json's `sideEffects` names dist files: from src, keep what entries run on loading
    // (src/server/neutral.ts installs the schema engine that needs no code generation).
    ignoreAnnotations: true,
  });
  script = bundled.outputFiles[0]!.text;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stopEsbuild();
});

function one(spans: ReceivedSpan[], name: string, kind: number): ReceivedSpan {
  const found = spans.filter((s) => s.name === name && s.kind === kind);
  expect(found, `${name} (kind ${kind}) among ${spans.map((s) => `${s.name}/${s.kind}`).join(', ')}`).toHaveLength(1);
  return found[0]!;
}

const SERVER = 2;
const CLIENT = 3;
const STATUS_ERROR = 2;

it('exports CLIENT and SERVER spans by the MCP conventions from a browser page over OTLP/HTTP JSON', async () => {
  const receiver = await startOtlpReceiver({ cors: true });
  const site = await serveNode((req, res) => {
    if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>otel</title><script type="module" src="/page.js"></script>');
  });
  onTestFinished(() => site.stop());
  const page = await watchedPage(browser!, { consoleErrors: true });

  await page.goto(`${site.origin}/?collector=${encodeURIComponent(receiver.url)}`);
  const run = await within(
    page.evaluate(() => (globalThis as unknown as { otelRun: Promise<OtelPageRun> }).otelRun),
    { timeoutMs: 30_000, what: "the page's MCP exchange and span flush" },
  );
  expect(run.error).toBeUndefined();
  expect(run.echoed).toBe('{"city":"Oslo"}');
  expect(run.refusedIsError).toBe(true);

  const spans = await receiver.waitForSpans((all) =>
    all.some((s) => s.name === 'tools/call refuse' && s.kind === SERVER),
  );
  const sent = one(spans, 'tools/call echo', CLIENT);
  const handled = one(spans, 'tools/call echo', SERVER);
  // The page's span is the CLIENT span's parent; the SERVER span is the CLIENT span's child.
  expect(sent.traceId).toBe(run.turn!.traceId);
  expect(sent.parentSpanId).toBe(run.turn!.spanId);
  expect(handled.traceId).toBe(sent.traceId);
  expect(handled.parentSpanId).toBe(sent.spanId);
  for (const s of [sent, handled]) {
    expect(attributesOf(s.attributes)).toMatchObject({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: 'echo',
      [ATTR.operationName]: 'execute_tool',
      [ATTR.requestId]: expect.any(String),
    });
    expect(s.scope.name).toBe('mcpwire');
    expect(s.status?.code ?? 0).toBe(0);
  }
  expect(JSON.parse(attributesOf(sent.attributes)[ATTR.toolArguments] as string)).toEqual({ city: 'Oslo' });
  for (const kind of [CLIENT, SERVER]) {
    const refused = one(spans, 'tools/call refuse', kind);
    expect(attributesOf(refused.attributes)[ATTR.errorType]).toBe('tool_error');
    expect(refused.status?.code).toBe(STATUS_ERROR);
  }
  one(spans, 'initialize', CLIENT);
  one(spans, 'initialize', SERVER);
  one(spans, 'notifications/initialized', SERVER);
  expect(receiver.requests().every((r) => r.path === '/v1/traces')).toBe(true);
});
