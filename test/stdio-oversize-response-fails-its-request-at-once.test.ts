/**
 * A stdio server's stdout is shared by every request, like the HTTP+SSE stream: a response line
 * over `maxMessageBytes` is skipped with an `oversize` diagnostic, and the request it answered
 * (its id read from the line's first characters) fails at once with `TRANSPORT` instead of
 * waiting out its timeout. Other requests and the connection go on.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { TransportDiagnostic } from '../src/protocol/transport.js';
import { FIXTURES } from './support/processes.js';
import { endAll } from './support/end-all.js';

const CAP = 64 * 1024;
const REQUEST_TIMEOUT_MS = 30_000;

let client: McpClient | undefined;
afterEach(async () => void ([client] = await endAll([client, 'close'])));

describe('a stdio response over the size cap', () => {
  it('fails its request at once with TRANSPORT, and the server stays usable', async () => {
    client = await McpClient.connect(
      { command: process.execPath, args: [path.join(FIXTURES, 'legacy', 'scripted-server.mjs')] },
      { name: 'scripted', era: 'legacy', stdio: { maxMessageBytes: CAP }, requestTimeoutMs: REQUEST_TIMEOUT_MS },
    );
    const diagnostics: TransportDiagnostic[] = [];
    client.on('diagnostic', (d) => diagnostics.push(d));
    const started = performance.now();
    const error = await client.callTool('big', { bytes: 4 * CAP }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TRANSPORT', server: 'scripted', method: 'tools/call' });
    expect((error as Error).message).toContain(`larger than the ${CAP}-byte limit`);
    expect(performance.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS / 3);
    expect(diagnostics.map((d) => d.kind)).toContain('oversize');
    expect(await client.callTool('big', { bytes: 10 })).toMatchObject({
      content: [{ type: 'text', text: 'x'.repeat(10) }],
    });
  });
});
