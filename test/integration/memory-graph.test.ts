/**
 * @modelcontextprotocol/server-memory over stdio, its graph file set through the spec's `env`
 * (MEMORY_FILE_PATH in a temp dir, so nothing lands in the repository): entities, relations and
 * observations are created, read back, searched and deleted through tools whose structured
 * output passes validation; the graph resource is readable and its subscription reports changes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/mcp-client.js';
import type { ResourceUpdatedParams } from '../../src/protocol/types.js';
import { waitUntilGone } from '../support/processes.js';
import { binScript, memory, packageDir } from './support/reference-servers.js';
import { readJsonl } from '../support/jsonl.js';

interface Graph {
  entities: Array<{ name: string; entityType: string; observations: string[] }>;
  relations: Array<{ from: string; to: string; relationType: string }>;
}

const GRAPH_URI = 'memory://knowledge-graph';

describe('server-memory: a knowledge graph in the file named by env', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-memory-'));
  const file = path.join(dir, 'graph.jsonl');
  const defaultFile = path.join(path.dirname(binScript('@modelcontextprotocol/server-memory')), 'memory.jsonl');
  const defaultExisted = existsSync(defaultFile);
  const updates: ResourceUpdatedParams[] = [];
  let client: McpClient;
  let pid: number;

  beforeAll(async () => {
    client = await McpClient.connect(memory(file), { name: 'memory' });
    pid = client.pid!;
    client.on('resourceUpdated', (p) => updates.push(p));
  });
  afterAll(async () => {
    await client?.close();
    if (pid) expect(await waitUntilGone(pid)).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  const graph = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool(name, args);
    expect(result.isError ?? false).toBe(false);
    return result.structuredContent as Graph;
  };

  it('connects and lists the graph tools', async () => {
    expect(client.era).toBe('legacy');
    expect(client.serverInfo?.name).toBe('memory-server');
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(
      [
        'add_observations',
        'create_entities',
        'create_relations',
        'delete_entities',
        'delete_observations',
        'delete_relations',
        'open_nodes',
        'read_graph',
        'search_nodes',
      ].sort(),
    );
  });

  it('creates entities and relations and reads the whole graph back', async () => {
    const created = await client.callTool('create_entities', {
      entities: [
        { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
        { name: 'Engine', entityType: 'machine', observations: ['analytical'] },
        { name: 'Charles', entityType: 'person', observations: ['designed the engine'] },
      ],
    });
    expect((created.structuredContent as Graph).entities.map((e) => e.name)).toEqual(['Ada', 'Engine', 'Charles']);
    const related = await client.callTool('create_relations', {
      relations: [
        { from: 'Ada', to: 'Engine', relationType: 'programmed' },
        { from: 'Charles', to: 'Engine', relationType: 'designed' },
      ],
    });
    expect((related.structuredContent as Pick<Graph, 'relations'>).relations).toHaveLength(2);
    const all = await graph('read_graph', {});
    expect(all.entities.map((e) => e.name).sort()).toEqual(['Ada', 'Charles', 'Engine']);
    expect(all.relations).toEqual(expect.arrayContaining([{ from: 'Ada', to: 'Engine', relationType: 'programmed' }]));
  });

  it('wrote the graph to MEMORY_FILE_PATH: the env reached the server', () => {
    const lines = readJsonl<{ type: string; name?: string }>(file);
    expect(
      lines
        .filter((l) => l.type === 'entity')
        .map((l) => l.name)
        .sort(),
    ).toEqual(['Ada', 'Charles', 'Engine']);
    // Not the package's default file beside its dist/.
    expect(existsSync(defaultFile)).toBe(defaultExisted);
    expect(file.startsWith(packageDir('@modelcontextprotocol/server-memory'))).toBe(false);
  });

  it('searches and opens nodes', async () => {
    const found = await graph('search_nodes', { query: 'analytical' });
    expect(found.entities.map((e) => e.name)).toEqual(['Engine']);
    expect(found.relations.length).toBe(2);
    const opened = await graph('open_nodes', { names: ['Ada'] });
    expect(opened.entities).toEqual([{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }]);
  });

  it('reads the graph resource and reports resourceUpdated to a subscriber on every change', async () => {
    const read = await client.readResource(GRAPH_URI);
    expect(read.contents[0]).toMatchObject({ uri: GRAPH_URI, mimeType: 'application/json' });
    expect((JSON.parse((read.contents[0] as { text: string }).text) as Graph).entities).toHaveLength(3);

    const unsubscribe = await client.subscribeResource(GRAPH_URI);
    await client.callTool('add_observations', {
      observations: [{ entityName: 'Ada', contents: ['Countess of Lovelace'] }],
    });
    await expect.poll(() => updates.length, { timeout: 5_000 }).toBe(1);
    expect(updates[0]).toEqual({ uri: GRAPH_URI });
    await unsubscribe();
    await client.callTool('add_observations', { observations: [{ entityName: 'Ada', contents: ['born 1815'] }] });
    await client.ping();
    expect(updates).toHaveLength(1);
    expect((await graph('open_nodes', { names: ['Ada'] })).entities[0]!.observations).toEqual([
      'wrote the first program',
      'Countess of Lovelace',
      'born 1815',
    ]);
  });

  // The subscribe call's options (here its signal) must not bind the later unsubscribe: a caller
  // bounding the subscribe step (AbortSignal.timeout, a per-step controller) still has to be able
  // to unsubscribe afterwards, and the server must stop sending updates.
  it('unsubscribes after the signal given to subscribeResource has aborted', async () => {
    const step = new AbortController();
    const unsubscribe = await client.subscribeResource(GRAPH_URI, { signal: step.signal });
    step.abort(new Error('the subscribe step is over'));
    await expect(unsubscribe()).resolves.toBeUndefined();
    const before = updates.length;
    await client.callTool('add_observations', {
      observations: [{ entityName: 'Engine', contents: ['steam powered'] }],
    });
    await client.ping();
    expect(updates.length).toBe(before);
  });

  it('refuses prompts locally: the server has no prompts capability', async () => {
    expect(client.capabilities.prompts).toBeUndefined();
    await expect(client.listPrompts()).rejects.toMatchObject({ code: 'CAPABILITY_MISSING', server: 'memory' });
  });

  it('deletes observations, relations and entities', async () => {
    await client.callTool('delete_observations', { deletions: [{ entityName: 'Ada', observations: ['born 1815'] }] });
    await client.callTool('delete_observations', {
      deletions: [{ entityName: 'Engine', observations: ['steam powered'] }],
    });
    await client.callTool('delete_relations', {
      relations: [{ from: 'Charles', to: 'Engine', relationType: 'designed' }],
    });
    const deleted = await client.callTool('delete_entities', { entityNames: ['Charles'] });
    expect(deleted.structuredContent).toEqual({ success: true, message: 'Entities deleted successfully' });
    const left = await graph('read_graph', {});
    expect(left.entities.map((e) => e.name).sort()).toEqual(['Ada', 'Engine']);
    expect(left.relations).toEqual([{ from: 'Ada', to: 'Engine', relationType: 'programmed' }]);
  });
});
