/**
 * `skillsFromDirectory` on a real folder tree (a tmp dir): one skill per folder holding a
 * `SKILL.md`, nested skills published on their own and listed in the skill around them, digests
 * equal to what `sha256sum` prints for the files, symlinks inside followed, a symlink out or a
 * special file refused by name, the limits warned (refused when strict); and `registerSkill`'s
 * refusal of a `SKILL.md` that disagrees with its definition.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { McpServer, skillsFromDirectory } from '../src/server/index.js';
import { rawKitPeer } from './support/kit-memory.js';
import { useTempDir } from './support/temp-dir.js';

const tmp = useTempDir('mcpwire-skills-');

function write(relative: string, content: string | Uint8Array): void {
  const file = path.join(tmp.dir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function skillMd(name: string, description: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n`;
}

/** `sha256:<hex>` of a file, from coreutils. */
function sha256sum(relative: string): string {
  return `sha256:${execFileSync('sha256sum', [path.join(tmp.dir, relative)], { encoding: 'utf8' }).split(' ')[0]}`;
}

/** The answer to `skills/list` from a legacy session on `server`. */
async function askSkills(server: McpServer): Promise<Record<string, unknown>> {
  const peer = rawKitPeer(server);
  await peer.ask('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  });
  return peer.ask('skills/list', {});
}

async function listSkills(server: McpServer): Promise<Array<Record<string, unknown>>> {
  return ((await askSkills(server)).result as { skills: Array<Record<string, unknown>> }).skills;
}

function pdfTree(): void {
  write('pdf-processing/SKILL.md', skillMd('pdf-processing', 'Extract PDF text', 'license: MIT\n'));
  write('pdf-processing/references/FORMS.md', '# Forms\n');
  write('pdf-processing/scripts/extract.py', 'print("hi")\n');
  write('pdf-processing/assets/blob.bin', new Uint8Array([0, 1, 2, 0xff, 0xfe]));
  write('pdf-processing/forms-helper/SKILL.md', skillMd('forms-helper', 'Fill forms'));
  write('pdf-processing/.cache/secret', 'not published');
  write('notes/README.md', 'no skill here');
}

describe('skillsFromDirectory', () => {
  it('publishes each folder with a SKILL.md, nested ones too, with the digests sha256sum computes', async () => {
    pdfTree();
    // A symlink whose target stays inside the folder is followed.
    symlinkSync('../scripts/extract.py', path.join(tmp.dir, 'pdf-processing/references/extract-link.py'));
    const definitions = await skillsFromDirectory(tmp.dir, { prefix: 'docs' });
    expect(definitions.map((d) => [d.prefix, d.name])).toEqual([
      ['docs', 'pdf-processing'],
      ['docs/pdf-processing', 'forms-helper'],
    ]);
    const server = new McpServer({ name: 'dir-skills', version: '1.0.0', logger: () => undefined });
    server.registerSkills(definitions);
    const skills = await listSkills(server);
    expect(skills.map((s) => s.uri)).toEqual([
      'skill://docs/pdf-processing/SKILL.md',
      'skill://docs/pdf-processing/forms-helper/SKILL.md',
    ]);
    expect(skills[0]!.frontmatter).toEqual({ name: 'pdf-processing', description: 'Extract PDF text', license: 'MIT' });
    const files = [
      'SKILL.md',
      'assets/blob.bin',
      'forms-helper/SKILL.md',
      'references/FORMS.md',
      'references/extract-link.py',
      'scripts/extract.py',
    ];
    const expected = files.map((file) => ({
      uri: `skill://docs/pdf-processing/${file}`,
      digest: sha256sum(`pdf-processing/${file}`),
      size: execFileSync('stat', ['-L', '-c', '%s', path.join(tmp.dir, 'pdf-processing', file)], {
        encoding: 'utf8',
      }).trim(),
    }));
    const resources = (skills[0]!.resources as Array<{ uri: string; digest: string; size: number }>).map((r) => ({
      ...r,
      size: String(r.size),
    }));
    expect(resources.sort((a, b) => a.uri.localeCompare(b.uri))).toEqual(
      expected.sort((a, b) => a.uri.localeCompare(b.uri)),
    );
    expect(skills[1]!.resources).toEqual([
      {
        uri: 'skill://docs/pdf-processing/forms-helper/SKILL.md',
        digest: sha256sum('pdf-processing/forms-helper/SKILL.md'),
        size: expect.any(Number),
      },
    ]);
  });

  it('refuses a symlink whose real path leaves the folder, naming it', async () => {
    pdfTree();
    // Beside the tmp dir (its own name, so parallel runs do not meet), removed afterwards.
    const outside = `${tmp.dir}-outside.txt`;
    writeFileSync(outside, 'secret');
    onTestFinished(() => rmSync(outside, { force: true }));
    symlinkSync(outside, path.join(tmp.dir, 'pdf-processing/references/leak.txt'));
    await expect(skillsFromDirectory(tmp.dir)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('pdf-processing/references/leak.txt'),
    });
  });

  it('refuses a special file (a FIFO), naming it', async () => {
    pdfTree();
    execFileSync('mkfifo', [path.join(tmp.dir, 'pdf-processing/scripts/pipe')]);
    await expect(skillsFromDirectory(tmp.dir)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('pdf-processing/scripts/pipe'),
    });
  });

  it('warns about a skill over the limits (513 files) and refuses it when strict', async () => {
    write('many/SKILL.md', skillMd('many', 'Many files'));
    for (let i = 0; i < 512; i++) write(`many/parts/${i}.txt`, `${i}\n`);
    const warnings: Array<{ path: string; message: string }> = [];
    const definitions = await skillsFromDirectory(tmp.dir, { onWarning: (w) => warnings.push(w) });
    expect(definitions.map((d) => d.name)).toEqual(['many']);
    expect(warnings).toEqual([
      { path: path.join(tmp.dir, 'many/SKILL.md'), message: expect.stringContaining('513 files') },
    ]);
    await expect(skillsFromDirectory(tmp.dir, { strict: true })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('513 files'),
    });
  });

  it('leaves out (or, strict, refuses) a SKILL.md whose name is not its folder name', async () => {
    write('good/SKILL.md', skillMd('good', 'Fine'));
    write('misnamed/SKILL.md', skillMd('other-name', 'Wrong folder'));
    const warnings: string[] = [];
    const definitions = await skillsFromDirectory(tmp.dir, { onWarning: (w) => warnings.push(w.path) });
    expect(definitions.map((d) => d.name)).toEqual(['good']);
    expect(warnings).toEqual([path.join(tmp.dir, 'misnamed/SKILL.md')]);
    await expect(skillsFromDirectory(tmp.dir, { strict: true })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('registerSkill', () => {
  it('refuses a bad name at once, and a given SKILL.md that states another description when read', async () => {
    const server = new McpServer({ name: 'reg', version: '1.0.0', logger: () => undefined });
    expect(() => server.registerSkill({ name: 'Bad--Name', description: 'x' })).toThrow(/skill name/);
    const registration = server.registerSkill({
      name: 'liar',
      description: 'What the definition says',
      files: { 'SKILL.md': skillMd('liar', 'What the file says') },
    });
    await expect(registration.ready).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('description'),
    });
    // Withdrawn: with no skill left the extension's methods are unknown again.
    expect((await askSkills(server)).error).toMatchObject({ code: -32601 });
  });
});
