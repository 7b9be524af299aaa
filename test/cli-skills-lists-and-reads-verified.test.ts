/**
 * `mcpwire skills` and `mcpwire skills read URI` (built CLI, real server processes): the list
 * reads no file; a read prints the verified text; a file that does not match its entry fails
 * with the reason on stderr and none of its bytes anywhere.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from './support/cli.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./support/${name}`, import.meta.url));
const SDK_SKILLS = ['--', process.execPath, fixture('sdk-skills-server.mjs')];
const LYING = (mode: string): string[] => ['--', process.execPath, fixture('lying-skills-server.mjs'), '--mode', mode];

beforeAll(() => requireBuiltCli());

describe('mcpwire skills', () => {
  it('lists every skill with its file count, as text and as JSON', async () => {
    const text = await runCli(['skills', ...SDK_SKILLS]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/NAME\s+URI\s+FILES\s+DESCRIPTION/);
    expect(text.stdout).toMatch(/pdf\s+skill:\/\/acme\/pdf\/SKILL\.md\s+3\s+Fill PDF forms\./);
    expect(text.stdout).toMatch(/writing\s+skill:\/\/writing\/SKILL\.md\s+1\s+Plain English\./);
    const json = await runCli(['skills', '--json', ...SDK_SKILLS]);
    const envelope = JSON.parse(json.stdout) as { result: { skills: Array<{ uri: string }>; invalid: unknown[] } };
    expect(envelope.result.skills).toHaveLength(2);
    expect(envelope.result.invalid).toEqual([]);
  });

  it('reads a file verified, and refuses one that does not match without printing it', async () => {
    const ok = await runCli(['skills', 'read', 'skill://acme/pdf/references/FORMS.md', ...SDK_SKILLS]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('# Forms\n\nEvery field, in order.\n\n');
    const bad = await runCli(['skills', 'read', 'skill://acme/pdf/references/FORMS.md', ...LYING('digest')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('does not match the digest its entry lists');
    expect(bad.stdout + bad.stderr).not.toContain('Forns');
  });
});
