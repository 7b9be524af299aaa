/**
 * server-filesystem and MCP roots: a client with a roots handler is asked for roots right after
 * initialization, and the server replaces its command-line directories with them; after
 * notifyRootsChanged it asks again and follows the new roots; a server started without any
 * directory works from roots alone.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import type { Root } from '../../src/protocol/types.js';
import { waitUntilGone } from '../support/processes.js';
import { filesystem, textOf } from './support/reference-servers.js';

const tempDir = (label: string) => realpathSync(mkdtempSync(path.join(os.tmpdir(), `mcpwire-roots-${label}-`)));

async function connectWithRoots(
  dirs: string[],
  roots: { current: Root[]; asked: number },
  stderr: string[] = [],
): Promise<McpClient> {
  const client = await McpClient.connect(filesystem(...dirs), {
    name: 'fs-roots',
    handlers: {
      roots: () => {
        roots.asked++;
        return roots.current;
      },
    },
  });
  client.on('stderr', (line) => stderr.push(line));
  return client;
}

describe('server-filesystem follows the client roots', () => {
  const cli = tempDir('cli');
  const first = tempDir('first');
  const second = tempDir('second');
  const roots = { current: [{ uri: pathToFileURL(first).href, name: 'first' }] as Root[], asked: 0 };
  const stderr: string[] = [];
  let client: McpClient;
  let pid: number;

  const allowed = async () => textOf(await client.callTool('list_allowed_directories', {}));

  beforeAll(async () => {
    for (const dir of [cli, first, second]) writeFileSync(path.join(dir, 'marker.txt'), `in ${path.basename(dir)}`);
    client = await connectWithRoots([cli], roots, stderr);
    pid = client.pid!;
  });
  afterAll(async () => {
    await client?.close();
    if (pid) expect(await waitUntilGone(pid)).toBe(true);
    for (const dir of [cli, first, second]) rmSync(dir, { recursive: true, force: true });
  });

  it('is asked for roots after initialization and replaces its command-line directory with them', async () => {
    await expect.poll(() => roots.asked, { timeout: 5_000 }).toBe(1);
    await expect.poll(allowed, { timeout: 5_000 }).toBe(`Allowed directories:\n${first}`);
    expect(textOf(await client.callTool('read_text_file', { path: path.join(first, 'marker.txt') }))).toBe(
      `in ${path.basename(first)}`,
    );
    const denied = await client.callTool('read_text_file', { path: path.join(cli, 'marker.txt') });
    expect(denied.isError).toBe(true);
  });

  it('asks again after notifyRootsChanged and follows the new roots', async () => {
    roots.current = [{ uri: pathToFileURL(second).href, name: 'second' }];
    await client.notifyRootsChanged();
    await expect.poll(() => roots.asked, { timeout: 5_000 }).toBe(2);
    await expect.poll(allowed, { timeout: 5_000 }).toBe(`Allowed directories:\n${second}`);
    expect((await client.callTool('read_text_file', { path: path.join(first, 'marker.txt') })).isError).toBe(true);
    expect((await client.callTool('read_text_file', { path: path.join(second, 'marker.txt') })).isError ?? false).toBe(
      false,
    );
  });

  it('keeps its directories when the new roots are all invalid', async () => {
    roots.current = [{ uri: pathToFileURL(path.join(second, 'does-not-exist')).href }];
    await client.notifyRootsChanged();
    await expect.poll(() => roots.asked, { timeout: 5_000 }).toBe(3);
    // The server says so on stderr once it has checked them; the client relays its stderr lines.
    await expect
      .poll(() => stderr.some((l) => l.includes('No valid root directories provided by client')), { timeout: 5_000 })
      .toBe(true);
    expect(await allowed()).toBe(`Allowed directories:\n${second}`);
  });
});

describe('server-filesystem started without directories', () => {
  it('works from the client roots alone', async () => {
    const only = tempDir('only');
    writeFileSync(path.join(only, 'only.txt'), 'from roots');
    const roots = { current: [{ uri: pathToFileURL(only).href }] as Root[], asked: 0 };
    const client = await connectWithRoots([], roots);
    const pid = client.pid!;
    try {
      await expect.poll(() => roots.asked, { timeout: 5_000 }).toBe(1);
      await expect
        .poll(
          async () => (await client.callTool('read_text_file', { path: path.join(only, 'only.txt') })).isError ?? false,
          { timeout: 5_000 },
        )
        .toBe(false);
      expect(textOf(await client.callTool('read_text_file', { path: path.join(only, 'only.txt') }))).toBe('from roots');
    } finally {
      await client.close();
      rmSync(only, { recursive: true, force: true });
    }
    expect(await waitUntilGone(pid)).toBe(true);
  });
});
