/**
 * `client.skills` (SEP-2640) against real servers in their own processes: the official SDK 2.4
 * skills server in both eras (every file read back verified, bytes intact), and a lying server
 * whose one bad skill is refused with a typed error that carries no bytes, after which nothing
 * more of that skill is read. Listing never reads a file.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import type { ClientOptions } from '../src/client/options.js';
import { SkillVerificationError } from '../src/client/skills/skill-verification-error.js';
import type { TraceRecord } from '../src/observe/trace-record.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./support/${name}`, import.meta.url));
const SDK_SKILLS = fixture('sdk-skills-server.mjs');
const LYING_SKILLS = fixture('lying-skills-server.mjs');

async function connect(args: string[], options: ClientOptions = {}): Promise<McpClient> {
  const client = await McpClient.connect({ command: process.execPath, args }, options);
  onTestFinished(() => client.close());
  return client;
}

/** The methods (with the URI they name) a client sent, from its trace. */
function sent(records: TraceRecord[]): string[] {
  return records
    .filter((r) => r.dir === 'out' && r.kind === 'request')
    .map((r) => {
      const params = (r.message as { params?: { uri?: string } } | undefined)?.params;
      return params?.uri ? `${r.method} ${params.uri}` : r.method!;
    });
}

describe('against the official SDK 2.4 skills server', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`lists without reading and reads every file verified (${era})`, async () => {
      const records: TraceRecord[] = [];
      const client = await connect([SDK_SKILLS], { era, trace: { sink: (r) => records.push(r) } });
      expect(client.skills.supported).toBe(true);
      expect(client.skills.directoryRead).toBe(true);
      const listing = await client.skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((s) => s.uri).sort()).toEqual([
        'skill://acme/pdf/SKILL.md',
        'skill://writing/SKILL.md',
      ]);
      expect(sent(records).filter((m) => m.startsWith('resources/read'))).toEqual([]);

      const skillMd = await client.skills.read('skill://writing/SKILL.md');
      expect(skillMd.verified).toBe(true);
      expect(skillMd.frontmatter).toEqual({
        name: 'writing',
        description: 'Plain English.',
        license: 'MIT',
        metadata: { level: '2', tags: 'style prose' },
      });
      expect(skillMd.body).toBe('Short sentences.\n');

      const logo = await client.skills.read('skill://acme/pdf/assets/logo.bin');
      expect(logo.verified).toBe(true);
      expect([...logo.bytes]).toEqual([0, 255, 128, 7, 13, 10, 0xc3]);
      const listed = listing.skills.find((s) => s.uri === 'skill://acme/pdf/SKILL.md')!.resources;
      const entry = Array.isArray(listed) ? listed.find((r) => r.uri.endsWith('logo.bin')) : undefined;
      expect(entry?.digest).toBe(`sha256:${createHash('sha256').update(logo.bytes).digest('hex')}`);

      const dir = await client.skills.readDirectory('skill://acme/pdf');
      expect(
        dir
          .filter((d) => d.mimeType === 'inode/directory')
          .map((d) => d.name)
          .sort(),
      ).toEqual(['assets', 'references']);
    });
  }

  it('reads a bare SKILL.md URI through skills/get, and refuses an unlisted file with nothing sent', async () => {
    const records: TraceRecord[] = [];
    const client = await connect([SDK_SKILLS], { trace: { sink: (r) => records.push(r) } });
    const file = await client.skills.read('skill://acme/pdf/SKILL.md');
    expect(file.frontmatter).toMatchObject({ name: 'pdf' });
    expect(sent(records)).toContain('skills/get skill://acme/pdf/SKILL.md');
    const error = await client.skills.read('skill://acme/pdf/secrets.txt').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error).toMatchObject({ code: 'SKILL_REJECTED', rejection: 'unlisted', uri: 'skill://acme/pdf/secrets.txt' });
    expect(sent(records).some((m) => m.includes('secrets.txt'))).toBe(false);
    await expect(client.skills.get('skill://nope/SKILL.md')).rejects.toMatchObject({ rpcCode: -32602 });
  });
});

describe('against a lying server', () => {
  /** Connects with `--mode`, collecting the server's `asked …` lines. */
  async function liar(mode: string): Promise<{ client: McpClient; asked: string[] }> {
    const asked: string[] = [];
    const client = await connect([LYING_SKILLS, '--mode', mode], {
      era: 'legacy',
      onStderr: (line) => {
        if (line.startsWith('asked ')) asked.push(line.slice(6).trim());
      },
    });
    return { client, asked };
  }

  for (const [mode, uri, rejection] of [
    ['digest', 'skill://acme/pdf/references/FORMS.md', 'digest'],
    ['size', 'skill://acme/pdf/references/FORMS.md', 'size'],
    ['blob-bomb', 'skill://acme/pdf/assets/data.bin', 'size'],
  ] as const) {
    it(`refuses a file whose ${mode} does not match, with no bytes in the error`, async () => {
      const { client } = await liar(mode);
      await client.skills.list();
      expect((await client.skills.read('skill://acme/pdf/SKILL.md')).verified).toBe(true);
      const error = (await client.skills.read(uri).catch((e: unknown) => e)) as SkillVerificationError;
      expect(error).toBeInstanceOf(SkillVerificationError);
      expect(error.rejection).toBe(rejection);
      expect(error.uri).toBe(uri);
      expect(error.expected?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      const shown = JSON.stringify(error.toJSON()) + error.message;
      expect(shown).not.toContain('Forns');
      expect(shown).not.toContain('Forms!');
      expect(shown).not.toContain('BwcHBwcH'); // the blob's base64
      // The honest skill on the same server still reads.
      expect((await client.skills.read('skill://honest/SKILL.md')).verified).toBe(true);
    });
  }

  it('refuses a SKILL.md whose frontmatter differs, and then reads nothing more of that skill', async () => {
    const { client, asked } = await liar('frontmatter');
    await client.skills.list();
    const error = (await client.skills
      .read('skill://acme/pdf/SKILL.md')
      .catch((e: unknown) => e)) as SkillVerificationError;
    expect(error).toMatchObject({ rejection: 'frontmatter', differences: ['description'] });
    expect(error.message).not.toContain('Send me your files');
    await expect(client.skills.read('skill://acme/pdf/references/FORMS.md')).rejects.toMatchObject({
      rejection: 'frontmatter',
    });
    expect(asked.filter((a) => a.startsWith('resources/read'))).toEqual(['resources/read skill://acme/pdf/SKILL.md']);
  });

  for (const mode of ['oversize', 'too-many'] as const) {
    it(`leaves out an entry past the limits (${mode}) and reads none of it`, async () => {
      const { client, asked } = await liar(mode);
      const listing = await client.skills.list();
      expect(listing.skills.map((s) => s.uri)).toEqual(['skill://honest/SKILL.md']);
      expect(listing.invalid).toEqual([
        { index: 0, uri: 'skill://acme/pdf/SKILL.md', reason: expect.stringMatching(/more than the/) },
      ]);
      await expect(client.skills.read('skill://acme/pdf/references/FORMS.md')).rejects.toMatchObject({
        rejection: 'unlisted',
      });
      await expect(client.skills.read('skill://acme/pdf/SKILL.md')).rejects.toMatchObject({ rejection: 'limit' });
      expect(asked.filter((a) => a.startsWith('resources/read'))).toEqual([]);
    });
  }
});
