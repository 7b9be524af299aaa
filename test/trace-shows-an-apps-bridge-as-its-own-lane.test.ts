/**
 * MCP Apps bridge traffic (`ui/*` between a host and its view, and the MCP requests a view sends
 * through its host) has a lane of its own in a trace: a real trace file written through the JSONL
 * sink by two `TraceBuilder`s of one server, its MCP session and its bridge (`lane: 'ui'`). Its
 * records carry the lane and the same redaction; the bridge is a session apart; `trace check`
 * leaves it out while still flagging a broken MCP record; `mcpwire trace show` marks it `ui` and
 * `(app bridge)`; the report draws it as `<server> ui #n` (in Debian's chromium too) and keeps it
 * out of the session counts and the latency table.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../src/inspect/report/report-html.js';
import { buildReport } from '../src/inspect/report/report-model.js';
import { readTrace } from '../src/inspect/trace/read-trace.js';
import { jsonlFileSink } from '../src/inspect/trace/sinks.js';
import { checkTrace } from '../src/inspect/trace/trace-check.js';
import { splitSessions } from '../src/inspect/trace/trace-sessions.js';
import { TraceBuilder } from '../src/observe/trace-builder.js';
import { isUiLane, type TraceDirection, type TraceRecord } from '../src/observe/trace-record.js';
import { launchBrowser } from './support/browser.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { useTempDir } from './support/temp-dir.js';

const SECRET = 'sk-bridge-secret-9182';
const tmp = useTempDir('mcpwire-ui-lane-');
beforeAll(() => requireBuiltCli());

const rq = (id: number, method: string, params: unknown) => ({ jsonrpc: '2.0', id, method, params });
const nt = (method: string, params: unknown = {}) => ({ jsonrpc: '2.0', method, params });
const ok = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });

/** Where each kind of record sits in the file {@link writeTrace} writes (0-based record index). */
const BROKEN_TOOLS_LIST = 5;

/**
 * Writes a trace of server `weather` to `file` through the JSONL sink: its MCP session (a
 * 2025-11-25 handshake, a `tools/call`, and a `tools/list` answered with a broken tool) with its
 * app bridge interleaved (the view's `ui/initialize` and its answer, `ui/notifications/initialized`,
 * the host's `ui/notifications/tool-input`, and a `tools/call` the view asks for). Returns the
 * records as written.
 */
async function writeTrace(file: string): Promise<TraceRecord[]> {
  const out = jsonlFileSink(file);
  let clock = 0;
  const now = () => (clock += 1.5);
  const mcp = new TraceBuilder({ server: 'weather', now, secrets: [SECRET] });
  const ui = new TraceBuilder({ server: 'weather', lane: 'ui', now, secrets: [SECRET] });
  const written: TraceRecord[] = [];
  const put = (builder: TraceBuilder, dir: TraceDirection, message: unknown) => {
    const record = builder.frame(dir, message);
    written.push(record);
    out.sink(record);
  };
  const info = { name: 't', version: '1' };
  put(mcp, 'out', rq(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info }));
  put(mcp, 'in', ok(1, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: info }));
  put(mcp, 'out', nt('notifications/initialized'));
  put(mcp, 'out', rq(2, 'tools/call', { name: 'forecast', arguments: { city: 'Oslo' } }));
  put(mcp, 'out', rq(3, 'tools/list', {}));
  // Index 5: a tool whose inputSchema is no object schema (rule result.tools-list).
  put(mcp, 'in', ok(3, { tools: [{ name: 'forecast', inputSchema: { type: 'string' } }] }));
  // The host shows the tool's view; the view starts its bridge (in: view → host).
  put(ui, 'in', rq(1, 'ui/initialize', { protocolVersion: '2026-01-26', appInfo: info, appCapabilities: {} }));
  put(ui, 'out', ok(1, { protocolVersion: '2026-01-26', hostInfo: info, hostCapabilities: {}, hostContext: {} }));
  put(ui, 'in', nt('ui/notifications/initialized'));
  put(mcp, 'in', ok(2, { content: [{ type: 'text', text: 'sunny' }] }));
  put(ui, 'out', nt('ui/notifications/tool-input', { arguments: { city: 'Oslo' } }));
  // The view asks its host for a tool call of its own, carrying a configured secret.
  put(ui, 'in', rq(2, 'tools/call', { name: 'forecast', arguments: { city: 'Bergen', key: SECRET } }));
  put(ui, 'out', ok(2, { content: [{ type: 'text', text: 'rain' }] }));
  await out.close();
  return written;
}

describe('an MCP Apps bridge in a trace', () => {
  it('has its lane on every record, written through the same sink with the same redaction', async () => {
    const file = path.join(tmp.dir, 'trace.jsonl');
    const written = await writeTrace(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    const { records, problems } = await readTrace(file);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(written.length);
    const bridge = records.filter(isUiLane);
    expect(bridge.map((r) => [r.dir, r.kind, r.method])).toEqual([
      ['in', 'request', 'ui/initialize'],
      ['out', 'response', 'ui/initialize'],
      ['in', 'notification', 'ui/notifications/initialized'],
      ['out', 'notification', 'ui/notifications/tool-input'],
      ['in', 'request', 'tools/call'],
      ['out', 'response', 'tools/call'],
    ]);
    expect(bridge.every((r) => r.lane === 'ui' && r.v === 1)).toBe(true);
    // MCP records carry no lane field at all.
    expect(records.filter((r) => !isUiLane(r)).every((r) => !('lane' in r))).toBe(true);
    expect(JSON.stringify(bridge[4]!.message)).toContain('"key":"***"');
    // The bridge's answers are paired within the bridge: latency measured, method named.
    expect(bridge[5]!.latencyMs).toBeGreaterThan(0);
  });

  it('is a session of its own, apart from the MCP session of the same server', async () => {
    const file = path.join(tmp.dir, 'trace.jsonl');
    await writeTrace(file);
    const { records } = await readTrace(file);
    const sessions = splitSessions(records);
    expect(sessions.map((s) => [s.index, s.server, s.lane, s.records.length])).toEqual([
      [1, 'weather', undefined, 7],
      [2, 'weather', 'ui', 6],
    ]);
    expect(sessions[1]!.records.every(isUiLane)).toBe(true);
    // Without session ids (an older recorder), the clocks agree, yet the lane still splits them.
    const unnamed = records.map(({ session: _session, ...rest }) => rest as TraceRecord);
    expect(splitSessions(unnamed).map((s) => [s.lane, s.records.length])).toEqual([
      [undefined, 7],
      ['ui', 6],
    ]);
  });

  it('is left out by trace check, which still flags the broken MCP record', async () => {
    const file = path.join(tmp.dir, 'trace.jsonl');
    await writeTrace(file);
    const { records, lines } = await readTrace(file);
    const violations = checkTrace(records, { lines });
    expect(violations.map((v) => [v.index, v.rule])).toEqual([[BROKEN_TOOLS_LIST, 'result.tools-list']]);
    // The same records without their lane are judged as MCP and break rules: the lane is what spares them.
    const unmarked = records.map(({ lane: _lane, ...rest }) => rest as TraceRecord);
    const bridgeIndices = new Set(records.flatMap((r, i) => (isUiLane(r) ? [i] : [])));
    expect(checkTrace(unmarked).some((v) => bridgeIndices.has(v.index))).toBe(true);

    const run = await runCli(['trace', 'check', file, '--json']);
    expect(run.code, run.stderr).toBe(5);
    const result = run.json<{
      error: { violations: Array<{ rule: string; line: number }> };
    }>();
    expect(result.error.violations.map((v) => [v.line, v.rule])).toEqual([
      [BROKEN_TOOLS_LIST + 1, 'result.tools-list'],
    ]);
    const text = await runCli(['trace', 'check', file]);
    expect(text.stdout).toContain('note: 6 MCP Apps bridge records (ui lane) not checked');
    expect(text.stdout).toContain('1 violation(s) in 7 message(s)');
  });

  it('is marked ui in mcpwire trace show, and its session is the app bridge', async () => {
    const file = path.join(tmp.dir, 'trace.jsonl');
    await writeTrace(file);
    const run = await runCli(['trace', 'show', file]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.find((l) => l.includes('ui/initialize') && l.includes('request'))).toMatch(
      /^\+\d+\.\d{3}s weather ui ← request ui\/initialize #1 /,
    );
    expect(lines.find((l) => l.includes('tool-input'))).toMatch(
      / weather ui → notification ui\/notifications\/tool-input/,
    );
    expect(lines.find((l) => l.includes('tools/list') && l.includes('request'))).toMatch(
      / weather → request tools\/list/,
    );
    expect(lines.filter((l) => / weather ui [←→] /.test(l))).toHaveLength(6);
    expect(lines.filter((l) => l.startsWith('session '))).toEqual([
      expect.stringMatching(/^session 1 of 2: weather, started /),
      expect.stringMatching(/^session 2 of 2: weather \(app bridge\), started /),
    ]);

    const json = await runCli(['trace', 'show', file, '--json']);
    const result = json.json<{
      result: { sessions: Array<{ lane?: string }>; latency: { methods: Array<{ name: string; n: number }> } };
    }>().result;
    expect(result.sessions.map((s) => s.lane)).toEqual([undefined, 'ui']);
    expect(result.latency.methods.map((m) => m.name)).not.toContain('ui/initialize');
    expect(result.latency.methods.find((m) => m.name === 'tools/call')?.n).toBe(1);
  });

  it('is its own lane in the report: counted as an app bridge, not a session, and out of the latency table', async () => {
    const file = path.join(tmp.dir, 'trace.jsonl');
    await writeTrace(file);
    const { records } = await readTrace(file);
    const data = buildReport(records, file);
    expect(data.lanes.map((l) => [l.server, l.session, l.lane])).toEqual([
      ['weather', 1, undefined],
      ['weather', 2, 'ui'],
    ]);
    expect(data.summary).toMatchObject({ sessions: 1, uiSessions: 1 });
    expect(data.summary.servers).toEqual([{ name: 'weather', sessions: 1, revisions: ['2025-11-25'] }]);
    const methods = data.latency.methods.map((m) => [m.name, m.n]);
    expect(methods).toEqual(expect.arrayContaining([['tools/call', 1]]));
    expect(methods.map(([name]) => name)).not.toContain('ui/initialize');
    expect(data.latency.tools.map((t) => [t.name, t.n])).toEqual([['forecast', 1]]);
    // The bridge's rows stay on the timeline, in their lane.
    expect(data.rows.filter((r) => r.lane === 1).map((r) => r.m)).toEqual(
      expect.arrayContaining(['ui/initialize', 'ui/notifications/tool-input', 'tools/call']),
    );
    // Without a bridge there is no uiSessions to count.
    expect(
      buildReport(
        records.filter((r) => !isUiLane(r)),
        file,
      ).summary.uiSessions,
    ).toBe(0);

    const report = path.join(tmp.dir, 'report.html');
    const made = await runCli(['trace', 'report', file, '-o', report]);
    expect(made.code, made.stderr).toBe(0);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.setDefaultTimeout(20_000);
      await page.goto(pathToFileURL(report).href);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.locator('#lane-labels .lane').allTextContents()).toEqual([
        'weather #1 2025-11-25',
        'weather ui #2',
      ]);
      const styleOf = (selector: string) =>
        page.locator(selector).evaluate((node) => {
          // The page's own getComputedStyle (the test's type library has no DOM).
          type Style = { borderLeftStyle: string; color: string };
          const style = (globalThis as unknown as { getComputedStyle(n: unknown): Style }).getComputedStyle(node);
          return `${style.borderLeftStyle} ${style.color}`;
        });
      expect(await styleOf('.lane.ui')).not.toBe(await styleOf('.lane:not(.ui)'));
      expect(await page.locator('[data-k="sessions"] b').textContent()).toBe('1');
      expect(await page.locator('[data-k="app bridges"] b').textContent()).toBe('1');
      expect(await page.locator('#lat-methods').textContent()).not.toContain('ui/initialize');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
    // The page as the library renders it carries the same style.
    expect(renderReport(records, file)).toContain('.lane.ui {');
  }, 60_000);
});
