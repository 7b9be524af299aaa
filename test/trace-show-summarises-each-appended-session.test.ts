/**
 * A trace file that several runs appended to is summarised per session: `splitSessions` tells
 * tracers apart by their clocks (table of appended, short, interleaved and long sessions), and
 * `mcpwire trace show` prints one summary per session of a file two real runs wrote.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { splitSessions } from '../src/inspect/trace/trace-sessions.js';
import { requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';

const W = Date.parse('2026-03-01T10:00:00.000Z');

/** A record of `server` at `t` ms on a tracer that started at wall time `origin`. */
function rec(server: string, origin: number, t: number, method = 'ping'): TraceRecord {
  return {
    v: 1,
    ts: new Date(Math.round(origin + t)).toISOString(),
    t,
    server,
    dir: 'out',
    kind: 'request',
    bytes: 10,
    id: 1,
    method,
  };
}

/** The sessions as [server, t values] pairs. */
function shape(records: TraceRecord[]): Array<[string, number[]]> {
  return splitSessions(records).map((s) => [s.server, s.records.map((r) => r.t)]);
}

describe('splitSessions', () => {
  it('splits two runs of one server appended to one file (t starts again)', () => {
    const records = [
      rec('fs', W, 10.2),
      rec('fs', W, 20.5),
      rec('fs', W, 300.1),
      rec('fs', W + 2_000, 9.7),
      rec('fs', W + 2_000, 15.3),
    ];
    expect(shape(records)).toEqual([
      ['fs', [10.2, 20.5, 300.1]],
      ['fs', [9.7, 15.3]],
    ]);
    // ts has millisecond precision: the start is known to within one.
    const starts = splitSessions(records).map((s) => Date.parse(s.startedAt!));
    expect(Math.abs(starts[0]! - W)).toBeLessThanOrEqual(1);
    expect(Math.abs(starts[1]! - (W + 2_000))).toBeLessThanOrEqual(1);
  });

  it('splits a short run from the next even when t does not go back (the wall clock jumped)', () => {
    const records = [rec('fs', W, 8.1, 'spawn-failed'), rec('fs', W + 150, 11.4), rec('fs', W + 150, 40)];
    expect(shape(records)).toEqual([
      ['fs', [8.1]],
      ['fs', [11.4, 40]],
    ]);
  });

  it('keeps interleaved servers of one run apart, and interleaved runs of one server too', () => {
    const servers = [rec('a', W, 5), rec('b', W + 3, 5), rec('a', W, 9), rec('b', W + 3, 12), rec('a', W, 30)];
    expect(shape(servers)).toEqual([
      ['a', [5, 9, 30]],
      ['b', [5, 12]],
    ]);
    const concurrent = [
      rec('fs', W, 10),
      rec('fs', W + 500, 10),
      rec('fs', W, 700),
      rec('fs', W + 500, 300),
      rec('fs', W, 900),
    ];
    expect(shape(concurrent)).toEqual([
      ['fs', [10, 700, 900]],
      ['fs', [10, 300]],
    ]);
  });

  it('keeps a long session whole when the wall clock drifts slowly against t', () => {
    // 10 ms of drift over an hour, one record a minute: never more than a fraction of a ms apart.
    const records = Array.from({ length: 61 }, (_, i) => rec('fs', W + (i * 10) / 60, i * 60_000));
    expect(splitSessions(records)).toHaveLength(1);
  });

  it('puts records without usable clocks in their server’s latest session', () => {
    const odd = { ...rec('fs', W, 50), ts: 'yesterday' } as TraceRecord;
    expect(shape([rec('fs', W, 10), odd, rec('fs', W, 60)])).toEqual([['fs', [10, 50, 60]]]);
  });
});

describe('mcpwire trace show on a file two runs appended to', () => {
  let dir: string;
  beforeAll(() => requireBuiltCli());
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-trace-sessions-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints one summary per session, each with its own methods and span', async () => {
    const file = path.join(dir, 'appended.jsonl');
    const first = await runCli([
      'call',
      'echo',
      '--arg',
      'text=one',
      '--trace-file',
      file,
      '--',
      process.execPath,
      SCRIPTED,
    ]);
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(['tools', '--trace-file', file, '--', process.execPath, SCRIPTED]);
    expect(second.code, second.stderr).toBe(0);
    const total = readFileSync(file, 'utf8').trim().split('\n').length;

    const run = await runCli(['trace', 'show', file]);
    expect(run.code).toBe(0);
    const blocks = run.stdout.split(/^(?=session \d+ of \d+: )/m).slice(1);
    expect(blocks.map((b) => b.split('\n')[0])).toEqual([
      expect.stringMatching(/^session 1 of 2: scripted-server, started \d{4}-\d\d-\d\dT/),
      expect.stringMatching(/^session 2 of 2: scripted-server, started /),
    ]);
    expect(blocks[0]).toMatch(/^scripted-server\s+tools\/call\s+1\s+0\s/m);
    expect(blocks[1]).not.toMatch(/tools\/call/);
    expect(blocks[1]).toMatch(/^scripted-server\s+tools\/list\s+1\s/m);

    const json = await runCli(['trace', 'show', file, '--json']);
    const sessions = json.json<{
      result: {
        sessions: Array<{
          index: number;
          server: string;
          startedAt: string;
          summary: { records: number; spanMs: number };
        }>;
      };
    }>().result.sessions;
    expect(sessions.map((s) => [s.index, s.server])).toEqual([
      [1, 'scripted-server'],
      [2, 'scripted-server'],
    ]);
    expect(sessions[0]!.summary.records + sessions[1]!.summary.records).toBe(total);
    expect(Date.parse(sessions[1]!.startedAt)).toBeGreaterThan(Date.parse(sessions[0]!.startedAt));
    // Each span is one run's, from its own clock (not the second run's t against the first's).
    for (const s of sessions) expect(s.summary.spanMs).toBeGreaterThan(0);

    const filtered = await runCli(['trace', 'show', file, '--method', 'tools/call', '--json']);
    expect(filtered.json<{ result: { sessions: Array<{ index: number }> } }>().result.sessions).toHaveLength(1);
  });
});
