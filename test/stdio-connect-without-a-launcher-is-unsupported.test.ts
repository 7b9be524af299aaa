/**
 * The stdio registry (src/client/stdio-launcher.ts): `connect({ command })` starts its server
 * through the launcher the node entry registers, and where none is registered (a browser, a
 * Worker: the neutral root registers nothing) it rejects with `UNSUPPORTED` naming the server,
 * before anything is loaded or started. A transport target needs no launcher.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { setStdioLauncher } from '../src/client/stdio-launcher.js';
import { installNodeParts } from '../src/client/node-parts.js';
import { McpError } from '../src/protocol/errors.js';
import type { Disposer } from '../src/protocol/transport.js';
import { McpServer } from '../src/server/index.js';
import { connectKitClient } from './support/kit-memory.js';
import { FIXTURES } from './support/processes.js';

const server = path.join(FIXTURES, 'legacy', 'scripted-server.mjs');
const registrations: Disposer[] = [];

afterEach(() => {
  for (const dispose of registrations.splice(0).reverse()) dispose();
});

describe('a stdio connect and the launcher registry', () => {
  it('without a launcher, a command line rejects with UNSUPPORTED naming the server and the runtimes that run it', async () => {
    registrations.push(setStdioLauncher(undefined));
    const error = await McpClient.connect({ command: process.execPath, args: [server] }, { name: 'fs' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED', server: 'fs' });
    expect((error as McpError).message).toMatch(/stdio servers need Node, Deno or Bun/);
    // Without a name, the server is named by its command line, as every other stdio failure is.
    const unnamed = await McpClient.connect({ command: 'my-server', args: ['--flag'] }).catch((e: unknown) => e);
    expect(unnamed).toMatchObject({ code: 'UNSUPPORTED', server: expect.stringContaining('my-server') });
  });

  it('without a launcher, a transport target still connects (the neutral path)', async () => {
    registrations.push(setStdioLauncher(undefined));
    const kit = new McpServer({ name: 'kit', version: '1.0.0', logger: () => undefined });
    kit.registerTool({
      name: 'echo',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'text', text: 'hi' }] }),
    });
    const client = await connectKitClient(kit);
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['echo']);
  });

  it('a command line starts through the registered launcher, loaded on the first stdio connect only', async () => {
    let loads = 0;
    registrations.push(
      setStdioLauncher(() => {
        loads++;
        return import('../src/transport/stdio/stdio.js');
      }),
    );
    expect(loads).toBe(0);
    const client = await McpClient.connect({ command: process.execPath, args: [server] }, { name: 'scripted' });
    try {
      expect(loads).toBeGreaterThanOrEqual(1);
      expect(client.pid).toBeTypeOf('number');
    } finally {
      await client.close();
    }
  });

  it('installNodeParts is idempotent, and a disposer puts back the launcher it replaced', async () => {
    installNodeParts();
    installNodeParts();
    const dispose = setStdioLauncher(undefined);
    await expect(McpClient.connect({ command: process.execPath, args: [server] })).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    dispose();
    const client = await McpClient.connect({ command: process.execPath, args: [server] }, { name: 'scripted' });
    await client.close();
  });
});
