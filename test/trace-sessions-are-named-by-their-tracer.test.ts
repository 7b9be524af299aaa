/**
 * Every record names the tracer that wrote it (`session`), so a file that two connects of the
 * same server wrote at the same moment (two terminals, two proxies, a host with two clients)
 * splits into exactly their sessions: their clocks start together and move together, which the
 * clock heuristic for older traces cannot tell apart.
 */
import { describe, expect, it } from 'vitest';
import { splitSessions } from '../src/inspect/trace/trace-sessions.js';
import { TraceBuilder } from '../src/observe/trace-builder.js';
import type { TraceRecord } from '../src/observe/trace-record.js';

const request = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { tools: [] } });

describe('trace sessions', () => {
  it('two tracers of one server started together, interleaved in one file, are two sessions', () => {
    const a = new TraceBuilder({ server: 'fs' });
    const b = new TraceBuilder({ server: 'fs' });
    const records: TraceRecord[] = [];
    for (let id = 1; id <= 3; id++) {
      records.push(
        a.frame('out', request(id)),
        b.frame('out', request(id)),
        b.frame('in', answer(id)),
        a.frame('in', answer(id)),
      );
    }
    const sessions = splitSessions(records);
    expect(sessions.map((s) => s.records.length)).toEqual([6, 6]);
    expect(new Set(sessions[0]!.records.map((r) => r.session)).size).toBe(1);
    expect(sessions[0]!.records[0]!.session).not.toBe(sessions[1]!.records[0]!.session);
    // Each session holds its own tracer's requests and answers, in file order.
    expect(sessions[0]!.positions).toEqual([0, 3, 4, 7, 8, 11]);
  });

  it('records without a session id (older traces) are still split by their clocks', () => {
    const old = (t: number, ts: string): TraceRecord => ({
      v: 1,
      ts,
      t,
      server: 'fs',
      dir: 'out',
      kind: 'request',
      bytes: 10,
    });
    const sessions = splitSessions([
      old(0, '2026-01-01T00:00:00.000Z'),
      old(5, '2026-01-01T00:00:00.005Z'),
      old(0, '2026-01-01T00:01:00.000Z'),
    ]);
    expect(sessions.map((s) => s.records.length)).toEqual([2, 1]);
  });
});
