/**
 * The neutral `mcpwire/server` (`src/server/neutral.ts`, no Node entry loaded in this file) has no
 * YAML reader: a skill with a given `SKILL.md` is refused with a reason that says what to do, and
 * a generated one is served. With the reader registered (as the Node entry does), the given one is read.
 */
import { expect, it } from 'vitest';
import { McpServer } from '../src/server/neutral.js';
import { setSkillYamlReader } from '../src/server/skills/yaml-reader.js';

const GIVEN = { 'SKILL.md': '---\nname: given\ndescription: Given by hand\n---\n\nBody.\n' };

it('refuses a given SKILL.md without the YAML reader, serves a generated one, and reads it once registered', async () => {
  const server = new McpServer({ name: 'neutral-skills', version: '1.0.0', logger: () => undefined });
  const given = server.registerSkill({ name: 'given', description: 'Given by hand', files: GIVEN });
  await expect(given.ready).rejects.toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringContaining('give "instructions" and "frontmatter" instead'),
  });
  const generated = server.registerSkill({
    name: 'generated',
    description: 'Written by the kit',
    instructions: 'Body.',
  });
  expect((await generated.ready).frontmatter).toEqual({ name: 'generated', description: 'Written by the kit' });

  const dispose = setSkillYamlReader(() => import('yaml'));
  try {
    const again = server.registerSkill({ name: 'given', description: 'Given by hand', files: GIVEN });
    expect((await again.ready).frontmatter).toEqual({ name: 'given', description: 'Given by hand' });
  } finally {
    dispose();
    await server.close();
  }
});
