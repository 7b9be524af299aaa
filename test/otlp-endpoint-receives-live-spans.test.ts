/**
 * `--otlp-endpoint URL`: the spans of traced traffic sent live to an OTLP/HTTP receiver (a real
 * `node:http` one on 127.0.0.1), from `mcpwire proxy` and from a client command; and an endpoint
 * that is dead or hangs never stops the proxied traffic nor holds the exit for long.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { McpServer } from '../src/server/index.js';
import { ATTR, EXECUTE_TOOL, TOOL_ERROR } from '../src/util/mcp-semconv.js';
import { CLI, requireBuiltCli, runCli, SCRIPTED } from './support/cli.js';
import { startKitHttp } from './support/kit-http.js';
import { KIT_STDIO_SERVER } from './support/kit-stdio.js';
import { attributesOf, startOtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { freePort } from './support/ports.js';
import { startRawStdioServer } from './support/raw-stdio-server.js';
import { until } from './support/wait.js';

const node = process.execPath;

beforeAll(() => requireBuiltCli());

const named = (spans: ReceivedSpan[], name: string) => spans.find((s) => s.name === name);

describe('--otlp-endpoint', () => {
  it('mcpwire proxy sends a span per proxied request, named and attributed by the conventions', async () => {
    const receiver = await startOtlpReceiver();
    const stderr: string[] = [];
    const client = await McpClient.connect(
      {
        command: node,
        args: [
          CLI,
          'proxy',
          '--otlp-endpoint',
          receiver.url,
          '--otlp-header',
          'X-Api-Key: k3y-never-printed',
          '--',
          node,
          SCRIPTED,
        ],
      },
      { onStderr: (line) => stderr.push(line) },
    );
    try {
      expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'hi' }]);
      expect((await client.callTool('fails', {})).isError).toBe(true);
    } finally {
      await client.close();
    }
    const spans = await receiver.waitForSpans(
      (all) => named(all, 'tools/call echo') !== undefined && named(all, 'tools/call fails') !== undefined,
    );
    const echo = named(spans, 'tools/call echo')!;
    expect(echo).toMatchObject({ kind: 3, status: { code: 0 }, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(attributesOf(echo.attributes)).toMatchObject({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: 'echo',
      [ATTR.operationName]: EXECUTE_TOOL,
      [ATTR.networkTransport]: 'pipe',
      [ATTR.protocolVersion]: expect.any(String),
    });
    expect(attributesOf(echo.resource)).toMatchObject({ 'service.name': 'mcpwire' });
    expect(echo.scope.name).toBe('mcpwire');
    const fails = named(spans, 'tools/call fails')!;
    expect(fails.status?.code).toBe(2);
    expect(attributesOf(fails.attributes)[ATTR.errorType]).toBe(TOOL_ERROR);
    expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(['initialize', 'notifications/initialized']));
    // The header went to the receiver, and nowhere else.
    const posts = receiver.requests();
    expect(posts.every((r) => r.path === '/v1/traces')).toBe(true);
    expect(posts[0]?.headers['x-api-key']).toBe('k3y-never-printed');
    expect(posts[0]?.headers['content-type']).toBe('application/json');
    expect(stderr.join('\n')).not.toContain('k3y');
    expect(JSON.stringify(spans)).not.toContain('k3y');
  });

  it('mcpwire proxy --url sends the spans of HTTP traffic, with the server address and the legacy session id', async () => {
    const receiver = await startOtlpReceiver();
    const server = new McpServer({ name: 'kit', version: '1.0.0' });
    server.registerTool({
      name: 'echo',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: 'echo' }] }),
    });
    const kit = await startKitHttp(server);
    const proxy = spawn(node, [CLI, 'proxy', '--url', kit.url, '--otlp-endpoint', receiver.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = new Promise<number | null>((resolve) => proxy.once('close', resolve));
    onTestFinished(async () => {
      proxy.kill('SIGKILL');
      await closed;
    });
    let out = '';
    proxy.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    await until(() => out.includes('\n'), { timeoutMs: 15_000, what: "the proxy's URL" });
    const client = await McpClient.connect({ url: out.trim() }, { era: 'legacy' });
    try {
      await client.callTool('echo', {});
    } finally {
      await client.close();
    }
    proxy.kill('SIGINT');
    expect(await closed).toBe(0);
    const spans = await receiver.waitForSpans((all) => named(all, 'tools/call echo') !== undefined);
    expect(attributesOf(named(spans, 'tools/call echo')!.attributes)).toMatchObject({
      [ATTR.networkTransport]: 'tcp',
      [ATTR.networkProtocolName]: 'http',
      [ATTR.serverAddress]: '127.0.0.1',
      [ATTR.serverPort]: kit.port,
      [ATTR.sessionId]: expect.any(String),
      [ATTR.protocolVersion]: '2025-11-25',
    });
  });

  it('a client command (call, 2026-07-28 on the kit) sends its spans too', async () => {
    const receiver = await startOtlpReceiver();
    const run = await runCli([
      'call',
      'echo',
      '--arg',
      'text=hi',
      '--otlp-endpoint',
      receiver.url,
      '--',
      node,
      KIT_STDIO_SERVER,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const spans = await receiver.waitForSpans((all) => named(all, 'tools/call echo') !== undefined);
    expect(attributesOf(named(spans, 'tools/call echo')!.attributes)).toMatchObject({
      [ATTR.protocolVersion]: '2026-07-28',
      [ATTR.toolName]: 'echo',
    });
    expect(run.stderr).not.toMatch(/OTLP/);
  });

  it('spans carry no secret: with --include-payloads a configured secret stays ***, live and exported', async () => {
    const receiver = await startOtlpReceiver();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-otlp-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'trace.jsonl');
    const secret = 'tok-5ecret-value';
    const run = await runCli([
      'call',
      'echo',
      '--arg',
      `text=${secret}`,
      '-e',
      `API_TOKEN=${secret}`,
      '--trace-file',
      file,
      '--otlp-endpoint',
      receiver.url,
      '--include-payloads',
      '--',
      node,
      KIT_STDIO_SERVER,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const spans = await receiver.waitForSpans((all) => named(all, 'tools/call echo') !== undefined);
    const live = attributesOf(named(spans, 'tools/call echo')!.attributes);
    expect(JSON.parse(live[ATTR.toolArguments] as string)).toEqual({ text: '***' });
    expect(live[ATTR.toolResult]).toContain('***');
    expect(JSON.stringify(spans)).not.toContain(secret);
    const exported = await runCli(['trace', 'export', file, '--format', 'otlp-json', '--include-payloads']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(String.raw`{\"text\":\"***\"}`);
    expect(exported.stdout).not.toContain(secret);
  });

  it('a dead endpoint: the proxy forwards everything, notes the failure once and exits as the server did', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const proxy = startRawStdioServer(node, [CLI, 'proxy', '--otlp-endpoint', dead, '--', node, SCRIPTED]);
    await proxy.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    proxy.send('notifications/initialized');
    for (let i = 0; i < 3; i++) {
      const answer = await proxy.request('tools/call', { name: 'echo', arguments: { text: `n${i}` } });
      expect(answer.result).toEqual({ content: [{ type: 'text', text: `n${i}` }] });
    }
    expect(await proxy.endInput()).toBe(0);
    const stderr = proxy.stderr.join('\n');
    expect(stderr.match(/OTLP export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces failed/g)).toHaveLength(1);
    expect(stderr).toMatch(/\d+ span\(s\) not exported/);
  });

  it('an endpoint that never answers: the proxy still forwards everything and exits without waiting on it', async () => {
    const receiver = await startOtlpReceiver({ hang: true });
    const proxy = startRawStdioServer(node, [CLI, 'proxy', '--otlp-endpoint', receiver.url, '--', node, SCRIPTED]);
    await proxy.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    const answer = await proxy.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    expect(answer.result).toMatchObject({ structuredContent: { sum: 5 } });
    // The receiver took the spans' request (and holds it): the export was under way at exit.
    expect(await proxy.endInput()).toBe(0);
    expect(receiver.requests().length).toBeGreaterThan(0);
    expect(proxy.stderr.join('\n')).toMatch(/span\(s\) not exported/);
  });
});
