/**
 * Text a server chooses never makes our messages unbounded: its JSON-RPC error message is quoted
 * up to 500 characters (with the original length) while `rpcMessage` keeps it whole; an error
 * without an id, a crashed server's stderr and an output-schema mismatch are quoted within bounds
 * too; and an endless stderr line is one cut line, not thousands.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { isMcpError } from '../src/protocol/errors.js';
import { peerText } from '../src/protocol/value-sample.js';
import { StdioTransport } from '../src/transport/stdio/stdio.js';
import { Raw, scriptedPair } from './support/scripted-peer.js';

const MEGABYTE = 1024 * 1024;
const INITIALIZED = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'loud', version: '1' },
};

async function connected() {
  const { clientTransport, peer } = scriptedPair();
  peer.on('initialize', () => INITIALIZED);
  const client = await McpClient.connect(clientTransport, { name: 'loud', era: 'legacy' });
  return { client, peer };
}

describe('a peer error message of a megabyte', () => {
  it('is quoted up to 500 characters with its length in SERVER_ERROR; rpcMessage and data keep the peer’s own', async () => {
    const { client, peer } = await connected();
    const huge = `disk full: ${'e'.repeat(MEGABYTE)}`;
    peer.on('tools/list', () => ({ error: { code: -32603, message: huge, data: { detail: 'kept' } } }));
    const error = await client.listTools().catch((e: unknown) => e);
    await client.close();
    expect(isMcpError(error, 'SERVER_ERROR')).toBe(true);
    const message = (error as Error).message;
    expect(message).toBe(
      `server "loud": tools/list failed: ${huge.slice(0, 500)}…(${huge.length} characters) (-32603)`,
    );
    expect(error).toMatchObject({ rpcCode: -32603, rpcMessage: huge, data: { detail: 'kept' } });
    expect(JSON.stringify(error).length).toBeLessThan(1_000);
  });

  it('in an error without an id: the diagnostic quotes 500 characters of it', async () => {
    const { client, peer } = await connected();
    const diagnostics: string[] = [];
    client.on('diagnostic', (d) => diagnostics.push(d.message));
    await peer.send(
      new Raw({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'p'.repeat(MEGABYTE) } }).value,
    );
    await peer.roundTrip();
    await client.close();
    const line = diagnostics.find((m) => m.startsWith('peer sent an error without an id'));
    expect(line).toBeDefined();
    expect(line!.length).toBeLessThan(600);
    expect(line).toContain(`…(${MEGABYTE} characters)`);
  });

  it('cut inside a surrogate pair keeps the pair whole or drops it', () => {
    expect(peerText(`${'a'.repeat(499)}😀tail`)).toBe(`${'a'.repeat(499)}…(505 characters)`);
  });
});

/** The error of a call whose result breaks an outputSchema with `pattern` on its field `a`. */
async function callBreakingPattern(pattern: string): Promise<unknown> {
  const { client, peer } = await connected();
  peer.on('tools/list', () => ({
    tools: [
      {
        name: 'strict',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { a: { type: 'string', pattern } } },
      },
    ],
  }));
  peer.on('tools/call', () => ({ content: [], structuredContent: { a: 'not it' } }));
  await client.listTools();
  const error = await client.callTool('strict', {}).catch((e: unknown) => e);
  await client.close();
  return error;
}

describe('a tool result that breaks an outputSchema with a huge pattern', () => {
  it('is reported with each problem quoted within bounds', async () => {
    const error = await callBreakingPattern(`^${'q'.repeat(5_000)}$`);
    expect(isMcpError(error, 'OUTPUT_SCHEMA_MISMATCH')).toBe(true);
    expect((error as Error).message).toContain('/a must match pattern');
    expect((error as Error).message.length).toBeLessThan(1_500);
  });

  it('whose pattern the validator cannot even build: the failure is quoted within bounds', async () => {
    const error = await callBreakingPattern(`^${'q'.repeat(100_000)}$`); // past V8's regular expression size limit
    expect(isMcpError(error, 'OUTPUT_SCHEMA_MISMATCH')).toBe(true);
    expect((error as Error).message.length).toBeLessThan(1_500);
  });
});

describe('stderr of a server that crashed', () => {
  it('an endless line is one cut line, the lines after it still come, and the crash message quotes every line within bounds', async () => {
    const lines: string[] = [];
    const script = `process.stderr.write('x'.repeat(${MEGABYTE}) + '\\nnext line\\n' + 'y'.repeat(3000) + '\\n', () => process.exit(3))`;
    const t = await StdioTransport.spawn(
      { command: process.execPath, args: ['-e', script] },
      { onStderr: (l) => lines.push(l) },
    );
    const info = await t.closed;
    await t.close();
    expect(lines.map((l) => l.length)).toEqual([4097, 9, 3000]);
    expect(lines[0]).toBe(`${'x'.repeat(4096)}…`);
    expect(lines[1]).toBe('next line');
    const message = info.error!.message;
    expect(message).toContain('exited with code 3; last stderr: ');
    expect(message).toContain(
      `${'x'.repeat(500)}…(4097 characters) | next line | ${'y'.repeat(500)}…(3000 characters)`,
    );
    expect(message.length).toBeLessThan(1_200);
  });
});
