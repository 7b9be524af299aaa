/**
 * @modelcontextprotocol/server-filesystem over stdio, allowed one temp directory: its tools read,
 * write, edit, list, search and move files there (every result passes the client's outputSchema
 * validation), and any access outside that directory comes back as a tool error, not a throw.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import type { Tool } from '../../src/protocol/types.js';
import { waitUntilGone } from '../support/processes.js';
import { filesystem, textOf } from './support/reference-servers.js';
import { schemaProblems } from './support/schema-args.js';

// 1x1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('server-filesystem: file tools inside the allowed directory', () => {
  // realpath: on macOS the temp dir is a symlink, and the server reports resolved paths.
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-fs-')));
  const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-fs-outside-')));
  const at = (...parts: string[]) => path.join(root, ...parts);
  let client: McpClient;
  let pid: number;
  let tools: Tool[];

  beforeAll(async () => {
    writeFileSync(at('hello.txt'), 'line one\nline two\nline three\n');
    mkdirSync(at('nested'));
    writeFileSync(at('nested', 'deep.md'), '# deep\n');
    writeFileSync(at('pixel.png'), PNG);
    writeFileSync(path.join(outside, 'secret.txt'), 'not for the server');
    client = await McpClient.connect(filesystem(root), { name: 'fs' });
    pid = client.pid!;
    tools = await client.listTools();
  });
  afterAll(async () => {
    await client?.close();
    if (pid) expect(await waitUntilGone(pid)).toBe(true);
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool(name, args);
    expect(result.isError ?? false, `${name}: ${textOf(result)}`).toBe(false);
    // The client already validated this; check it independently against the listed schema.
    const schema = tools.find((t) => t.name === name)?.outputSchema;
    if (schema) expect(schemaProblems(schema, result.structuredContent)).toEqual([]);
    return result;
  };

  it('connects in the legacy era and lists the file tools, each with an output schema', () => {
    expect(client.era).toBe('legacy');
    expect(client.serverInfo?.name).toBe('secure-filesystem-server');
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'read_text_file',
        'read_media_file',
        'read_multiple_files',
        'write_file',
        'edit_file',
        'create_directory',
        'list_directory',
        'directory_tree',
        'move_file',
        'search_files',
        'get_file_info',
        'list_allowed_directories',
      ]),
    );
    expect(tools.filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
  });

  it('reports the allowed directory', async () => {
    const result = await call('list_allowed_directories', {});
    expect(result.structuredContent).toEqual({ content: `Allowed directories:\n${root}` });
  });

  it('reads a text file whole, by head and by tail', async () => {
    expect(textOf(await call('read_text_file', { path: at('hello.txt') }))).toBe('line one\nline two\nline three\n');
    expect(textOf(await call('read_text_file', { path: at('hello.txt'), head: 1 }))).toBe('line one');
    // The file ends in a newline, so its last "line" is empty.
    expect(textOf(await call('read_text_file', { path: at('hello.txt'), tail: 2 }))).toContain('line three');
  });

  it('reads an image as an image block and several files at once', async () => {
    const media = await call('read_media_file', { path: at('pixel.png') });
    expect(media.content[0]).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
    const many = textOf(await call('read_multiple_files', { paths: [at('hello.txt'), at('nested', 'deep.md')] }));
    expect(many).toContain('line two');
    expect(many).toContain('# deep');
  });

  it('writes, edits and lists files, and the disk agrees', async () => {
    await call('write_file', { path: at('new.txt'), content: 'written by mcpwire\n' });
    expect(readFileSync(at('new.txt'), 'utf8')).toBe('written by mcpwire\n');
    const diff = textOf(
      await call('edit_file', { path: at('new.txt'), edits: [{ oldText: 'written', newText: 'edited' }] }),
    );
    expect(diff).toContain('+edited by mcpwire');
    expect(readFileSync(at('new.txt'), 'utf8')).toBe('edited by mcpwire\n');
    const listing = textOf(await call('list_directory', { path: root }));
    expect(listing.split('\n').sort()).toEqual([
      '[DIR] nested',
      '[FILE] hello.txt',
      '[FILE] new.txt',
      '[FILE] pixel.png',
    ]);
  });

  it('creates directories, moves files, searches, describes and draws the tree', async () => {
    await call('create_directory', { path: at('made', 'here') });
    await call('move_file', { source: at('new.txt'), destination: at('made', 'here', 'moved.txt') });
    expect(readFileSync(at('made', 'here', 'moved.txt'), 'utf8')).toBe('edited by mcpwire\n');
    expect(textOf(await call('search_files', { path: root, pattern: '**/*.md' }))).toBe(at('nested', 'deep.md'));
    expect(textOf(await call('get_file_info', { path: at('hello.txt') }))).toMatch(/size: 29\b/);
    const tree = JSON.parse(textOf(await call('directory_tree', { path: root }))) as Array<{
      name: string;
      children?: unknown[];
    }>;
    expect(tree.map((e) => e.name).sort()).toEqual(['hello.txt', 'made', 'nested', 'pixel.png']);
  });

  it('returns access outside the allowed directory as a tool error, not a throw', async () => {
    for (const target of [
      path.join(outside, 'secret.txt'),
      at('..', path.basename(outside), 'secret.txt'),
      '/etc/hostname',
    ]) {
      const result = await client.callTool('read_text_file', { path: target });
      expect(result.isError, target).toBe(true);
      expect(textOf(result)).toMatch(/access denied|outside allowed/i);
    }
    const write = await client.callTool('write_file', { path: path.join(outside, 'planted.txt'), content: 'x' });
    expect(write.isError).toBe(true);
    expect(() => readFileSync(path.join(outside, 'planted.txt'))).toThrow();
  });

  it('returns a missing file as a tool error and keeps serving', async () => {
    const result = await client.callTool('read_text_file', { path: at('missing.txt') });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/ENOENT|no such file/i);
    await client.ping();
  });
});
