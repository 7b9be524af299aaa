/**
 * The kit over stdio for real: a child process serving itself on its own stdin/stdout with
 * `StdioServerTransport`, driven by mcpwire's client in both eras. Only NDJSON on stdout (the
 * client reports no junk), the server's own log lines on stderr, and the process leaves by itself
 * when stdin ends. Needs `npm run build` (the fixture imports `mcpwire/server` from dist/).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { eventually } from './support/wait.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/kit-stdio-server.mjs');

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe.each(['auto', 'legacy'] as const)('a kit server on its own stdio, client era %s', (era) => {
  it('answers over NDJSON with nothing else on stdout, and logs a crash on stderr only', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const stderr: string[] = [];
    const client = await McpClient.connect(
      { command: process.execPath, args: [FIXTURE] },
      { era, onDiagnostic: (d) => diagnostics.push(d), onStderr: (line: string) => stderr.push(line) },
    );
    clients.push(client);
    expect(client.era).toBe(era === 'auto' ? 'modern' : 'legacy');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo', 'crash']);
    expect(await client.callTool('echo', { text: 'über 🙂' })).toMatchObject({
      content: [{ type: 'text', text: 'über 🙂' }],
    });
    const crash = await client.callTool('crash', {});
    expect(crash.isError).toBe(true);
    expect(JSON.stringify(crash)).not.toContain('secret internals');
    const logged = await eventually(() => stderr.find((line) => line.includes('tool handler threw')), {
      what: 'the crash logged on stderr',
    });
    expect(JSON.parse(logged)).toMatchObject({
      level: 'error',
      tool: 'crash',
      error: 'the secret internals of crash',
      stack: expect.stringContaining('kit-stdio-server.mjs'),
    });
    expect(diagnostics.filter((d) => d.kind !== 'late-response')).toEqual([]);
  });
});

describe('the stdio server process', () => {
  it('exits by itself with code 0 when its stdin ends, and answers a junk line with a parse error', async () => {
    const child = spawn(process.execPath, [FIXTURE], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.stdin.write('this is not json\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    await eventually(() => (out.split('\n').filter(Boolean).length >= 2 ? true : undefined), {
      what: 'two answers on stdout',
    });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(
      out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
    expect(err).toContain('stdin ended, exiting');
  });
});
