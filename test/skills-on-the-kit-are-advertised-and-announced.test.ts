/**
 * The skills extension on the kit over raw JSON-RPC (an in-memory pair), both eras: the
 * extension and `resources` are advertised exactly while a skill is registered, its methods
 * answer -32601 before the first skill, a skill added or withdrawn is announced as
 * `notifications/resources/list_changed`, `resources/list` shows each skill's `SKILL.md` after the
 * server's own resources, and 2026 results carry `resultType`, `ttlMs` and `cacheScope`.
 */
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { rawKitPeer } from './support/kit-memory.js';
import { eventually } from './support/wait.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};
const SKILLS = 'io.modelcontextprotocol/skills';

function kit(): McpServer {
  return new McpServer({ name: 'skills-kit', version: '1.0.0', logger: () => undefined });
}

describe('skills on the kit', () => {
  it('2026: advertised in server/discover only while a skill exists; -32601 before', async () => {
    const server = kit();
    const peer = rawKitPeer(server);
    const discover = async () =>
      ((await peer.ask('server/discover', { _meta: META })).result as { capabilities: Record<string, unknown> })
        .capabilities;
    expect(await discover()).not.toHaveProperty('resources');
    expect(await discover()).not.toHaveProperty(['extensions', SKILLS]);
    expect((await peer.ask('skills/list', { _meta: META })).error).toMatchObject({ code: -32601 });
    expect((await peer.ask('resources/directory/read', { uri: 'skill://x', _meta: META })).error).toMatchObject({
      code: -32601,
    });

    const off = server.registerSkill({ name: 'notes', description: 'Take notes', instructions: 'Write them down.' });
    await off.ready;
    expect(await discover()).toMatchObject({
      resources: { listChanged: true },
      extensions: { [SKILLS]: { directoryRead: true } },
    });
    const list = (await peer.ask('skills/list', { _meta: META })).result;
    expect(list).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
      skills: [{ uri: 'skill://notes/SKILL.md' }],
    });
    const read = (await peer.ask('resources/read', { uri: 'skill://notes/SKILL.md', _meta: META })).result;
    expect(read).toMatchObject({
      resultType: 'complete',
      contents: [
        {
          uri: 'skill://notes/SKILL.md',
          mimeType: 'text/markdown',
          text: '---\n"name": "notes"\n"description": "Take notes"\n---\n\nWrite them down.\n',
        },
      ],
    });
    // A directory is no file: resources/read says not found (2026: -32602).
    expect((await peer.ask('resources/read', { uri: 'skill://notes', _meta: META })).error).toMatchObject({
      code: -32602,
    });
    off();
    expect(await discover()).not.toHaveProperty(['extensions', SKILLS]);
  });

  it('legacy: advertised on initialize, announced as resources list_changed, SKILL.md listed after own resources', async () => {
    const server = kit();
    server.registerResource({ uri: 'test://own', name: 'own', read: (uri) => [{ uri, text: 'mine' }] });
    server.registerSkill({ name: 'first', description: 'The first skill', instructions: 'One.' });
    const peer = rawKitPeer(server);
    const init = await peer.ask('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    expect(init.result).toMatchObject({
      capabilities: {
        resources: { subscribe: true, listChanged: true },
        extensions: { [SKILLS]: { directoryRead: true } },
      },
    });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    const changes = () => peer.received.filter((m) => m.method === 'notifications/resources/list_changed').length;
    const off = server.registerSkill({ name: 'second', prefix: 'team', description: 'The second skill' });
    await eventually(() => (changes() >= 1 ? true : undefined), { what: 'list_changed for the new skill' });
    const listed = (await peer.ask('resources/list', {})).result as { resources: Array<Record<string, unknown>> };
    expect(listed.resources).toEqual([
      { uri: 'test://own', name: 'own' },
      {
        uri: 'skill://first/SKILL.md',
        name: 'first',
        description: 'The first skill',
        mimeType: 'text/markdown',
        size: expect.any(Number),
      },
      {
        uri: 'skill://team/second/SKILL.md',
        name: 'second',
        description: 'The second skill',
        mimeType: 'text/markdown',
        size: expect.any(Number),
      },
    ]);
    const before = changes();
    off();
    await eventually(() => (changes() > before ? true : undefined), { what: 'list_changed for the withdrawn skill' });
    expect((await peer.ask('skills/get', { uri: 'skill://team/second/SKILL.md' })).error).toMatchObject({
      code: -32602,
    });
    // The server's own resources are still read after the skills are asked.
    expect((await peer.ask('resources/read', { uri: 'test://own' })).result).toEqual({
      contents: [{ uri: 'test://own', text: 'mine' }],
    });
  });
});
