/**
 * Debugging HTTP traffic as a user would (issue 25, item 1): four CLI runs through
 * `mcpwire proxy --url … --trace-file` against a real Streamable HTTP server (server-everything,
 * which refuses the era probe with HTTP 400 and an error whose id is null), and a direct
 * `mcpwire tools --url … --trace-file`. Each run is a clean session, and every view of the trace
 * says so: `trace show --json`, the report's model, `--errors`, the HAR export's statuses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readTrace } from '../src/inspect/trace/read-trace.js';
import { buildReport } from '../src/inspect/report/report-model.js';
import type { OperationStats } from '../src/inspect/trace/trace-stats.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import type { Har } from '../src/inspect/export/har.js';
import type { ChromeTrace } from '../src/inspect/export/chrome-trace.js';
import { requireBuiltCli, runCli } from './support/cli.js';
import { everythingOverHttp, modernOverHttp, type HttpServerProcess } from './support/http-servers.js';
import { startHttpProxyCli } from './support/http-proxy-cli.js';
import { endAll } from './support/end-all.js';
import { useTempDir } from './support/temp-dir.js';

const tmp = useTempDir('mcpwire-http-traces-');
let server: HttpServerProcess | undefined;

beforeAll(() => requireBuiltCli());
afterEach(async () => void ([server] = await endAll([server, 'stop'])));

interface ShowJson {
  result: {
    records: TraceRecord[];
    sessions: Array<{ index: number; server: string; summary: { servers: Array<{ errors: number }> } }>;
    latency: { methods: OperationStats[] };
  };
}

/** One CLI run, as a first run: with a cache of its own, so it probes the era (a shared one would remember it). */
async function tools(url: string, ...extra: string[]): Promise<void> {
  const cache = mkdtempSync(path.join(tmp.dir, 'cache-'));
  const run = await runCli(['tools', '--url', url, ...extra], { timeoutMs: 60_000, env: { XDG_CACHE_HOME: cache } });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('echo');
}

/** `runs` runs of `mcpwire tools` through the recording proxy in front of `server`; resolves with the trace file. */
async function throughProxy(runs: number, name: string): Promise<string> {
  const file = path.join(tmp.dir, name);
  const proxy = await startHttpProxyCli(server!.url, file);
  for (let run = 0; run < runs; run++) await tools(proxy.url);
  expect(await proxy.stop()).toBe(0);
  return file;
}

/** What a user reads off a trace: the report's headline, `trace show --json`, `--errors`, the HAR statuses. */
async function views(file: string) {
  const read = await readTrace(file);
  const report = buildReport(read.records, file);
  const show = await runCli(['trace', 'show', file, '--json']);
  expect(show.code, show.stderr).toBe(0);
  const errors = await runCli(['trace', 'show', file, '--errors', '--json']);
  expect(errors.code, errors.stderr).toBe(0);
  const har = await runCli(['trace', 'export', file, '--format', 'har']);
  expect(har.code, har.stderr).toBe(0);
  return {
    read,
    report,
    show: show.json<ShowJson>().result,
    errors: errors.json<ShowJson>().result.records,
    har: JSON.parse(har.stdout) as Har,
  };
}

describe('HTTP traces of clean sessions', () => {
  it('four CLI runs through the proxy are four clean sessions: 0 open, 0 orphans, 0 duplicates, the probe is negotiation', async () => {
    server = await everythingOverHttp('streamableHttp');
    const file = await throughProxy(4, 'proxy.jsonl');

    const { read, report, show, errors, har } = await views(file);
    // Four client sessions, each with a session id of its own from the server.
    expect(show.sessions).toHaveLength(4);
    const sessionIds = new Set(
      read.records.flatMap((r) => (r.dir === 'out' && r.http?.headers?.['mcp-session-id']) || []),
    );
    expect(sessionIds.size).toBe(4);
    for (const session of new Set(read.records.map((r) => r.session))) {
      const ids = new Set(
        read.records.filter((r) => r.session === session).flatMap((r) => r.http?.headers?.['mcp-session-id'] ?? []),
      );
      expect(ids.size, `session ${session} holds one Mcp-Session-Id at most`).toBeLessThanOrEqual(1);
    }
    // Each session starts with the era probe, refused with HTTP 400 (id null), then initialize.
    for (const session of new Set(read.records.filter((r) => r.kind === 'request').map((r) => r.session))) {
      const requests = read.records.filter((r) => r.session === session && r.kind === 'request');
      expect(requests.map((r) => r.method).slice(0, 2)).toEqual(['server/discover', 'initialize']);
    }
    const refusals = read.records.filter((r) => r.kind === 'error');
    expect(refusals).toHaveLength(4);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({
        method: 'server/discover',
        answers: 1,
        negotiation: true,
        http: { status: 400 },
        message: { id: null },
      });
    }

    expect(report.summary).toMatchObject({
      sessions: 4,
      open: 0,
      orphans: 0,
      duplicates: 0,
      errors: 0,
      negotiation: 4,
    });
    expect(report.errors).toEqual([]);
    const probes = report.rows.filter((r) => r.k === 'call' && r.m === 'server/discover');
    expect(probes.map((r) => [r.st, r.http])).toEqual(Array(4).fill(['negotiation', 400]));
    const discover = show.latency.methods.find((m) => m.method === 'server/discover')!;
    expect(discover).toMatchObject({ n: 4, errors: 0, errorRate: 0, unanswered: 0, negotiation: 4 });
    for (const session of show.sessions) expect(session.summary.servers[0]!.errors).toBe(0);
    expect(errors).toEqual([]);

    const posts = har.log.entries.filter((e) => e.request.method === 'POST');
    expect(posts.map((e) => e.response.status).filter((status) => status === 0)).toEqual([]);
    const probeEntries = posts.filter((e) => e.request.postData?.text.includes('server/discover'));
    expect(probeEntries.map((e) => e.response.status)).toEqual([400, 400, 400, 400]);

    const chrome = await runCli(['trace', 'export', file, '--format', 'chrome-trace']);
    expect(chrome.code, chrome.stderr).toBe(0);
    const spans = (JSON.parse(chrome.stdout) as ChromeTrace).traceEvents.filter((e) => e.ph === 'X');
    const statuses = (name: string) =>
      spans.filter((e) => e.name === name).map((e) => (e.args?.http as { status?: number } | undefined)?.status);
    expect(statuses('server/discover')).toEqual([400, 400, 400, 400]);
    expect(statuses('tools/list')).toEqual([200, 200, 200, 200]);

    // The same run as an older proxy wrote it: one tracer for the whole run, nothing marked.
    const start = Date.parse(read.records[0]!.ts);
    const old = path.join(tmp.dir, 'old-proxy.jsonl');
    writeFileSync(
      old,
      read.records
        .map((record) => {
          const { answers: _a, negotiation: _n, ...rest } = record;
          const detail = record.detail && { ...record.detail, id: undefined, request: undefined };
          return JSON.stringify({ ...rest, session: 'one-run', t: Date.parse(record.ts) - start, detail });
        })
        .join('\n'),
    );
    const before = await views(old);
    expect(before.show.sessions).toHaveLength(4);
    expect(before.report.summary).toMatchObject({ sessions: 4, open: 0, orphans: 0, duplicates: 0, errors: 0 });
    expect(before.report.summary.negotiation).toBe(4);
    expect(before.errors).toEqual([]);
    expect(before.har.log.entries.map((e) => e.response.status)).not.toContain(0);
  });

  it('four CLI runs through the proxy against a 2026 server (no session ids, several connections each) are four sessions', async () => {
    server = await modernOverHttp();
    const file = await throughProxy(4, 'modern.jsonl');

    const { report, show, errors, har } = await views(file);
    expect(show.sessions).toHaveLength(4);
    expect(report.summary).toMatchObject({ sessions: 4, open: 0, orphans: 0, duplicates: 0, errors: 0 });
    expect(report.lanes.filter((l) => l.revision === '2026-07-28')).toHaveLength(4);
    expect(errors).toEqual([]);
    const posts = har.log.entries.filter((e) => e.request.method === 'POST');
    // Named by what each unanswered POST carried, so a failure says which exchange lost its answer.
    const unanswered = posts.filter((e) => e.response.status === 0);
    expect(unanswered.map((e) => `${e.comment ?? ''} ${e.request.postData?.text ?? ''}`)).toEqual([]);
  });

  it('runs through the proxy against an HTTP+SSE (2024-11-05) server are a session each, the fall-back included', async () => {
    server = await everythingOverHttp('sse');
    const file = await throughProxy(2, 'sse.jsonl');

    const { report, show, errors } = await views(file);
    expect(show.sessions).toHaveLength(2);
    // The refused probe and the refused Streamable HTTP initialize of each run are negotiation.
    expect(report.summary).toMatchObject({ sessions: 2, open: 0, orphans: 0, errors: 0, invalid: 0, negotiation: 4 });
    expect(errors).toEqual([]);
  });

  it('a direct `tools --url --trace-file` run counts no call open and no error', async () => {
    server = await everythingOverHttp('streamableHttp');
    const file = path.join(tmp.dir, 'direct.jsonl');
    await tools(server.url, '--trace-file', file);

    const { report, show, errors, har } = await views(file);
    expect(report.summary).toMatchObject({ sessions: 1, open: 0, orphans: 0, errors: 0, negotiation: 1 });
    expect(report.rows.find((r) => r.k === 'call' && r.m === 'server/discover')).toMatchObject({
      st: 'negotiation',
      http: 400,
    });
    expect(show.latency.methods.find((m) => m.method === 'server/discover')).toMatchObject({
      errors: 0,
      unanswered: 0,
      negotiation: 1,
    });
    expect(errors).toEqual([]);
    const posts = har.log.entries.filter((e) => e.request.method === 'POST');
    expect(posts.map((e) => e.response.status)).not.toContain(0);
    expect(posts[0]!.response.status).toBe(400);
  });
});
