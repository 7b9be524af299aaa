import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import { StdioTransport } from '../../src/transport/stdio.js';
import { RecordingTransport } from '../kit/recording-transport.js';
import { invalidRecordedTraffic } from '../support/fake-servers.js';
import { filesystem, memory } from './support/reference-servers.js';

const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? '').join('\n');

describe('@modelcontextprotocol/server-filesystem', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-fs-'));
  let recording: RecordingTransport;
  let client: McpClient;

  beforeAll(async () => {
    writeFileSync(path.join(root, 'hello.txt'), 'hello from disk\n');
    recording = new RecordingTransport(await StdioTransport.spawn(filesystem(root), { name: 'fs' }));
    client = await McpClient.connect(recording, { name: 'fs' });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists its file tools', async () => {
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['read_text_file', 'write_file', 'list_directory']));
  });

  it('reads, writes and lists files through tools', async () => {
    expect(text(await client.callTool('read_text_file', { path: path.join(root, 'hello.txt') }))).toContain('hello from disk');
    const written = await client.callTool('write_file', { path: path.join(root, 'new.txt'), content: 'written by mcpwire' });
    expect(written.isError ?? false).toBe(false);
    expect(readFileSync(path.join(root, 'new.txt'), 'utf8')).toBe('written by mcpwire');
    expect(text(await client.callTool('list_directory', { path: root }))).toMatch(/hello\.txt[\s\S]*new\.txt/);
  });

  it('returns an access outside the allowed directory as a tool error, not a throw', async () => {
    const result = await client.callTool('read_text_file', { path: '/etc/hostname' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/denied|outside|not allowed/i);
  });

  it('sent only schema-valid messages', () => {
    expect(invalidRecordedTraffic(recording, client.protocolVersion)).toEqual([]);
  });
});

describe('@modelcontextprotocol/server-memory', () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcpwire-mem-')), 'memory.jsonl');
  let recording: RecordingTransport;
  let client: McpClient;

  beforeAll(async () => {
    recording = new RecordingTransport(await StdioTransport.spawn(memory(file), { name: 'memory' }));
    client = await McpClient.connect(recording, { name: 'memory' });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('builds a knowledge graph, reads it back and searches it, in the file given through env', async () => {
    await client.callTool('create_entities', {
      entities: [
        { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
        { name: 'Engine', entityType: 'machine', observations: ['analytical'] },
      ],
    });
    await client.callTool('create_relations', { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programmed' }] });
    const graph = text(await client.callTool('read_graph', {}));
    expect(graph).toContain('Ada');
    expect(graph).toContain('programmed');
    expect(text(await client.callTool('search_nodes', { query: 'analytical' }))).toContain('Engine');
    // MEMORY_FILE_PATH reached the server: it wrote there, not into the repository.
    expect(readFileSync(file, 'utf8')).toContain('Ada');
  });

  it('sent only schema-valid messages', () => {
    expect(invalidRecordedTraffic(recording, client.protocolVersion)).toEqual([]);
  });
});
