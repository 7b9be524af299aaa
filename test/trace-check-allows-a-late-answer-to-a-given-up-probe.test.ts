/**
 * A slow server (an `npx` start under load) answers the 2026 `server/discover` probe only after
 * the client gave up on it and sent `initialize`: the late answer is the server's right (it never
 * saw a cancel; the probe is never cancelled), so `trace check` reports no violation for it. An
 * answer to an id nobody asked stays a violation.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../src/inspect/trace/trace-check.js';
import { TraceBuilder } from '../src/observe/trace-builder.js';
import type { TraceDirection, TraceRecord } from '../src/observe/trace-record.js';

function traffic(steps: Array<[TraceDirection, unknown]>): TraceRecord[] {
  let clock = 0;
  const builder = new TraceBuilder({ server: 'slow', now: () => (clock += 1) });
  return steps.map(([dir, message]) => builder.frame(dir, message));
}
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const probe: [TraceDirection, unknown] = [
  'out',
  { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } },
];
const initialize: [TraceDirection, unknown] = [
  'out',
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
];
const initialized: [TraceDirection, unknown] = [
  'in',
  {
    jsonrpc: '2.0',
    id: 2,
    result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
  },
];
const notFound = (id: number): [TraceDirection, unknown] => [
  'in',
  { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } },
];

describe('trace check', () => {
  it('accepts the answer to a probe that comes after the client moved on to initialize', () => {
    const violations = checkTrace(traffic([probe, initialize, notFound(1), initialized]));
    expect(violations.filter((v) => v.source === 'rules')).toEqual([]);
  });

  it('still reports an answer to an id the client never sent', () => {
    const violations = checkTrace(traffic([probe, initialize, notFound(1), initialized, notFound(7)]));
    expect(violations.filter((v) => v.source === 'rules').map((v) => v.rule)).toEqual(['jsonrpc.unknown-id']);
  });
});
