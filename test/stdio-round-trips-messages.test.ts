/**
 * Messages move both ways over a real child's pipes: in order, whole when large, buffered until
 * the first listener registers, and a send never throws.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../src/protocol/jsonrpc.js';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { eventually, FIXTURES } from './support/processes.js';

const open: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function echoServer(): Promise<StdioTransport> {
  const t = await StdioTransport.spawn({ command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'echo.mjs')] });
  open.push(t);
  return t;
}

describe('stdio message flow', () => {
  it('round-trips a message with non-ASCII text', async () => {
    const t = await echoServer();
    const reply = new Promise<unknown>((resolve) => t.onMessage(resolve));
    await t.send({ jsonrpc: '2.0', id: 1, method: 'x', params: { hello: 'wörld €😀' } });
    expect(await reply).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { hello: 'wörld €😀' } } });
  });

  it('delivers many messages sent in one tick, in order', async () => {
    const t = await echoServer();
    const ids: number[] = [];
    t.onMessage((v) => ids.push((v as { id: number }).id));
    const sends = Array.from({ length: 300 }, (_, i) => t.send({ jsonrpc: '2.0', id: i, method: 'x', params: { i } }));
    // The usual case takes no promise per message.
    expect(sends.filter((s) => s === undefined).length).toBeGreaterThan(0);
    await Promise.all(sends.filter((s) => s !== undefined));
    await eventually(() => (ids.length === 300 ? true : undefined));
    expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('moves 4 MiB messages both ways, waiting for the pipe to drain when it is full', async () => {
    const t = await echoServer();
    const big = 'z'.repeat(4 * 1024 * 1024);
    const reply = new Promise<unknown>((resolve) => t.onMessage(resolve));
    const sent = t.send({ jsonrpc: '2.0', id: 1, method: 'x', params: { big } });
    expect(sent).toBeInstanceOf(Promise);
    await sent;
    expect(((await reply) as { result: { echo: { big: string } } }).result.echo.big.length).toBe(big.length);
  });

  it('keeps messages that arrive before the first listener and hands them over in order', async () => {
    // Two messages, then a junk line: once the junk is reported, both messages have been read.
    const script =
      "for (const id of [1, 2]) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'early', params: { id } }) + '\\n'); process.stdout.write('junk\\n'); setInterval(() => {}, 1000)";
    const t = await StdioTransport.spawn(
      { command: process.execPath, args: ['-e', script] },
      { closeTimeouts: { stdinEndMs: 50 } },
    );
    open.push(t);
    let junk = false;
    t.onDiagnostic(() => (junk = true));
    await eventually(() => (junk ? true : undefined));
    const got: unknown[] = [];
    t.onMessage((v) => got.push((v as { params: { id: number } }).params.id));
    expect(got).toEqual([1, 2]);
  });

  it('rejects a message JSON cannot serialise with TRANSPORT, without throwing, and stays usable', async () => {
    const t = await echoServer();
    const bad = { jsonrpc: '2.0', id: 1, method: 'x', params: { n: 1n } } as unknown as JsonRpcMessage;
    let sent: Promise<void> | undefined;
    expect(() => (sent = t.send(bad))).not.toThrow();
    await expect(sent).rejects.toMatchObject({ code: 'TRANSPORT' });
    const reply = new Promise<unknown>((resolve) => t.onMessage(resolve));
    await t.send({ jsonrpc: '2.0', id: 2, method: 'x' });
    expect(await reply).toMatchObject({ id: 2 });
  });
});
