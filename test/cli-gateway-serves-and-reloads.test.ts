/**
 * `mcpwire gateway` as a user runs it, the built CLI in a real process over a config file:
 * `--http 127.0.0.1:0` prints its address once it serves, a config edit reaches a connected
 * client as list_changed (a server added, one removed), its Server Cards and catalog are served,
 * `--stdio` serves a client over its stdin/stdout (mcpwire's, and the official SDK v1 and v2
 * clients in front of server-everything over stdio), and SIGTERM stops it and every upstream it
 * started — even one that ignores stdin's end and traps SIGTERM — leaving no process behind.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as SdkV2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as SdkV2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, EVERYTHING, ROOT, requireBuiltCli, startCli } from './support/cli.js';
import { connectClient } from './support/client.js';
import { KIT_STDIO_SERVER } from './support/kit-stdio.js';
import { waitUntilGone } from './support/processes.js';
import { useTempDir } from './support/temp-dir.js';
import { eventually, until, within } from './support/wait.js';
import type { TextContent } from '../src/protocol/types.js';

const STUBBORN = path.join(ROOT, 'test/support/stubborn-server.mjs');
const node = process.execPath;
const tmp = useTempDir('mcpwire-gateway-cli-');

beforeAll(requireBuiltCli);

/** The gateway section every HTTP config carries: a policy and a virtual server. */
const GATEWAY = {
  policies: [{ name: 'no-crash', deny: ['kit__crash'] }],
  virtualServers: { echo: { tools: ['*__echo'], description: 'Echoes only' } },
  card: { name: 'com.example/team-gateway', description: "The team's servers" },
};

function writeConfig(file: string, servers: Record<string, unknown>, gateway?: unknown): void {
  writeFileSync(file, JSON.stringify({ mcpServers: servers, ...(gateway ? { gateway } : {}) }, null, 2));
}

const kit = { command: node, args: [KIT_STDIO_SERVER] };
const text = (result: { content: unknown[] }) => (result.content[0] as TextContent).text;

describe('mcpwire gateway --http', () => {
  it('serves the configured servers, follows config edits, and SIGTERM leaves no process', async () => {
    const config = path.join(tmp.dir, 'team.json');
    const pidFile = path.join(tmp.dir, 'stubborn.pid');
    writeConfig(config, { kit, stubborn: { command: node, args: [STUBBORN, '--pid-file', pidFile] } }, GATEWAY);
    const gateway = startCli(['gateway', '--http', '127.0.0.1:0', '--config', config], {
      env: { HOME: tmp.dir },
      cwd: tmp.dir,
      timeoutMs: 60_000,
    });
    const out = await gateway.until('stdout', (s) => /virtual server echo on \S+\n/.test(s), 'the listening lines');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)![1]!;
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', { what: 'the stubborn pid' });
    const stubbornPid = Number(readFileSync(pidFile, 'utf8'));

    // Its Server Cards (the root's, the virtual server's) and the catalog are served beside the endpoints.
    const card = async (at: string) => (await fetch(at)).json() as Promise<{ name: string; description: string }>;
    expect(await card(`${url}/server-card`)).toMatchObject({ name: 'com.example/team-gateway' });
    expect(await card(`${url}/echo/server-card`)).toMatchObject({
      name: 'com.example/team-gateway-echo',
      description: 'Echoes only',
    });
    expect(JSON.stringify(await (await fetch(new URL('/.well-known/mcp/catalog.json', url))).json())).toContain(
      `${url}/server-card`,
    );

    const client = await connectClient({ url }, { era: 'legacy' });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['kit__echo', 'stubborn__echo']));
    expect(names).not.toContain('kit__crash');
    const virtual = await connectClient({ url: `${url}/echo` }, { era: 'modern' });
    expect((await virtual.listTools()).map((tool) => tool.name).sort()).toEqual(['kit__echo', 'stubborn__echo']);
    await virtual.close();
    expect(text(await client.callTool('kit__echo', { text: 'through the gateway' }))).toBe('through the gateway');

    // A server added to the file: the client hears list_changed and sees its tools.
    let changed = new Promise<void>((resolve) => client.on('toolsChanged', () => resolve()));
    writeConfig(
      config,
      { kit, second: kit, stubborn: { command: node, args: [STUBBORN, '--pid-file', pidFile] } },
      GATEWAY,
    );
    await within(changed, { what: 'list_changed after a server was added', timeoutMs: 20_000 });
    await until(async () => (await client.listTools({ refresh: true })).some((t) => t.name === 'second__echo'), {
      what: 'second__echo to be listed',
    });

    // One removed: its tools go.
    changed = new Promise<void>((resolve) => client.on('toolsChanged', () => resolve()));
    writeConfig(config, { second: kit, stubborn: { command: node, args: [STUBBORN, '--pid-file', pidFile] } }, GATEWAY);
    await within(changed, { what: 'list_changed after a server was removed', timeoutMs: 20_000 });
    await until(async () => !(await client.listTools({ refresh: true })).some((t) => t.name.startsWith('kit__')), {
      what: 'kit__* to be withdrawn',
    });
    await client.close();

    gateway.kill('SIGTERM');
    const ended = await within(gateway.done, { what: 'the gateway to exit on SIGTERM', timeoutMs: 5_000 });
    expect(ended.code).toBe(143);
    expect(await waitUntilGone(stubbornPid, 5_000)).toBe(true);
  });

  it('refuses a command line without --http or --stdio, naming both', async () => {
    const run = startCli(['gateway'], { env: { HOME: tmp.dir }, cwd: tmp.dir });
    const ended = await run.done;
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(/--http HOST:PORT or --stdio/);
  });
});

describe('mcpwire gateway --stdio', () => {
  it('serves a client over its stdin and stdout', async () => {
    const config = path.join(tmp.dir, 'stdio.json');
    writeConfig(config, { kit });
    const client = await connectClient(
      { command: node, args: [CLI, 'gateway', '--stdio', '--config', config], env: { HOME: tmp.dir }, cwd: tmp.dir },
      { era: 'legacy' },
    );
    expect(text(await client.callTool('kit__echo', { text: 'over stdio' }))).toBe('over stdio');
    const pid = client.pid!;
    await client.close();
    expect(await waitUntilGone(pid, 10_000)).toBe(true);
  });

  // The official clients, each over stdio to its own gateway in front of server-everything over stdio.
  const sdks = [
    { sdk: 'v1', Client: SdkClient, Transport: SdkStdioTransport },
    { sdk: 'v2', Client: SdkV2Client, Transport: SdkV2StdioTransport },
  ] as const;
  for (const { sdk: version, Client, Transport } of sdks) {
    it(`serves the official SDK ${version} client over stdio in front of server-everything over stdio`, async () => {
      const config = path.join(tmp.dir, 'everything.json');
      writeConfig(config, { everything: { command: node, args: [EVERYTHING, 'stdio'] } });
      const transport = new Transport({
        command: node,
        args: [CLI, 'gateway', '--stdio', '--config', config],
        env: { ...(process.env as Record<string, string>), HOME: tmp.dir },
        cwd: tmp.dir,
        stderr: 'ignore',
      });
      const sdk = new Client({ name: `sdk-${version}`, version: '1.0.0' });
      await sdk.connect(transport);
      try {
        const tools = await eventually(
          async () => {
            const listed = (await sdk.listTools()).tools.map((tool) => tool.name);
            return listed.includes('everything__echo') ? listed : undefined;
          },
          { what: "server-everything's tools through the gateway" },
        );
        expect(tools).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum']));
        const echoed = await sdk.callTool({ name: 'everything__echo', arguments: { message: 'via two stdio hops' } });
        expect(JSON.stringify(echoed.content)).toContain('via two stdio hops');
        const sum = await sdk.callTool({ name: 'everything__get-sum', arguments: { a: 2, b: 3 } });
        expect(JSON.stringify(sum.content)).toContain('5');
      } finally {
        const pid = transport.pid;
        await sdk.close();
        // The gateway ends with its input, and takes server-everything with it.
        if (pid !== null) expect(await waitUntilGone(pid, 10_000)).toBe(true);
      }
    });
  }
});
