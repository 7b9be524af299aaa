/**
 * The tracing decorator is invisible to the connection above it: it forwards messages (backlog
 * included), diagnostics, close and the transport's flags, reports each frame once (a batch as one
 * record), turns a failed send into an event, and a sink that throws never breaks the traffic.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonRpcMessage } from '../src/protocol/jsonrpc.js';
import type { Transport } from '../src/protocol/transport.js';
import { createLinkedPair } from '../src/transport/memory.js';
import { McpError } from '../src/protocol/errors.js';
import { traceTransport } from '../src/observe/tracing-transport.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { eventually } from './support/processes.js';

const ping: JsonRpcMessage = { jsonrpc: '2.0', id: 1, method: 'ping' };

const opened: Transport[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

function pair(sink: (record: TraceRecord) => void): { traced: Transport; peer: Transport; inner: Transport } {
  const [inner, peer] = createLinkedPair();
  const traced = traceTransport(inner, { server: 'mem', sink });
  opened.push(traced);
  return { traced, peer, inner };
}

/** Everything `transport` delivers from now on (a backlog included), and a bounded wait for the nth value. */
function collect(transport: Transport): { values: unknown[]; nth(n: number): Promise<unknown> } {
  const values: unknown[] = [];
  transport.onMessage((value) => values.push(value));
  return {
    values,
    nth: async (n) => {
      await eventually(() => (values.length >= n ? true : undefined));
      return values[n - 1];
    },
  };
}

describe('the tracing decorator', () => {
  it('forwards both ways, keeps what arrived before the first listener, and records each frame once', async () => {
    const records: TraceRecord[] = [];
    const { traced, peer } = pair((r) => records.push(r));
    const atPeer = collect(peer);
    await traced.send(ping);
    expect(await atPeer.nth(1)).toEqual(ping);
    // The answer arrives before anyone listens to the decorator: kept for the first listener.
    await peer.send({ jsonrpc: '2.0', id: 1, result: {} });
    await eventually(() => (records.length === 2 ? true : undefined));
    expect(await collect(traced).nth(1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(records.map((r) => `${r.dir} ${r.kind} ${r.method}`)).toEqual(['out request ping', 'in response ping']);
    expect(records[1]!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('records an incoming batch as one record', async () => {
    const records: TraceRecord[] = [];
    const { traced, peer } = pair((r) => records.push(r));
    const got = collect(traced);
    const batch = [
      { jsonrpc: '2.0', method: 'notifications/a' },
      { jsonrpc: '2.0', id: 7, method: 'b' },
    ];
    await peer.send(batch as unknown as JsonRpcMessage);
    expect(await got.nth(1)).toEqual(batch);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      dir: 'in',
      kind: 'batch',
      message: batch,
      bytes: Buffer.byteLength(JSON.stringify(batch)),
    });
  });

  it('forwards destroy with its reason, and never copies what the wrapped transport has beyond the Transport contract', async () => {
    const [inner, peer] = createLinkedPair();
    opened.push(peer);
    const extended = Object.assign(Object.create(inner) as Transport, {
      pid: 4242,
      kind: 'stdio',
      onExchange: () => () => undefined,
    });
    const traced = traceTransport(extended, { server: 'x', sink: () => undefined });
    expect('pid' in traced || 'kind' in traced || 'onExchange' in traced).toBe(false);
    const reason = new McpError('TRANSPORT', 'gone');
    traced.destroy(reason);
    await expect(inner.closed).resolves.toEqual({ error: reason });
    await expect(traced.closed).resolves.toEqual({ error: reason });
    await expect(peer.closed).resolves.toEqual({});
  });

  it('a send that fails becomes a send-failed event, and the caller still gets the rejection', async () => {
    const records: TraceRecord[] = [];
    const { traced } = pair((r) => records.push(r));
    const bad = { jsonrpc: '2.0', id: 9, method: 'huge', params: { n: 10n } } as unknown as JsonRpcMessage;
    await expect(traced.send(bad)).rejects.toMatchObject({ code: 'TRANSPORT' });
    await Promise.resolve();
    expect(records).toEqual([
      expect.objectContaining({
        kind: 'event',
        event: 'send-failed',
        dir: 'out',
        detail: expect.objectContaining({ method: 'huge', id: 9, code: 'TRANSPORT' }),
      }),
    ]);
  });

  it('close is forwarded once, resolves closed, and is recorded; sends after it are not called failures', async () => {
    const records: TraceRecord[] = [];
    const { traced, peer } = pair((r) => records.push(r));
    const first = traced.close();
    expect(traced.close()).toBe(first);
    await first;
    expect(await traced.closed).toEqual({});
    expect(await peer.closed).toEqual({});
    await expect(traced.send(ping)).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await Promise.resolve();
    expect(records.map((r) => r.event)).toEqual(['close']);
  });

  it('a sink that throws is reported once on stderr and never reaches the traffic', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { traced, peer } = pair(() => {
      throw new Error('disk on fire');
    });
    const atPeer = collect(peer);
    const got = collect(traced);
    await traced.send(ping);
    expect(await atPeer.nth(1)).toEqual(ping);
    await peer.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(await got.nth(1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const reports = write.mock.calls.filter(([text]) => String(text).includes('disk on fire'));
    expect(reports).toHaveLength(1);
  });
});
