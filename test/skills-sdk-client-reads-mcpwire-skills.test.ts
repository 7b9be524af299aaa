/**
 * Interop: the official SDK 2.4 `SkillsClient` (`@modelcontextprotocol/client/ext/skills`) reads
 * the skills of a kit server (`spec-fixtures/servers/skills/kit-skills-server.mjs`, on the built
 * dist) over stdio and over Streamable HTTP, in both eras: the listing in two pages, one entry by
 * URI, every file read and verified by the SDK (size, digest, frontmatter), directory reads, and
 * -32602 for a skill the server does not have.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { kitSkillsOverHttp } from './support/http-servers.js';
import { FIXTURES } from './support/processes.js';

const FIXTURE = path.join(FIXTURES, 'skills', 'kit-skills-server.mjs');

type Era = 'modern' | 'legacy';

/** The SDK client, and the requests it sent (method and params), in order. */
async function sdkClient(
  transport: 'stdio' | 'http',
  era: Era,
): Promise<{ client: Client; sent: Array<{ method: string; params?: Record<string, unknown> }> }> {
  const client = new Client(
    { name: 'sdk-skills-host', version: '2.4.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  let pipe: StdioClientTransport | StreamableHTTPClientTransport;
  if (transport === 'stdio') {
    pipe = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' });
  } else {
    const server = await kitSkillsOverHttp();
    onTestFinished(() => server.stop());
    pipe = new StreamableHTTPClientTransport(new URL(server.url));
  }
  const sent: Array<{ method: string; params?: Record<string, unknown> }> = [];
  const send = pipe.send.bind(pipe) as (...args: unknown[]) => Promise<void>;
  pipe.send = (message: { method?: string; id?: unknown; params?: Record<string, unknown> }, ...rest: unknown[]) => {
    if (message.method !== undefined && message.id !== undefined)
      sent.push({ method: message.method, params: message.params });
    return send(message, ...rest);
  };
  await client.connect(pipe);
  onTestFinished(() => client.close());
  return { client, sent };
}

describe.each([
  ['stdio', 'modern'],
  ['stdio', 'legacy'],
  ['http', 'modern'],
  ['http', 'legacy'],
] as const)('SDK SkillsClient over %s (%s era)', (transport, era) => {
  it('lists in two pages, gets, reads every file verified, reads directories, and -32602 for an unknown skill', async () => {
    const { client, sent } = await sdkClient(transport, era);
    expect(client.getServerCapabilities()).toMatchObject({
      resources: {},
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    });
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);

    // Pages of two: the first page alone has a cursor; the full walk has every entry, none split.
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    const listCalls = sent.filter((r) => r.method === 'skills/list');
    expect(listCalls).toHaveLength(2);
    expect(typeof listCalls[1]!.params?.cursor).toBe('string');
    const second = await skills.list({ cursor: listCalls[1]!.params!.cursor as string });
    expect(second.skills.map((s) => s.uri)).toEqual(listing.skills.slice(2).map((s) => s.uri));
    expect(second.nextCursor).toBeUndefined();
    expect(listing.skills.map((s) => s.uri)).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
      'skill://acme/billing/refunds/SKILL.md',
      'skill://daily-report/SKILL.md',
    ]);
    const git = listing.skills[0]!;
    expect(git.frontmatter).toEqual({
      name: 'git-workflow',
      description: "Follow this team's Git conventions for branching and commits",
      license: 'Apache-2.0',
      metadata: { version: '1.2.0', owner: 'platform-team' },
    });

    const got = await skills.get('skill://pdf-processing/SKILL.md');
    expect(got.skill).toEqual(listing.skills[1]);
    if (era === 'modern') expect(got).toMatchObject({ ttlMs: 0, cacheScope: 'public' });

    // Every file of every skill, verified by the SDK against the entry (SKILL.md: frontmatter too).
    for (const skill of listing.skills) {
      for (const resource of skill.resources as Array<{ uri: string; size: number }>) {
        const file = await skills.read(skill, resource.uri);
        expect(file.verified, resource.uri).toBe(true);
        expect(file.bytes.length).toBe(resource.size);
      }
    }
    const skillMd = await skills.read(git);
    expect(skillMd.frontmatter).toEqual(git.frontmatter);
    expect(skillMd.body).toContain('Read `references/BRANCHING.md` before you branch.');
    const forms = await skills.read(listing.skills[1]!, 'references/FORMS.md');
    expect(forms.text).toBe('# Forms\n\nFields are named `field_<n>`. Ünïcödé is fine.\n');
    const logo = await skills.read(listing.skills[1]!, 'assets/logo.png');
    expect([...logo.bytes]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);

    // Directories: the skill root (several pages of two, walked by the SDK), a subdirectory, a prefix.
    const rootDir = await skills.readDirectory('skill://pdf-processing');
    expect(rootDir.resources.map((r) => [r.name, r.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
      ['scripts', 'inode/directory'],
      ['templates', 'inode/directory'],
    ]);
    const templates = await skills.readDirectory('skill://pdf-processing/templates');
    expect(templates.resources).toEqual([
      { uri: 'skill://pdf-processing/templates/invoice.md', name: 'invoice.md', mimeType: 'text/markdown', size: 28 },
      { uri: 'skill://pdf-processing/templates/regional', name: 'regional', mimeType: 'inode/directory' },
    ]);
    expect((await skills.readDirectory('skill://acme')).resources).toEqual([
      { uri: 'skill://acme/billing', name: 'billing', mimeType: 'inode/directory' },
    ]);
    await expect(skills.readDirectory('skill://pdf-processing/SKILL.md')).rejects.toMatchObject({ code: -32602 });

    await expect(skills.get('skill://acme/billing/chargebacks/SKILL.md')).rejects.toMatchObject({ code: -32602 });
  });
});
