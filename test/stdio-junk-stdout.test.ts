/**
 * Junk on a stdio server's stdout (log lines, broken JSON, oversized lines, CRLF) is reported as
 * diagnostics and skipped; the messages around it keep flowing.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { eventually, FIXTURES } from './support/processes.js';

const open: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('a server with junk on stdout', () => {
  it('skips and reports junk and oversized lines, and delivers every real message in order', async () => {
    const t = await StdioTransport.spawn(
      {
        command: process.execPath,
        args: [path.join(FIXTURES, 'stdio', 'junk-stdout.mjs')],
        env: { OVERSIZE: '10000' },
      },
      { maxMessageBytes: 4096, name: 'noisy' },
    );
    open.push(t);
    const diagnostics: TransportDiagnostic[] = [];
    t.onDiagnostic((d) => diagnostics.push(d));
    const values: unknown[] = [];
    t.onMessage((v) => values.push(v));

    await t.send({ jsonrpc: '2.0', id: 1, method: 'a', params: { n: 1 } });
    await eventually(() => (values.length === 2 ? true : undefined));
    await t.send({ jsonrpc: '2.0', id: 2, method: 'b', params: { n: 2 } });
    await eventually(() => (values.length === 4 ? true : undefined));

    const notice = (id: number) => ({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: `before ${id}` },
    });
    expect(values).toEqual([
      notice(1),
      { jsonrpc: '2.0', id: 1, result: { echo: { n: 1 } } },
      notice(2),
      { jsonrpc: '2.0', id: 2, result: { echo: { n: 2 } } },
    ]);
    const perRequest = [
      { kind: 'invalid-json', sample: 'Server starting... (this is not JSON)' },
      { kind: 'invalid-json', sample: '{"half": ' },
      { kind: 'oversize', message: 'skipped a 10000-byte message: larger than the 4096-byte limit' },
    ];
    expect(diagnostics).toMatchObject([...perRequest, ...perRequest]);
    expect(diagnostics[2]!.sample).toMatch(/^\{"pad":"x{192}…$/);
    expect(t.stderrTail()).toEqual([]);
  });

  it('keeps a diagnostics listener that throws from breaking the flow, and stops calling a disposed one', async () => {
    const t = await StdioTransport.spawn({
      command: process.execPath,
      args: [path.join(FIXTURES, 'stdio', 'junk-stdout.mjs')],
    });
    open.push(t);
    let disposedCalls = 0;
    const off = t.onDiagnostic(() => disposedCalls++);
    off();
    t.onDiagnostic(() => {
      throw new Error('bad listener');
    });
    const values: unknown[] = [];
    t.onMessage((v) => values.push(v));
    await t.send({ jsonrpc: '2.0', id: 1, method: 'a' });
    await eventually(() => (values.length === 2 ? true : undefined));
    expect(values[1]).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: null } });
    expect(disposedCalls).toBe(0);
  });
});
