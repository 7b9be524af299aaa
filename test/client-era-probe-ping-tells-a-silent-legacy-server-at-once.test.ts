/**
 * On stdio the `server/discover` probe has a `ping` behind it (src/client/era-probe.ts): a server
 * that answers the ping but not the probe read the probe and ignored it, so it is legacy at once,
 * without the probe timeout. Each case gives the probe a timeout far beyond the test's bound
 * (600 s), so a client that waited for it would fail the bound rather than pass slowly. What the
 * servers received is read from their `--record` files after a later request's answer (they
 * record each line before handling it, in order).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { ClientOptions } from '../src/client/options.js';
import type { StdioServerSpec } from '../src/transport/stdio/stdio.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { MODERN, SCRIPTED } from './support/cli.js';
import { KIT_STDIO_SERVER } from './support/kit-stdio.js';
import { within } from './support/wait.js';
import { recordedMethods } from './support/jsonl.js';
import { useTempDir } from './support/temp-dir.js';

const OUT_OF_ORDER = path.join(import.meta.dirname, 'support/out-of-order-modern-server.mjs');
const NEVER = { probeTimeoutMs: 600_000, connectTimeoutMs: 1_200_000 } as const;
const temp = useTempDir('mcpwire-probe-');

/** Where the test's server records what it receives. */
function recordFile(): string {
  return path.join(temp.dir, 'received.jsonl');
}

/** Connects within 20 s (the probe's own timeout is far longer), closed when the test finishes. */
async function connectSoon(target: StdioServerSpec, options: ClientOptions = {}): Promise<McpClient> {
  const controller = new AbortController();
  const connecting = McpClient.connect(target, { ...NEVER, ...options, signal: controller.signal });
  try {
    const client = await within(connecting, { timeoutMs: 20_000, what: 'the connect' });
    onTestFinished(() => client.close());
    return client;
  } catch (error) {
    controller.abort(); // kills the server; the connect rejects with CANCELLED
    await connecting.catch(() => undefined);
    throw error;
  }
}

describe('the era probe over stdio', () => {
  it('a legacy server silent on server/discover but answering the ping is legacy without the probe timeout', async () => {
    const record = recordFile();
    const client = await connectSoon({
      command: process.execPath,
      args: [SCRIPTED, '--discover', 'silent', '--record', record],
    });
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    await client.callTool('echo', { text: 'after' });
    expect(recordedMethods(record)).toEqual([
      'server/discover',
      'ping',
      'initialize',
      'notifications/initialized',
      'tools/call',
    ]);
  });

  it('a modern server answers the probe first: modern, and the ping answer after it is no stray response', async () => {
    const diagnostics: TransportDiagnostic[] = [];
    const client = await connectSoon(
      { command: process.execPath, args: [MODERN] },
      { onDiagnostic: (d) => diagnostics.push(d) },
    );
    expect(client.era).toBe('modern');
    // The server answers in order: this answer comes after the ping's.
    await client.listTools();
    expect(diagnostics.filter((d) => d.kind === 'late-response')).toEqual([]);
    // The ping did not pin the SDK's dual-era connection to 2025 (a bare ping would: it is the
    // first claim-less request, after which server/discover is -32601): modern requests still serve.
    await client.ping();
  });

  it("mcpwire's own dual-era kit is modern", async () => {
    const client = await connectSoon({ command: process.execPath, args: [KIT_STDIO_SERVER] });
    expect(client.era).toBe('modern');
    expect((await client.callTool('echo', { text: 'kit' })).content).toEqual([{ type: 'text', text: 'kit' }]);
  });

  it('a server still starting answers neither: start-up is not taken for silence', async () => {
    // The v2 server loaded only after a pause: both requests wait in the pipe until it reads them.
    const slow = `setTimeout(() => import(${JSON.stringify(MODERN)}), 1000)`;
    const client = await connectSoon({ command: process.execPath, args: ['-e', slow] });
    expect(client.era).toBe('modern');
    await client.listTools();
  });

  it('a modern server answering the ping before the probe is still modern: its refusal of initialize sends the client back to discovery', async () => {
    const record = recordFile();
    const client = await connectSoon({ command: process.execPath, args: [OUT_OF_ORDER, '--record', record] });
    expect(client.era).toBe('modern');
    expect(client.serverInfo?.name).toBe('out-of-order-modern');
    await client.listTools();
    expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual([
      'server/discover',
      'ping',
      'initialize',
      'server/discover',
      'tools/list',
    ]);
  });
});
