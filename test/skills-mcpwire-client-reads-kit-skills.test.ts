/**
 * Both halves of mcpwire's skills: `client.skills` reads the kit's skills server
 * (`spec-fixtures/servers/skills/kit-skills-server.mjs`, on the built dist) over stdio and over
 * Streamable HTTP, in both eras. Every page is walked, every listed file is read back verified
 * (size and digest; a `SKILL.md` its frontmatter too) with the same bytes the entry's digest
 * names, directories are browsed, and an unknown skill or unlisted file is refused.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { SkillVerificationError } from '../src/client/skills/skill-verification-error.js';
import type { TraceRecord } from '../src/observe/trace-record.js';
import { kitSkillsOverHttp } from './support/http-servers.js';
import { FIXTURES } from './support/processes.js';

const FIXTURE = path.join(FIXTURES, 'skills', 'kit-skills-server.mjs');

async function connect(transport: 'stdio' | 'http', era: 'legacy' | 'modern', records: TraceRecord[]) {
  const options = { era, trace: { sink: (r: TraceRecord) => records.push(r) } } as const;
  let client: McpClient;
  if (transport === 'stdio') {
    client = await McpClient.connect({ command: process.execPath, args: [FIXTURE] }, options);
  } else {
    const server = await kitSkillsOverHttp();
    onTestFinished(() => server.stop());
    client = await McpClient.connect({ url: server.url }, options);
  }
  onTestFinished(() => client.close());
  return client;
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe.each([
  ['stdio', 'modern'],
  ['stdio', 'legacy'],
  ['http', 'modern'],
  ['http', 'legacy'],
] as const)('client.skills against the kit over %s (%s era)', (transport, era) => {
  it('walks every page, reads every file verified, browses directories, refuses the unknown', async () => {
    const records: TraceRecord[] = [];
    const client = await connect(transport, era, records);
    expect(client.skills.supported).toBe(true);
    expect(client.skills.directoryRead).toBe(true);

    const listing = await client.skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
      'skill://acme/billing/refunds/SKILL.md',
      'skill://daily-report/SKILL.md',
    ]);
    // The kit pages by two: the walk took two skills/list requests and read no file.
    const out = records.filter((r) => r.dir === 'out' && r.kind === 'request').map((r) => r.method);
    expect(out.filter((m) => m === 'skills/list')).toHaveLength(2);
    expect(out).not.toContain('resources/read');

    let files = 0;
    for (const skill of listing.skills) {
      if (!Array.isArray(skill.resources)) continue;
      for (const entry of skill.resources) {
        const file = await client.skills.read(entry.uri, { skill });
        expect(file.verified, entry.uri).toBe(true);
        expect(file.bytes.length).toBe(entry.size);
        expect(sha256(file.bytes)).toBe(entry.digest);
        files += 1;
      }
    }
    expect(files).toBeGreaterThan(listing.skills.length);

    const skillMd = await client.skills.read('skill://git-workflow/SKILL.md');
    expect(skillMd.frontmatter).toEqual(listing.skills[0]!.frontmatter);
    expect(skillMd.body).toContain('Read `references/BRANCHING.md` before you branch.');
    const logo = await client.skills.read('skill://pdf-processing/assets/logo.png');
    expect([...logo.bytes]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);

    const root = await client.skills.readDirectory('skill://pdf-processing');
    expect(root.map((r) => [r.name, r.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
      ['scripts', 'inode/directory'],
      ['templates', 'inode/directory'],
    ]);

    await expect(client.skills.get('skill://acme/billing/chargebacks/SKILL.md')).rejects.toMatchObject({
      rpcCode: -32602,
    });
    const unlisted = await client.skills.read('skill://pdf-processing/secrets.txt').catch((e: unknown) => e);
    expect(unlisted).toBeInstanceOf(SkillVerificationError);
    expect(unlisted).toMatchObject({ code: 'SKILL_REJECTED', rejection: 'unlisted' });
  });
});
