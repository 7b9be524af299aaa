/**
 * A stdio server's stderr is split into lines, handed to `onStderr` as they arrive and kept in a
 * bounded ring (`stderrTail()`); it is never read as protocol.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type StdioTransportOptions, StdioTransport } from '../src/transport/stdio/stdio.js';
import { FIXTURES } from './support/processes.js';

const open: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** Starts `node -e script`. */
async function run(script: string, options: StdioTransportOptions = {}): Promise<StdioTransport> {
  const t = await StdioTransport.spawn({ command: process.execPath, args: ['-e', script] }, options);
  open.push(t);
  return t;
}

describe('stderr of a stdio server', () => {
  it('hands each line to onStderr in order and keeps the last ones in a bounded ring', async () => {
    const lines: string[] = [];
    const t = await StdioTransport.spawn(
      { command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'exits-with-code.mjs'), '0'] },
      { onStderr: (l) => lines.push(l), stderrLines: 1 },
    );
    open.push(t);
    await t.closed;
    expect(lines).toEqual(['fatal: could not open database', 'giving up']);
    expect(t.stderrTail()).toEqual(['giving up']);
  });

  it('keeps 50 lines by default, oldest first', async () => {
    const t = await run("for (let i = 1; i <= 60; i++) process.stderr.write('line ' + i + '\\n')");
    await t.closed;
    const tail = t.stderrTail();
    expect(tail).toHaveLength(50);
    expect(tail[0]).toBe('line 11');
    expect(tail[49]).toBe('line 60');
  });

  it('joins lines written in pieces, strips CR, and flushes a last line without a newline at exit', async () => {
    const lines: string[] = [];
    const t = await run(
      "process.stderr.write('par'); setTimeout(() => { process.stderr.write('tial\\r\\nnext\\nno newline'); }, 20)",
      { onStderr: (l) => lines.push(l) },
    );
    await t.closed;
    expect(lines).toEqual(['partial', 'next', 'no newline']);
  });

  it('keeps a multi-byte character split across writes whole', async () => {
    const lines: string[] = [];
    const t = await run(
      "const b = Buffer.from('grüße 😀\\n'); process.stderr.write(b.subarray(0, 4)); setTimeout(() => process.stderr.write(b.subarray(4)), 20)",
      {
        onStderr: (l) => lines.push(l),
      },
    );
    await t.closed;
    expect(lines).toEqual(['grüße 😀']);
  });

  it('never reads stderr as protocol', async () => {
    const values: unknown[] = [];
    const lines: string[] = [];
    const t = await run("process.stderr.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }) + '\\n')", {
      onStderr: (l) => lines.push(l),
    });
    t.onMessage((v) => values.push(v));
    await t.closed;
    expect(lines).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
    expect(values).toEqual([]);
  });

  it('survives an onStderr handler that throws', async () => {
    const t = await StdioTransport.spawn(
      { command: process.execPath, args: [path.join(FIXTURES, 'stdio', 'exits-with-code.mjs'), '4'] },
      {
        onStderr: () => {
          throw new Error('bad handler');
        },
      },
    );
    open.push(t);
    const info = await t.closed;
    expect(info.error?.message).toContain(
      'exited with code 4; last stderr: fatal: could not open database | giving up',
    );
  });
});
