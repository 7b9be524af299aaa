/**
 * `mcpwire proxy` as a host would use it: the host's config names `mcpwire proxy … -- <server>`
 * instead of the server. The host (our client here) must not notice: same answers, the server's
 * stderr passed through, the proxy exits as the server did; the trace file has every frame.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { CLI, EVERYTHING, requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { everythingOverHttp, type HttpServerProcess } from './support/http-servers.js';
import { FIXTURES } from './support/processes.js';
import { until } from './support/wait.js';
import { endAll } from './support/end-all.js';
import { useTempDir } from './support/temp-dir.js';
import { readJsonl } from './support/jsonl.js';

const node = process.execPath;
const tmp = useTempDir('mcpwire-proxy-');
let http: HttpServerProcess | undefined;

beforeAll(() => requireBuiltCli());
afterEach(async () => void ([http] = await endAll([http, 'stop'])));

function readTrace(file: string): TraceRecord[] {
  return readJsonl<TraceRecord>(file);
}

describe('mcpwire proxy (stdio)', () => {
  it('a client through the proxy sees what it would see directly, and every frame is recorded', async () => {
    const file = path.join(tmp.dir, 'trace.jsonl');
    const direct = await McpClient.connect({ command: node, args: [SCRIPTED] });
    const proxied = await McpClient.connect({
      command: node,
      args: [CLI, 'proxy', '--trace-file', file, '--', node, SCRIPTED],
    });
    try {
      expect(proxied.protocolVersion).toBe(direct.protocolVersion);
      expect(proxied.serverInfo).toEqual(direct.serverInfo);
      expect(await proxied.listTools()).toEqual(await direct.listTools());
      expect(await proxied.callTool('add', { a: 2, b: 3 })).toEqual(await direct.callTool('add', { a: 2, b: 3 }));
    } finally {
      await direct.close();
      await proxied.close();
    }
    const records = readTrace(file);
    const frames = records.filter((r) => r.kind !== 'event');
    expect(frames.filter((r) => r.dir === 'out' && r.kind === 'request').map((r) => r.method)).toEqual([
      'server/discover',
      'ping',
      'initialize',
      'tools/list',
      'tools/call',
    ]);
    const call = frames.find((r) => r.dir === 'in' && r.method === 'tools/call')!;
    expect(call).toMatchObject({ kind: 'response', protocolVersion: '2025-11-25' });
    expect(call.latencyMs).toBeGreaterThanOrEqual(0);
    expect(records.map((r) => r.event).filter(Boolean)).toEqual(expect.arrayContaining(['spawn', 'exit']));
  });

  it('exits with the server’s exit code and passes its stderr through', async () => {
    const run = await runCli(['proxy', '--', node, path.join(FIXTURES, 'stdio/exits-with-code.mjs'), '3']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('fatal: could not open database');
    expect(run.stdout).toBe('');
  });

  it('--trace prints frames to stderr while stdout carries only the server’s bytes', async () => {
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } } })}\n`;
    const child = spawn(node, [CLI, 'proxy', '--trace', '--', node, EVERYTHING, 'stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdin.write(request);
    await until(() => out.includes('\n'), { timeoutMs: 15_000, what: 'the first line on stdout' });
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const answer = JSON.parse(out.split('\n')[0]!) as { id: number; result: { serverInfo: { name: string } } };
    expect(answer.id).toBe(1);
    expect(err).toMatch(/→ request initialize #1/);
    expect(err).toMatch(/← response initialize #1 [\d.]+ms/);
  });
});

describe('mcpwire proxy (HTTP)', () => {
  it('prints its URL, forwards a whole session, records it, and stops on SIGINT', async () => {
    http = await everythingOverHttp('streamableHttp');
    const file = path.join(tmp.dir, 'http.jsonl');
    const child = spawn(node, [CLI, 'proxy', '--url', http.url, '--listen', '127.0.0.1:0', '--trace-file', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    await until(() => out.includes('\n'), { timeoutMs: 15_000, what: 'the first line on stdout' });
    const url = out.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await McpClient.connect({ url });
    try {
      expect((await client.callTool('echo', { message: 'through' })).content).toEqual([
        { type: 'text', text: 'Echo: through' },
      ]);
    } finally {
      await client.close();
    }
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const records = readTrace(file);
    const call = records.find((r) => r.dir === 'in' && r.method === 'tools/call')!;
    expect(call.http).toMatchObject({ status: 200 });
    expect(call.http?.headers?.['mcp-session-id']).toBeTruthy();
  });
});
