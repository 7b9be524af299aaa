/**
 * The test kit's RecordingTransport: it records both directions once each, keeps the inner
 * transport's buffering contract, and proves (or disproves) that what was sent is valid.
 */
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../src/protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../src/protocol/transport.js';
import { RecordingTransport } from './kit/recording-transport.js';
import { hasSchema, missingSchemaMessage } from './kit/spec-schemas.js';

/** A minimal inner transport: what is sent lands in `outbox`; `push` plays an inbound value. */
class ProbeTransport implements Transport {
  readonly outbox: JsonRpcMessage[] = [];
  private readonly listeners = new Set<(value: unknown) => void>();
  private readonly diagnostics = new Set<(d: TransportDiagnostic) => void>();
  private readonly pending: unknown[] = [];
  private resolveClosed!: (info: CloseInfo) => void;
  readonly closed = new Promise<CloseInfo>((resolve) => (this.resolveClosed = resolve));
  closeCalls = 0;

  async send(message: JsonRpcMessage): Promise<void> {
    this.outbox.push(message);
  }
  onMessage(listener: (value: unknown) => void): Disposer {
    this.listeners.add(listener);
    for (const value of this.pending.splice(0)) listener(value);
    return () => this.listeners.delete(listener);
  }
  onDiagnostic(listener: (d: TransportDiagnostic) => void): Disposer {
    this.diagnostics.add(listener);
    return () => this.diagnostics.delete(listener);
  }
  push(value: unknown): void {
    if (this.listeners.size === 0) this.pending.push(value);
    for (const listener of this.listeners) listener(value);
  }
  diagnose(d: TransportDiagnostic): void {
    for (const listener of this.diagnostics) listener(d);
  }
  destroyCalls = 0;
  destroy(): void {
    this.destroyCalls++;
  }

  async close(): Promise<void> {
    this.closeCalls += 1;
    this.resolveClosed({});
  }
}

describe('recording', () => {
  it('records sends and receipts in order with direction, sequence and timestamp, and forwards both', async () => {
    const inner = new ProbeTransport();
    const recorder = new RecordingTransport(inner);
    const seen: unknown[] = [];
    recorder.onMessage((value) => seen.push(value));
    const before = Date.now();
    await recorder.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    inner.push({ jsonrpc: '2.0', id: 1, result: {} });
    expect(inner.outbox).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(seen).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(recorder.log.map((r) => [r.direction, r.seq])).toEqual([
      ['sent', 0],
      ['received', 1],
    ]);
    expect(recorder.sent.map((r) => r.message)).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(recorder.received.map((r) => r.message)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    for (const record of recorder.log) expect(record.at).toBeGreaterThanOrEqual(before);
  });

  it('records an inbound value once however many listeners there are, and buffers until the first one', () => {
    const inner = new ProbeTransport();
    const recorder = new RecordingTransport(inner);
    inner.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const a: unknown[] = [];
    const b: unknown[] = [];
    const offA = recorder.onMessage((value) => a.push(value));
    recorder.onMessage((value) => b.push(value));
    inner.push([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(a).toHaveLength(2);
    expect(b).toHaveLength(1);
    expect(recorder.received).toHaveLength(2);
    offA();
    offA();
    inner.push({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
    expect(a).toHaveLength(2);
    expect(b).toHaveLength(2);
  });

  it('buffers what arrives while every listener is gone and delivers it to the next', () => {
    const inner = new ProbeTransport();
    const recorder = new RecordingTransport(inner);
    const off = recorder.onMessage(() => {});
    off();
    inner.push({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const late: unknown[] = [];
    recorder.onMessage((value) => late.push(value));
    expect(late).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
  });

  it('passes diagnostics, close, destroy and closed through to the inner transport', async () => {
    const inner = new ProbeTransport();
    const recorder = new RecordingTransport(inner);
    const diagnostics: TransportDiagnostic[] = [];
    const off = recorder.onDiagnostic((d) => diagnostics.push(d));
    inner.diagnose({ kind: 'invalid-json', message: 'junk' });
    off();
    inner.diagnose({ kind: 'invalid-json', message: 'more junk' });
    expect(diagnostics.map((d) => d.message)).toEqual(['junk']);
    recorder.destroy();
    expect(inner.destroyCalls).toBe(1);
    await recorder.close();
    expect(inner.closeCalls).toBe(1);
    await expect(recorder.closed).resolves.toEqual({});
  });

  it('clear() forgets the log while sequence numbers keep counting', async () => {
    const recorder = new RecordingTransport(new ProbeTransport());
    await recorder.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    recorder.clear();
    await recorder.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(recorder.log.map((r) => r.seq)).toEqual([1]);
  });
});

const bothEras = hasSchema('2025-11-25') && hasSchema('2026-07-28');
describe.skipIf(!bothEras)(
  bothEras ? 'assertAllSentValid' : missingSchemaMessage(hasSchema('2025-11-25') ? '2026-07-28' : '2025-11-25'),
  () => {
    async function legacyFlow(rootsResult: Record<string, unknown>): Promise<RecordingTransport> {
      const inner = new ProbeTransport();
      const recorder = new RecordingTransport(inner);
      recorder.onMessage(() => {});
      await recorder.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { roots: {} },
          clientInfo: { name: 'mcpwire', version: '0.1.0' },
        },
      });
      inner.push({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      });
      await recorder.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      inner.push({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
      await recorder.send({ jsonrpc: '2.0', id: 'srv-1', result: rootsResult });
      return recorder;
    }

    it('passes a valid legacy flow in both directions', async () => {
      const recorder = await legacyFlow({ roots: [{ uri: 'file:///work', name: 'work' }] });
      expect(() => recorder.assertAllSentValid('2025-11-25')).not.toThrow();
      expect(() => recorder.assertAllReceivedValid('2025-11-25')).not.toThrow();
    });

    it('checks a sent result against the received request with the same id, naming the message', async () => {
      const recorder = await legacyFlow({ folders: [] });
      expect(() => recorder.assertAllSentValid('2025-11-25')).toThrow(
        /recorded sent message #4: client message is invalid for MCP 2025-11-25:\n {2}ListRootsResult: \/result must have required property 'roots'/,
      );
    });

    it('fails a flow that is valid in one era when checked against the other', async () => {
      const recorder = await legacyFlow({ roots: [] });
      expect(() => recorder.assertAllSentValid('2026-07-28')).toThrow(
        /"initialize" is not a client request of 2026-07-28/,
      );
    });
  },
);
