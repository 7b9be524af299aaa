import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonRpcConnection } from '../src/protocol/connection.js';
import { McpError } from '../src/protocol/errors.js';
import { NO_REPLY, Raw, scriptedPair } from './support/scripted-peer.js';
import { until } from './support/wait.js';
import { failureOf } from './support/failure.js';

function setup(options: ConstructorParameters<typeof JsonRpcConnection>[1] = {}) {
  const { clientTransport, peer } = scriptedPair();
  const connection = new JsonRpcConnection(clientTransport, { name: 'demo', ...options });
  return { connection, peer };
}

const isCancel = (id: number) => (m: Record<string, unknown>) =>
  m.method === 'notifications/cancelled' && (m.params as { requestId?: number }).requestId === id;

afterEach(() => {
  vi.useRealTimers();
});

describe('requests and responses', () => {
  it('resolves a request with the matching result and uses a fresh integer id each time', async () => {
    const { connection, peer } = setup();
    peer.on('tools/list', () => ({ tools: [] }));
    await expect(connection.request('tools/list', undefined)).resolves.toEqual({ tools: [] });
    await connection.request('tools/list', undefined);
    const ids = peer.received.map((m) => m.id);
    expect(ids).toEqual([1, 2]);
    expect(connection.pendingCount).toBe(0);
    await connection.close();
  });

  it('rejects with SERVER_ERROR keeping the numeric code and data apart, naming server and method', async () => {
    const { connection, peer } = setup();
    peer.on('tools/call', () => ({ error: { code: -32602, message: 'Unknown tool', data: { tool: 'x' } } }));
    const error = await failureOf(connection.request('tools/call', { name: 'x' }), McpError, {
      code: 'SERVER_ERROR',
      rpcCode: -32602,
      data: { tool: 'x' },
      server: 'demo',
      method: 'tools/call',
    });
    expect((error as Error).message).toBe('server "demo": tools/call failed: Unknown tool (-32602)');
    await connection.close();
  });

  it('fails a request at once when its response arrives malformed', async () => {
    const { connection, peer } = setup();
    peer.on('ping', (m) => new Raw({ jsonrpc: '2.0', id: m.id, result: 'not an object' }));
    await expect(connection.request('ping', undefined)).rejects.toMatchObject({ code: 'PROTOCOL', method: 'ping' });
    await connection.close();
  });

  it('splits an inbound batch and settles every response in it', async () => {
    const { connection, peer } = setup();
    peer.on('ping', () => NO_REPLY);
    const a = connection.request('ping', undefined);
    const b = connection.request('ping', undefined);
    await peer.waitFor((m) => m.id === 2);
    await peer.send([
      { jsonrpc: '2.0', id: 2, result: { n: 2 } },
      { jsonrpc: '2.0', id: 1, result: { n: 1 } },
    ]);
    await expect(a).resolves.toEqual({ n: 1 });
    await expect(b).resolves.toEqual({ n: 2 });
    await connection.close();
  });
});

describe('timeouts', () => {
  it('times out with TIMEOUT, removes the record at once and sends a cancel notice', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { connection, peer } = setup({ defaultTimeoutMs: 1000 });
    peer.on('tools/call', () => NO_REPLY);
    const pending = connection.request('tools/call', { name: 'slow' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    const error = await pending;
    expect(error).toMatchObject({ code: 'TIMEOUT', method: 'tools/call' });
    expect((error as Error).message).toBe('server "demo": tools/call timed out after 1000 ms without a response');
    expect(connection.pendingCount).toBe(0);
    vi.useRealTimers();
    const cancel = await peer.waitFor(isCancel(1));
    expect(cancel).not.toHaveProperty('id');
    await connection.close();
  });

  it('honours a per-request timeoutMs over the default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { connection, peer } = setup({ defaultTimeoutMs: 60_000 });
    peer.on('ping', () => NO_REPLY);
    const pending = connection.request('ping', undefined, { timeoutMs: 50 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    await expect(pending).resolves.toMatchObject({ code: 'TIMEOUT' });
    await connection.close();
  });

  it('ignores a late response for a request that already timed out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { connection, peer } = setup({ defaultTimeoutMs: 100 });
    const diagnostics: string[] = [];
    connection.onDiagnostic((d) => diagnostics.push(d.kind));
    peer.on('ping', () => NO_REPLY);
    const pending = connection.request('ping', undefined).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    await expect(pending).resolves.toMatchObject({ code: 'TIMEOUT' });
    vi.useRealTimers();
    await peer.send({ jsonrpc: '2.0', id: 1, result: {} });
    await until(() => diagnostics.includes('late-response'), { what: 'the late-response diagnostic' });
    await connection.close();
  });

  it('resets the idle timer on progress for that request even without a progress callback', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { connection, peer } = setup({ defaultTimeoutMs: 1000 });
    peer.on('tools/call', () => NO_REPLY);
    const pending = connection.request('tools/call', { name: 'slow' }, { trackProgress: true });
    await vi.advanceTimersByTimeAsync(1);
    const sent = peer.received[0]!;
    const token = ((sent.params as Record<string, unknown>)._meta as Record<string, unknown>).progressToken;
    expect(token).toBe(1);
    for (let i = 1; i <= 5; i++) {
      await vi.advanceTimersByTimeAsync(800);
      await peer.notify('notifications/progress', { progressToken: token as number, progress: i });
      await vi.advanceTimersByTimeAsync(0);
    }
    // 4000 ms have passed, well beyond the 1000 ms idle timeout.
    await peer.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    await expect(pending).resolves.toEqual({ content: [] });
    await connection.close();
  });

  it('passes progress to the callback and enforces the hard cap that progress never extends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { connection, peer } = setup({ defaultTimeoutMs: 1000 });
    peer.on('tools/call', () => NO_REPLY);
    const seen: number[] = [];
    const pending = connection
      .request('tools/call', { name: 'slow' }, { maxTotalTimeoutMs: 2500, onProgress: (p) => seen.push(p.progress) })
      .catch((e: unknown) => e);
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(700);
      await peer.notify('notifications/progress', { progressToken: 1, progress: i, total: 10 });
      await vi.advanceTimersByTimeAsync(0);
    }
    const error = await pending;
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toContain('exceeded its total timeout of 2500 ms');
    expect(seen).toEqual([1, 2, 3]);
    await connection.close();
  });

  it('does not reset on progress when asked not to', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { connection, peer } = setup({ defaultTimeoutMs: 1000 });
    peer.on('tools/call', () => NO_REPLY);
    const pending = connection
      .request('tools/call', { name: 'slow' }, { trackProgress: true, resetTimeoutOnProgress: false })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(600);
    await peer.notify('notifications/progress', { progressToken: 1, progress: 1 });
    await vi.advanceTimersByTimeAsync(400);
    await expect(pending).resolves.toMatchObject({ code: 'TIMEOUT' });
    await connection.close();
  });
});

describe('cancellation', () => {
  it('rejects an aborted request with CANCELLED carrying the reason, distinct from TIMEOUT, and notifies the server', async () => {
    const { connection, peer } = setup();
    peer.on('tools/call', () => NO_REPLY);
    const controller = new AbortController();
    const pending = connection
      .request('tools/call', { name: 'x' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await peer.waitFor((m) => m.method === 'tools/call');
    const reason = new Error('user pressed escape');
    controller.abort(reason);
    const error = await pending;
    expect(error).toMatchObject({ code: 'CANCELLED', cause: reason });
    expect(connection.pendingCount).toBe(0);
    const notice = await peer.waitFor(isCancel(1));
    expect((notice.params as { reason: string }).reason).toBe('cancelled by the client');
    await connection.close();
  });

  it('sends nothing for a request whose signal is already aborted', async () => {
    const { connection, peer } = setup();
    const error = await connection.request('ping', undefined, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    // Whatever the connection had sent arrives before the answer to a later round trip.
    const answer = await peer.roundTrip();
    expect(peer.received).toEqual([answer]);
    await connection.close();
  });

  it('never sends a cancel notice for initialize, nor when the caller opts out', async () => {
    const { connection, peer } = setup();
    peer.on('initialize', () => NO_REPLY).on('server/discover', () => NO_REPLY);
    const a = new AbortController();
    const b = new AbortController();
    const first = connection
      .request(
        'initialize',
        { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        { signal: a.signal },
      )
      .catch(() => 0);
    const second = connection
      .request('server/discover', undefined, { signal: b.signal, sendCancelNotice: false })
      .catch(() => 0);
    await peer.waitFor((m) => m.id === 2);
    a.abort();
    b.abort();
    await Promise.all([first, second]);
    await peer.roundTrip();
    expect(peer.methods()).toEqual(['initialize', 'server/discover']);
    await connection.close();
  });
});

describe('close', () => {
  it('rejects every pending request at once with CONNECTION_CLOSED when the client closes', async () => {
    const { connection, peer } = setup({ defaultTimeoutMs: 60_000 });
    peer.on('tools/call', () => NO_REPLY);
    const calls = [1, 2, 3].map(() => connection.request('tools/call', { name: 'x' }).catch((e: unknown) => e));
    await peer.waitFor((m) => m.id === 3);
    const closing = connection.close();
    const errors = await Promise.all(calls);
    for (const error of errors) expect(error).toMatchObject({ code: 'CONNECTION_CLOSED', method: 'tools/call' });
    await closing;
    expect(connection.close()).toBe(closing);
    await expect(connection.request('ping', undefined)).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('rejects every pending request at once when the peer closes the transport', async () => {
    const { connection, peer } = setup({ defaultTimeoutMs: 60_000 });
    peer.on('tools/call', () => NO_REPLY);
    const call = connection.request('tools/call', { name: 'x' }).catch((e: unknown) => e);
    await peer.waitFor((m) => m.method === 'tools/call');
    await peer.transport.close();
    await expect(call).resolves.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await connection.closed;
  });
});

describe('inbound requests and notifications', () => {
  it('answers a registered server request with its handler result and unknown methods with -32601', async () => {
    const { connection, peer } = setup();
    connection.onRequest('roots/list', () => ({ roots: [{ uri: 'file:///tmp' }] }));
    await peer.send({ jsonrpc: '2.0', id: 'a', method: 'roots/list' });
    await peer.send({ jsonrpc: '2.0', id: 'b', method: 'nope/nope' });
    expect(await peer.waitFor((m) => m.id === 'a')).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      result: { roots: [{ uri: 'file:///tmp' }] },
    });
    expect(await peer.waitFor((m) => m.id === 'b')).toMatchObject({ error: { code: -32601 } });
    await connection.close();
  });

  it('maps handler failures to JSON-RPC errors, keeping an McpError rpcCode and data', async () => {
    const { connection, peer } = setup();
    connection.onRequest('a', () => {
      throw new Error('boom');
    });
    connection.onRequest('b', () => {
      throw new McpError('SERVER_ERROR', 'nope', { rpcCode: -32042, data: { x: 1 } });
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'a' });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'b' });
    expect(await peer.waitFor((m) => m.id === 1)).toMatchObject({ error: { code: -32603, message: 'boom' } });
    expect(await peer.waitFor((m) => m.id === 2)).toMatchObject({ error: { code: -32042, data: { x: 1 } } });
    await connection.close();
  });

  it('aborts a handler the server cancels and sends no answer for it', async () => {
    const { connection, peer } = setup();
    let aborted = false;
    connection.onRequest(
      'sampling/createMessage',
      (_p, ctx) =>
        new Promise((resolve) => ctx.signal.addEventListener('abort', () => ((aborted = true), resolve({})))),
    );
    await peer.send({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} });
    await peer.notify('notifications/cancelled', { requestId: 7 });
    await until(() => aborted, { what: "the handler's abort" });
    // The handler settled on abort; an answer to it would arrive before the round trip's.
    await peer.roundTrip();
    expect(peer.received.find((m) => m.id === 7)).toBeUndefined();
    await connection.close();
  });

  it('dispatches notifications to exact and wildcard subscribers until disposed', async () => {
    const { connection, peer } = setup();
    const exact: unknown[] = [];
    const any: string[] = [];
    const off = connection.onNotification('notifications/message', (p) => exact.push(p));
    connection.onNotification('*', (_p, method) => any.push(method));
    await peer.notify('notifications/message', { level: 'info', data: 1 });
    await until(() => exact.length >= 1 && any.length >= 1, { what: 'the first notification' });
    off();
    off();
    await peer.notify('notifications/message', { level: 'info', data: 2 });
    // Both subscribers get a notification in the same dispatch: once `*` has the second, so would `exact`.
    await until(() => any.length >= 2, { what: 'the second notification' });
    expect(exact).toEqual([{ level: 'info', data: 1 }]);
    expect(any).toEqual(['notifications/message', 'notifications/message']);
    await connection.close();
  });
});
