/**
 * The stdio recording proxy with real processes: a scripted host (a Node child) in front of the
 * proxy, the scripted legacy server behind it (wrapped in a logger that saves the exact bytes on
 * its pipes). The host must not notice the proxy: same bytes both ways, same end. The proxy as
 * its own process (as the CLI runs it) for exit codes and signals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/protocol/errors.js';
import { runStdioProxy } from '../src/inspect/proxy/stdio-proxy.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { eventually, FIXTURES, waitUntilGone } from './support/processes.js';
import { useTempDir } from './support/temp-dir.js';

const SUPPORT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support');
const ROOT = path.resolve(SUPPORT, '../..');
const node = process.execPath;

const tmp = useTempDir('mcpwire-proxy-');

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('the stdio proxy between a host and a server', () => {
  it('forwards every byte unchanged both ways and records one record per frame, responses correlated', async () => {
    const initialize = line({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '0' } },
    });
    const echo = Buffer.from(
      line({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'héllo wörld 🌍 日本語' } },
      }),
    );
    const initialized = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
    const batch = '[{"jsonrpc":"2.0","id":3,"method":"ping"}, {"jsonrpc":"2.0","id":4,"method":"tools/list"}]\n';
    const junk = 'this is not json\n';
    const crlf = '{"jsonrpc":"2.0","id":5,"method":"ping"}\r\n';
    // The echo call is cut in the middle of the globe's four UTF-8 bytes, and its second half only
    // leaves the host after the first answer came back: two separate chunks at the proxy.
    const cut = echo.indexOf(Buffer.from('🌍')) + 2;
    const writes = [
      Buffer.concat([Buffer.from(initialize), echo.subarray(0, cut)]),
      Buffer.concat([echo.subarray(cut), Buffer.from(initialized)]),
      Buffer.from(batch),
      Buffer.from(junk),
      Buffer.from(crlf),
    ];
    const script = [
      { write: writes[0] },
      { await: 1 },
      { write: writes[1] },
      { await: 2 },
      { write: writes[2] },
      { await: 3 },
      { write: writes[3] },
      { await: 4 },
      { write: writes[4] },
      { await: 5 },
    ];
    writeFileSync(
      path.join(tmp.dir, 'script.json'),
      JSON.stringify(script.map((s) => ('write' in s ? { write: s.write!.toString('base64') } : s))),
    );

    const host = spawn(
      node,
      [
        path.join(SUPPORT, 'stdio-host.mjs'),
        path.join(tmp.dir, 'script.json'),
        path.join(tmp.dir, 'host-received.bin'),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const hostExit = exitOf(host);
    const records: TraceRecord[] = [];
    const stderr = collect(new PassThrough());
    const result = await runStdioProxy({
      command: node,
      args: [
        path.join(SUPPORT, 'wire-logger.mjs'),
        tmp.dir,
        '--',
        node,
        path.join(FIXTURES, 'legacy/scripted-server.mjs'),
      ],
      input: host.stdout,
      output: host.stdin,
      errorOutput: stderr.stream,
      server: 'scripted',
      onRecord: (record) => records.push(record),
      forwardSignals: [],
    });
    host.stdin.destroy();
    expect(await hostExit).toEqual({ code: 0, signal: null });
    // Stdin EOF from the host reached the server, which exits 0 on it.
    expect(result).toEqual({ exitCode: 0, signal: null });

    const hostWrote = Buffer.concat(writes);
    const hostReceived = readFileSync(path.join(tmp.dir, 'host-received.bin'));
    expect(readFileSync(path.join(tmp.dir, 'server-received.bin')).equals(hostWrote)).toBe(true);
    expect(hostReceived.equals(readFileSync(path.join(tmp.dir, 'server-wrote.bin')))).toBe(true);
    expect(hostReceived.toString('utf8').split('\n').filter(Boolean)).toHaveLength(5);
    expect(hostReceived.toString('utf8')).toContain('héllo wörld 🌍 日本語');

    expect(records[0]).toMatchObject({
      v: 1,
      kind: 'event',
      event: 'spawn',
      server: 'scripted',
      detail: { command: node },
    });
    expect(records.at(-1)).toMatchObject({ kind: 'event', event: 'exit', detail: { code: 0, signal: null } });
    const frames = records.filter((r) => r.kind !== 'event');
    const out = frames.filter((r) => r.dir === 'out');
    expect(out.map((r) => [r.kind, r.id, r.method])).toEqual([
      ['request', 1, 'initialize'],
      ['request', 2, 'tools/call'],
      ['notification', undefined, 'notifications/initialized'],
      ['batch', undefined, undefined],
      ['invalid', undefined, undefined],
      ['request', 5, 'ping'],
    ]);
    // Byte counts are the lines as written, without the newline (the CR of a CRLF line included).
    expect(out.map((r) => r.bytes)).toEqual([
      initialize.length - 1,
      echo.length - 1,
      initialized.length - 1,
      batch.length - 1,
      junk.length - 1,
      crlf.length - 1,
    ]);
    expect(out[1]!.message).toEqual(JSON.parse(echo.toString('utf8')));
    expect(out[4]!.raw).toBe('this is not json');

    const inbound = frames.filter((r) => r.dir === 'in');
    expect(inbound.map((r) => [r.kind, r.id, r.method])).toEqual([
      ['response', 1, 'initialize'],
      ['response', 2, 'tools/call'],
      ['batch', undefined, undefined],
      ['error', undefined, undefined],
      ['response', 5, 'ping'],
    ]);
    // The echo call was recorded only once its second half came, after the first answer.
    expect(records.indexOf(out[1]!)).toBeGreaterThan(records.indexOf(inbound[0]!));
    for (const answer of [inbound[0]!, inbound[1]!, inbound[4]!]) expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(inbound[1]!.protocolVersion).toBe('2025-11-25');
    expect(JSON.stringify(inbound[1]!.message)).toContain('héllo wörld 🌍 日本語');
    expect(inbound.map((r) => r.bytes).reduce((a, b) => a + b + 1, 0)).toBe(hostReceived.length);
    expect(stderr.text()).toBe('');
  });

  it('a throwing onRecord is reported once and forwarding goes on untouched', async () => {
    const input = new PassThrough();
    const output = collect(new PassThrough());
    const errors = collect(new PassThrough());
    const running = runStdioProxy({
      command: node,
      args: [path.join(FIXTURES, 'stdio/echo.mjs')],
      input,
      output: output.stream,
      errorOutput: errors.stream,
      onRecord: () => {
        throw new Error('disk full');
      },
      forwardSignals: [],
    });
    input.write('{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","id":2,');
    input.end('"method":"b","params":{"x":1}}\n');
    expect(await running).toEqual({ exitCode: 0, signal: null });
    expect(output.text()).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"echo":null}}\n{"jsonrpc":"2.0","id":2,"result":{"echo":{"x":1}}}\n',
    );
    expect(errors.text().match(/recording a trace record failed \(disk full\)/g)).toHaveLength(1);
    // The server's own stderr still came through.
    expect(errors.text()).toContain('stdin closed\n');
  });

  it('a command that does not exist rejects with SPAWN_FAILED naming it', async () => {
    const records: TraceRecord[] = [];
    const error = await runStdioProxy({
      command: 'mcpwire-no-such-server',
      input: new PassThrough(),
      onRecord: (r) => records.push(r),
      forwardSignals: [],
    }).catch((e: unknown) => e);
    expect(isMcpError(error, 'SPAWN_FAILED')).toBe(true);
    expect((error as Error).message).toContain('"mcpwire-no-such-server"');
    expect((error as Error).message).toContain('ENOENT');
    expect(records).toMatchObject([
      { kind: 'event', event: 'spawn-failed', detail: { command: 'mcpwire-no-such-server' } },
    ]);
  });

  it('aborting stops the server and resolves with how it ended', async () => {
    const controller = new AbortController();
    const records: TraceRecord[] = [];
    const output = collect(new PassThrough());
    const input = new PassThrough();
    const running = runStdioProxy({
      command: node,
      args: [path.join(FIXTURES, 'stdio/echo.mjs')],
      input,
      output: output.stream,
      errorOutput: new PassThrough(),
      onRecord: (r) => records.push(r),
      signal: controller.signal,
      forwardSignals: [],
    });
    input.write('{"jsonrpc":"2.0","id":1,"method":"up"}\n');
    await eventually(() => (output.text().includes('"id":1') ? true : undefined));
    controller.abort();
    expect(await running).toEqual({ exitCode: null, signal: 'SIGTERM' });
    const pid = (records[0]!.detail as { pid: number }).pid;
    expect(await waitUntilGone(pid)).toBe(true);
  });
});

describe('the proxy as its own process (as the CLI runs it)', () => {
  it('exits with the server exit code and passes its stderr through', async () => {
    const proxy = startCli([node, path.join(FIXTURES, 'stdio/exits-with-code.mjs'), '3']);
    expect(await proxy.exit).toEqual({ code: 3, signal: null });
    expect(proxy.stderr()).toContain('fatal: could not open database\ngiving up\n');
    const records = readTrace();
    expect(records.at(-1)).toMatchObject({ event: 'exit', detail: { code: 3, signal: null } });
    expect(records.filter((r) => r.event === 'stderr').map((r) => r.detail!.line)).toEqual([
      'fatal: could not open database',
      'giving up',
    ]);
  });

  it('SIGTERM to the proxy reaches the server, and the proxy ends as the server did', async () => {
    const proxy = startCli([node, path.join(SUPPORT, 'traps-sigterm.mjs')]);
    await eventually(() => (proxy.stderr().includes('ready\n') ? true : undefined), 15_000);
    proxy.child.kill('SIGTERM');
    // The server trapped it and chose exit code 7: the proxy did not die of the signal itself.
    expect(await proxy.exit).toEqual({ code: 7, signal: null });
    expect(proxy.stderr()).toContain('got SIGTERM\n');
    const records = readTrace();
    expect(records.map((r) => r.event).filter(Boolean)).toEqual(expect.arrayContaining(['spawn', 'signal', 'exit']));
    expect(await waitUntilGone((records[0]!.detail as { pid: number }).pid)).toBe(true);
  });

  it('a server killed by the forwarded signal makes the proxy die of the same signal', async () => {
    const proxy = startCli([node, path.join(FIXTURES, 'stdio/echo.mjs')]);
    proxy.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"up"}\n');
    await eventually(() => (proxy.stdout().includes('"id":1') ? true : undefined), 15_000);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exit).toEqual({ code: null, signal: 'SIGTERM' });
    const records = readTrace();
    expect(records.at(-1)).toMatchObject({ event: 'exit', detail: { code: null, signal: 'SIGTERM' } });
    expect(await waitUntilGone((records[0]!.detail as { pid: number }).pid)).toBe(true);
  });
});

function startCli(command: string[]) {
  const child = spawn(
    node,
    ['--import', 'tsx', path.join(SUPPORT, 'stdio-proxy-cli.ts'), path.join(tmp.dir, 'trace.jsonl'), '--', ...command],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { child, exit: exitOf(child), stdout: () => stdout, stderr: () => stderr };
}

function readTrace(): TraceRecord[] {
  return readFileSync(path.join(tmp.dir, 'trace.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TraceRecord);
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('process did not exit within 20 s'));
    }, 20_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

function collect(stream: PassThrough): { stream: PassThrough; text(): string } {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
