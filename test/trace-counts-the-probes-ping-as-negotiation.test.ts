/**
 * The era probe on stdio is `server/discover` with a `ping` behind it (issue 25, item 2). Both are
 * negotiation in a trace: a run against a silent legacy server (the discover never answered) and
 * one against a 2026-only server (the ping refused with -32601) read back with no error and no
 * open call, and with the probe counted as negotiation.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../src/inspect/report/report-model.js';
import { parseTrace } from '../src/inspect/trace/read-trace.js';
import { pairCalls } from '../src/inspect/trace/trace-calls.js';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';

const OUT_OF_ORDER_MODERN = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'support/out-of-order-modern-server.mjs',
);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
beforeAll(requireBuiltCli);

/** `tools` through a fresh cache (so the probe runs); the trace it recorded, read back. */
async function recorded(server: string[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-probe-trace-'));
  dirs.push(dir);
  const trace = path.join(dir, 'trace.jsonl');
  const run = await runCli(['tools', '--trace-file', trace, '--', ...server], {
    env: { XDG_CACHE_HOME: path.join(dir, 'cache') },
  });
  expect(run.code, run.stderr).toBe(0);
  const errors = await runCli(['trace', 'show', trace, '--errors']);
  expect(errors.code, errors.stderr).toBe(0);
  return { trace: parseTrace(readFileSync(trace, 'utf8')), errorsShown: errors.stdout };
}

describe('the probe and its ping in a trace', () => {
  it.each([
    ['a silent legacy server', [process.execPath, SCRIPTED, '--discover', 'silent']],
    ['a 2026-only server that refuses ping', [process.execPath, OUT_OF_ORDER_MODERN]],
  ])('%s: no error, nothing open, the probe is negotiation', async (_name, server) => {
    const { trace, errorsShown } = await recorded(server);
    const { calls } = pairCalls(trace.records);
    const probe = calls.filter((call) => call.method === 'server/discover' || call.method === 'ping');
    expect(probe.length).toBeGreaterThanOrEqual(2);
    expect(calls.filter((call) => call.status === 'error' || call.status === 'open')).toEqual([]);
    expect(probe.some((call) => call.status === 'negotiation')).toBe(true);
    const report = buildReport(trace.records, 'trace.jsonl');
    expect(report.summary).toMatchObject({ errors: 0, open: 0, orphans: 0 });
    expect(errorsShown).not.toMatch(/\bping\b|server\/discover/);
  });
});
