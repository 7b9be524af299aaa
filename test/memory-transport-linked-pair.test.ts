/**
 * The in-memory linked pair: asynchronous delivery of wire copies, in order, buffering before the
 * first listener, and a close on either end that closes both.
 */
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../src/protocol/jsonrpc.js';
import { createLinkedPair } from '../src/transport/memory.js';
import { until, within } from './support/wait.js';

const request = (id: number, params: Record<string, unknown> = {}): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'echo',
  params,
});

describe('createLinkedPair', () => {
  it('delivers what one end sends to the other, asynchronously and in order', async () => {
    const [a, b] = createLinkedPair();
    const got: unknown[] = [];
    const both = new Promise<void>((resolve) => b.onMessage((v) => got.push(v) === 2 && resolve()));
    void a.send(request(1));
    void a.send(request(2));
    expect(got).toEqual([]); // not synchronously
    await within(both, { what: 'two deliveries' });
    expect(got).toEqual([request(1), request(2)]);
  });

  it('works in both directions', async () => {
    const [a, b] = createLinkedPair();
    const atA = new Promise<unknown>((resolve) => a.onMessage(resolve));
    b.onMessage((v) => void b.send({ jsonrpc: '2.0', id: (v as { id: number }).id, result: { ok: true } }));
    await a.send(request(7));
    expect(await within(atA, { what: 'the answer at a' })).toEqual({ jsonrpc: '2.0', id: 7, result: { ok: true } });
  });

  it('delivers a wire copy: no shared references, undefined members dropped', async () => {
    const [a, b] = createLinkedPair();
    const params = { nested: { list: [1, 2] }, gone: undefined };
    const sent = request(1, params);
    const received = new Promise<unknown>((resolve) => b.onMessage(resolve));
    await a.send(sent);
    const copy = (await received) as { params: Record<string, unknown> };
    expect(copy).toEqual(sent);
    expect(copy.params).not.toBe(params);
    expect(copy.params.nested).not.toBe(params.nested);
    expect('gone' in copy.params).toBe(false);
    params.nested.list.push(3);
    expect(copy.params.nested).toEqual({ list: [1, 2] });
  });

  it('keeps what arrives before the first listener and hands it over in order', async () => {
    const [a, b] = createLinkedPair();
    await a.send(request(1));
    await a.send(request(2));
    // Delivery is a microtask: a macrotask later both have reached b's backlog. No time passes.
    await new Promise((r) => setImmediate(r));
    const got: unknown[] = [];
    b.onMessage((v) => got.push(v));
    expect(got).toEqual([request(1), request(2)]);
  });

  it('stops delivering to a disposed listener', async () => {
    const [a, b] = createLinkedPair();
    const got: unknown[] = [];
    const witnessed: unknown[] = [];
    const off = b.onMessage((v) => got.push(v));
    b.onMessage((v) => witnessed.push(v));
    await a.send(request(1));
    await until(() => got.length === 1, { what: 'the first delivery' });
    off();
    off();
    await a.send(request(2));
    // A second listener still registered sees the message the disposed one must not.
    await until(() => witnessed.length === 2, { what: 'the second delivery to the listener still registered' });
    expect(got).toEqual([request(1)]);
  });

  it('rejects a message JSON cannot carry with TRANSPORT, without throwing', async () => {
    const [a] = createLinkedPair();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const sent = a.send(request(1, cyclic));
    await expect(sent).rejects.toMatchObject({ name: 'McpError', code: 'TRANSPORT' });
  });

  it('closes both ends when either closes: closed resolves on both with no error, idempotently', async () => {
    const [a, b] = createLinkedPair();
    await b.close();
    await b.close();
    await a.close();
    await expect(a.closed).resolves.toEqual({});
    await expect(b.closed).resolves.toEqual({});
  });

  it('rejects a send on either end after the close with CONNECTION_CLOSED', async () => {
    const [a, b] = createLinkedPair();
    await a.close();
    await expect(a.send(request(1))).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(b.send(request(1))).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('still delivers a message sent before the close, ahead of the closed notice', async () => {
    const [a, b] = createLinkedPair();
    const order: string[] = [];
    b.onMessage(() => order.push('message'));
    void b.closed.then(() => order.push('closed'));
    void a.send(request(1));
    void a.close();
    await until(() => order.length === 2, { what: 'the message and the closed notice' });
    expect(order).toEqual(['message', 'closed']);
  });

  it('offers diagnostics registration that never fires and can be disposed', () => {
    const [a] = createLinkedPair();
    const off = a.onDiagnostic(() => {
      throw new Error('never');
    });
    expect(typeof off).toBe('function');
    off();
  });
});
