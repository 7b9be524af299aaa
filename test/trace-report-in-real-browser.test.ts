/**
 * `mcpwire trace report` on a real multi-server trace, opened in Debian's chromium. The trace is
 * recorded by `mcpwire proxy --trace-file` in front of two fixture servers, driven by mcpwire's
 * client: a legacy server (2025-06-18, two junk lines on stdout first) with a tool error, a
 * JSON-RPC error, progress, a cancelled call, a configured secret, a payload that tries to break
 * out of the page (`</script><img src=x onerror=…>`), and a crash; the official SDK's v2 server
 * at 2026-07-28 with progress and errors; and that server over Streamable HTTP, reached by
 * one-shot commands with `--trace-file`. The client runs under `mcpwire/otel` on the real
 * OpenTelemetry SDK, so its calls carry W3C traceparents. The page must raise no error, request
 * nothing but its own file, show one lane per server session and one row per request,
 * notification, event and invalid frame, narrow its rows with a filter kept in the URL hash (and
 * restored on reload), open a payload on click, print the same percentiles as
 * `trace show --json`, show each call's trace and span ids, and leave the hostile payload inert
 * text. A trace of ten thousand calls keeps only the rows in view in the DOM and still scrolls
 * and filters to any of them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { OperationStats } from '../src/inspect/trace/trace-stats.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { launchBrowser } from './support/browser.js';
import { CLI, MODERN, requireBuiltCli, runCli } from './support/cli.js';
import { modernOverHttp } from './support/http-servers.js';
import { instrumented } from './support/otel-sdk.js';
import { until } from './support/wait.js';
import { useTempDir } from './support/temp-dir.js';
import { readJsonl } from './support/jsonl.js';

const node = process.execPath;
const JUNK_LEGACY = path.resolve(import.meta.dirname, 'support/junk-then-legacy-server.mjs');
const HOSTILE = '</script><img src=x onerror=alert(1)> \u2028 <!-- & done';
const SECRET = 'sk-report-secret-4711';
// mcpwire/otel on the real SDK: the client puts each call's traceparent into params._meta.
const otel = instrumented();

const tmp = useTempDir('mcpwire-report-');
let browser: Browser | undefined;
beforeAll(async () => {
  requireBuiltCli();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

function records(file: string): TraceRecord[] {
  return readJsonl<TraceRecord>(file);
}

/** The legacy server behind the proxy: errors, progress, a cancel, a secret, the hostile payload, then a crash. */
async function legacySession(file: string): Promise<void> {
  const client = await McpClient.connect(
    {
      command: node,
      args: [
        CLI,
        'proxy',
        '--trace-file',
        file,
        '--env',
        `API_KEY=${SECRET}`,
        '--',
        node,
        JUNK_LEGACY,
        '--version',
        '2025-06-18',
      ],
    },
    { validateOutput: false },
  );
  try {
    await client.callTool('echo', { text: HOSTILE });
    await client.callTool('echo', { text: `key ${SECRET}` });
    expect((await client.callTool('fails', {})).isError).toBe(true);
    await expect(client.callTool('no-such-tool', {})).rejects.toThrow();
    await client.callTool('slow', { ms: 5, steps: 2 }, { onProgress: () => {} });
    const abort = new AbortController();
    const never = client.callTool('never-answer', {}, { signal: abort.signal });
    never.catch(() => undefined);
    await until(
      () => records(file).some((r) => r.dir === 'out' && JSON.stringify(r.message).includes('never-answer')),
      {
        what: 'the never-answer call in the trace',
      },
    );
    abort.abort();
    await expect(never).rejects.toThrow();
    await expect(client.callTool('crash', {})).rejects.toThrow();
  } finally {
    await client.close();
  }
  await until(() => records(file).some((r) => r.event === 'exit'), { what: "the legacy server's exit in the trace" });
}

/** The v2 server over Streamable HTTP, reached by two one-shot commands with `--trace-file`: HTTP statuses. */
async function httpSession(file: string): Promise<void> {
  const server = await modernOverHttp();
  try {
    const listed = await runCli(['tools', '--url', server.url, '--trace-file', file]);
    expect(listed.code, listed.stderr).toBe(0);
    const failed = await runCli(['call', 'fails', '--url', server.url, '--trace-file', file]);
    expect(failed.code, failed.stderr).toBe(5);
  } finally {
    await server.stop();
  }
}

/** The official SDK's v2 server (2026-07-28) behind the proxy: progress, errors of both kinds. */
async function modernSession(file: string): Promise<void> {
  const client = await McpClient.connect({
    command: node,
    args: [CLI, 'proxy', '--trace-file', file, '--', node, MODERN],
  });
  try {
    expect(client.protocolVersion).toBe('2026-07-28');
    await client.callTool('echo', { text: 'modern hello' });
    await client.callTool('add', { a: 2, b: 3 });
    await client.callTool('slow', { ms: 5, steps: 2 }, { onProgress: () => {} });
    expect((await client.callTool('fails', {})).isError).toBe(true);
    await expect(client.callTool('nope', {})).rejects.toThrow();
    await client.callTool('echo', { text: 'traced' });
  } finally {
    await client.close();
  }
  // The proxy writes the server's exit last: the trace is complete once both exits are in.
  await until(() => records(file).filter((r) => r.event === 'exit').length === 2, { what: "the v2 server's exit" });
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
}

/** The page's filter state, from its URL hash. */
const hashParams = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/** Types `text` into the free-text filter and waits until the page applied it (it is in the hash). */
async function filterText(page: Page, text: string): Promise<void> {
  await page.fill('#f-q', text);
  await until(() => hashParams(page).get('q') === text, { what: `the text filter "${text}" in the hash` });
}

const rowCount = (page: Page) =>
  page.locator('#row-count').evaluate((e) => ({
    shown: Number(e.getAttribute('data-shown')),
    total: Number(e.getAttribute('data-total')),
  }));

const STAT_KEYS = ['n', 'p50', 'p90', 'p99', 'max', 'errors', 'errorRate', 'unanswered', 'negotiation'];
/** The latency table as the page shows it (the cells' raw values). */
async function shownStats(page: Page, table: string): Promise<Array<Record<string, unknown>>> {
  const shown: Array<Record<string, unknown>> = [];
  for (const tr of await page.locator(`#${table} tr[data-name]`).all()) {
    const row: Record<string, unknown> = {
      server: await tr.getAttribute('data-server'),
      name: await tr.getAttribute('data-name'),
    };
    for (const k of STAT_KEYS) {
      const v = await tr.locator(`td[data-k="${k}"]`).getAttribute('data-v');
      if (v !== null) row[k] = Number(v);
    }
    shown.push(row);
  }
  return shown;
}

describe('mcpwire trace report in a real browser', () => {
  it('shows a real multi-server trace (both eras, stdio and HTTP, errors, a cancel, a crash) and keeps a hostile payload inert', async () => {
    const file = path.join(tmp.dir, 'servers.jsonl');
    await legacySession(file);
    await modernSession(file);
    await httpSession(file);
    const trace = records(file);
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);

    const report = path.join(tmp.dir, 'report.html');
    const made = await runCli(['trace', 'report', file, '-o', report]);
    expect(made.code, made.stderr).toBe(0);
    const show = await runCli(['trace', 'show', file, '--json']);
    const latency = show.json<{ result: { latency: { methods: OperationStats[]; tools: OperationStats[] } } }>().result
      .latency;

    // What the page must show, counted from the file itself.
    const lanes = new Set(trace.map((r) => `${r.server}\u0000${r.session}`));
    const servers = new Set(trace.map((r) => r.server));
    const items = trace.flatMap((r): Array<Record<string, unknown>> => {
      if (r.kind === 'batch') return r.message as Array<Record<string, unknown>>;
      return r.kind === 'request' || r.kind === 'notification' ? [r.message as Record<string, unknown>] : [];
    });
    const count = (kind: string) => trace.filter((r) => r.kind === kind).length;
    const requests = items.filter((m) => typeof m.method === 'string' && m.id !== undefined).length;
    const notes = items.filter((m) => typeof m.method === 'string' && m.id === undefined).length;
    const expectedRows = requests + notes + count('event') + count('invalid');
    const toolCalls = items.filter((m) => m.method === 'tools/call').length;
    expect(servers.size).toBe(3);
    const statuses = new Map<number, number>();
    for (const r of trace)
      if (r.http?.status !== undefined) statuses.set(r.http.status, (statuses.get(r.http.status) ?? 0) + 1);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(count('invalid')).toBeGreaterThan(0);
    expect(trace.some((r) => r.protocolVersion === '2026-07-28')).toBe(true);
    expect(trace.some((r) => r.protocolVersion === '2025-06-18')).toBe(true);

    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const requested: string[] = [];
    const dialogs: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requested.push(request.url()));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss().catch(() => undefined); // the page may already be gone; nothing to do then
    });
    page.setDefaultTimeout(20_000);
    try {
      const url = pathToFileURL(report).href;
      await open(page, url);
      expect(await page.locator('.lane').count()).toBe(lanes.size);
      expect(await rowCount(page)).toEqual({ shown: expectedRows, total: expectedRows });
      expect(await page.locator('.row').count()).toBeGreaterThan(0);
      expect(await page.locator('[data-k="sessions"] b').textContent()).toBe(String(lanes.size));
      expect(await page.locator('[data-k="invalid"] b').textContent()).toBe(String(count('invalid')));
      // Every HTTP status of the trace, with how often it came.
      const shownStatuses = await page.locator('#http-list li[data-status]').allTextContents();
      expect(shownStatuses).toEqual(
        [...statuses].sort((a, b) => a[0] - b[0]).map(([status, n]) => `HTTP ${status}: ${n}`),
      );

      // The same percentiles as `trace show --json`, per method and per tool.
      const pick = (s: OperationStats) => {
        const { method: _method, ...rest } = s;
        return rest;
      };
      expect(await shownStats(page, 'lat-methods')).toEqual(latency.methods.map(pick));
      expect(await shownStats(page, 'lat-tools')).toEqual(latency.tools.map(pick));
      expect(latency.tools.some((t) => t.name === 'fails' && t.errorRate === 1)).toBe(true);

      // A filter narrows the rows, lives in the hash, and comes back on reload.
      await page.selectOption('#f-method', 'tools/call');
      await until(async () => (await rowCount(page)).shown === toolCalls, { what: 'the tools/call rows' });
      expect(new URL(page.url()).hash).toContain('method=tools%2Fcall');
      await page.selectOption('#f-status', 'error');
      await until(async () => (await rowCount(page)).shown < toolCalls, { what: 'the failed tools/call rows' });
      const failed = (await rowCount(page)).shown;
      expect(failed).toBeGreaterThanOrEqual(4);
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.locator('#f-method').inputValue()).toBe('tools/call');
      expect(await page.locator('#f-status').inputValue()).toBe('error');
      expect((await rowCount(page)).shown).toBe(failed);
      // The cancelled call is unanswered, and the crashed one too.
      await page.selectOption('#f-status', 'open');
      await until(async () => (await rowCount(page)).shown === 2, { what: 'the two unanswered calls' });

      // The hostile payload: found as text, opened on click, shown as text, never run.
      await page.click('#f-clear');
      await filterText(page, 'onerror=alert');
      await until(async () => (await rowCount(page)).shown === 1, { what: 'the one call carrying the payload' });
      await page.click('#rows .row');
      await page.waitForSelector('#viewer .payload');
      expect(await page.locator('#viewer').textContent()).toContain(JSON.stringify(HOSTILE).slice(1, 30));
      expect(await page.locator('#viewer .v-string', { hasText: '<img src=x onerror=alert(1)>' }).count()).toBe(2);

      // Redaction marks are shown as they are.
      await filterText(page, 'key ***');
      await until(async () => (await rowCount(page)).shown === 1, { what: 'the call with the redacted secret' });
      await page.click('#rows .row');
      await until(async () => (await page.locator('#viewer .redacted').count()) >= 2, { what: 'the *** marks' });
      expect(await page.content()).not.toContain(SECRET);

      // The traceparent mcpwire/otel put into the call is shown with it: the client span's trace and span ids.
      const spans = otel.spans('tools/call add');
      expect(spans).toHaveLength(1);
      const { traceId, spanId } = spans[0]!.spanContext();
      await filterText(page, spanId);
      await until(async () => (await rowCount(page)).shown === 1, { what: 'the call carrying that span id' });
      expect(await page.locator('#rows .row .c-trace').textContent()).toBe(traceId.slice(0, 8));
      await page.click('#rows .row');
      await until(
        async () => {
          const facts = (await page.locator('#viewer .facts').textContent()) ?? '';
          return facts.includes(`trace id${traceId}`) && facts.includes(`parent span${spanId}`);
        },
        { what: 'the trace and span ids in the viewer' },
      );

      // Zoom by button, and by the wheel over the timeline.
      const whole = await page.locator('#tl-range').textContent();
      await page.click('#zoom-in');
      const zoomed = await page.locator('#tl-range').textContent();
      expect(zoomed).not.toBe(whole);
      expect(hashParams(page).get('from')).not.toBeNull();
      const box = (await page.locator('#tl').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -400);
      await until(async () => (await page.locator('#tl-range').textContent()) !== zoomed, { what: 'a wheel zoom' });
      await page.click('#zoom-reset');
      expect(await page.locator('#tl-range').textContent()).toBe(whole);
      expect(hashParams(page).get('from')).toBeNull();
      // Dragging across the timeline zooms to that range.
      await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 4 });
      await page.mouse.up();
      await until(async () => (await page.locator('#tl-range').textContent()) !== whole, {
        what: 'a zoom to the range',
      });
      expect(Number(hashParams(page).get('to')) - Number(hashParams(page).get('from'))).toBeGreaterThan(0);

      // Pointing at a bar names it; clicking it opens that call.
      await page.click('#f-clear');
      await page.click('#zoom-reset');
      let named = '';
      for (let x = 4; x < box.width && !named; x += 6) {
        await page.mouse.move(box.x + x, box.y + 20 + 13);
        if (await page.locator('#tl-tip').isVisible()) named = (await page.locator('#tl-tip').textContent()) ?? '';
      }
      expect(named).not.toBe('');
      await page.mouse.down();
      await page.mouse.up();
      await until(async () => named.startsWith(`${await page.locator('#viewer h3').textContent()} \u00b7`), {
        what: `the viewer showing "${named}"`,
      });

      expect(await page.locator('img, [onerror]').count()).toBe(0);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(requested.length).toBeGreaterThan(0);
      for (const url of requested) expect(url.startsWith('file:'), url).toBe(true);
    } finally {
      await page.close();
    }
  }, 180_000);

  it('stays usable with ten thousand calls: only the rows in view are in the page, scrolling and filters reach all', async () => {
    const calls = 10_000;
    const start = Date.UTC(2026, 10, 27, 10);
    const lines: string[] = [];
    for (let i = 1; i <= calls; i++) {
      const server = i % 2 ? 'fs' : 'git';
      const base = { v: 1, server, session: server, bytes: 80, id: i, method: 'tools/call' };
      const t = i * 2;
      const latencyMs = (i % 97) + 0.5;
      const request = {
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'read', arguments: { path: `/x${i}` } },
      };
      const answer = { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `file ${i}` }] } };
      lines.push(
        JSON.stringify({
          ...base,
          ts: new Date(start + t).toISOString(),
          t,
          dir: 'out',
          kind: 'request',
          message: request,
        }),
      );
      const at = t + latencyMs;
      lines.push(
        JSON.stringify({
          ...base,
          ts: new Date(start + at).toISOString(),
          t: at,
          dir: 'in',
          kind: 'response',
          latencyMs,
          message: answer,
        }),
      );
    }
    const file = path.join(tmp.dir, 'many.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const report = path.join(tmp.dir, 'many.html');
    const made = await runCli(['trace', 'report', file, '-o', report]);
    expect(made.code, made.stderr).toBe(0);

    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.setDefaultTimeout(30_000);
    try {
      await open(page, pathToFileURL(report).href);
      expect(await rowCount(page)).toEqual({ shown: calls, total: calls });
      expect(await page.locator('.lane').count()).toBe(2);
      expect(await page.locator('#rows .row').count()).toBeLessThan(100);
      // The keyboard walks the rows.
      await page.click('#rows .row');
      expect(hashParams(page).get('row')).toBe('0');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('j');
      expect(hashParams(page).get('row')).toBe('2');
      expect(await page.locator('#viewer h3').textContent()).toBe('tools/call read #3');
      await page.locator('#rows').evaluate((e) => (e.scrollTop = e.scrollHeight));
      await until(async () => (await page.locator('#rows .row .c-id', { hasText: /^10000$/ }).count()) === 1, {
        what: 'the last call drawn after scrolling to the end',
      });
      expect(await page.locator('#rows .row').count()).toBeLessThan(100);
      await filterText(page, '/x4321"');
      await until(async () => (await rowCount(page)).shown === 1, { what: 'the one call with that path' });
      await page.click('#rows .row');
      await until(async () => ((await page.locator('#viewer').textContent()) ?? '').includes('file 4321'), {
        what: 'its answer in the viewer',
      });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('writes FILE.html beside the trace by default and refuses to overwrite the trace', async () => {
    const file = path.join(tmp.dir, 'small.jsonl');
    writeFileSync(file, readFileSync(path.resolve(import.meta.dirname, '../spec-fixtures/traces/clean-modern.jsonl')));
    const made = await runCli(['trace', 'report', file]);
    expect(made.code, made.stderr).toBe(0);
    expect(existsSync(path.join(tmp.dir, 'small.html'))).toBe(true);
    const refused = await runCli(['trace', 'report', file, '-o', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`would overwrite the trace ${file}`);
    expect(readFileSync(file, 'utf8')).toBe(
      readFileSync(path.resolve(import.meta.dirname, '../spec-fixtures/traces/clean-modern.jsonl'), 'utf8'),
    );
  });
});
