/**
 * The kit over stdio for real: a child process serving itself on its own stdin/stdout with
 * `StdioServerTransport`, driven by mcpwire's client in both eras. Only NDJSON on stdout (the
 * client reports no junk), the server's own log lines on stderr, and the process leaves by itself
 * when stdin ends. Needs `npm run build` (the fixture imports `mcpwire/server` from dist/).
 */
import { describe, expect, it } from 'vitest';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { connectClient } from './support/client.js';
import { KIT_STDIO_SERVER, startKitStdio } from './support/kit-stdio.js';
import { eventually } from './support/wait.js';

describe.each(['auto', 'legacy'] as const)('a kit server on its own stdio, client era %s', (era) => {
  it('answers over NDJSON with nothing else on stdout, and logs a crash on stderr only', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const stderr: string[] = [];
    const client = await connectClient(
      { command: process.execPath, args: [KIT_STDIO_SERVER] },
      { era, onDiagnostic: (d) => diagnostics.push(d), onStderr: (line: string) => stderr.push(line) },
    );
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
    const raw = startKitStdio(KIT_STDIO_SERVER);
    raw.write('this is not json');
    raw.write({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await eventually(() => (raw.messages.length >= 2 ? true : undefined), { what: 'two answers on stdout' });
    raw.child.stdin.end();
    expect((await raw.ended).code).toBe(0);
    expect(raw.messages).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
    expect(raw.stderr.join('\n')).toContain('stdin ended, exiting');
  });
});
