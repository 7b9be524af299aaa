#!/usr/bin/env node
// The official SDK 2.4 server publishing skills (`SkillCatalog` over `memorySkillFiles`), served
// over stdio by `serveStdio`. Test fixture only: nothing under src/ may import an SDK.
// Skills: acme/pdf (SKILL.md, references/FORMS.md, assets/logo.bin with non-UTF-8 bytes) and
// writing (SKILL.md only, extra frontmatter fields).
import { McpServer } from '@modelcontextprotocol/server';
import { memorySkillFiles, SkillCatalog } from '@modelcontextprotocol/server/ext/skills';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const catalog = await SkillCatalog.load(
  memorySkillFiles({
    'acme/pdf/SKILL.md':
      '---\nname: pdf\ndescription: Fill PDF forms.\n---\n# PDF\n\nRead references/FORMS.md first.\n',
    'acme/pdf/references/FORMS.md': '# Forms\n\nEvery field, in order.\n',
    'acme/pdf/assets/logo.bin': new Uint8Array([0, 255, 128, 7, 13, 10, 0xc3]),
    'writing/SKILL.md':
      '---\nname: writing\ndescription: Plain English.\nlicense: MIT\nmetadata:\n  level: "2"\n  tags: style prose\n---\nShort sentences.\n',
  }),
);

function build() {
  const server = new McpServer({ name: 'sdk-skills', version: '2.4.0' }, { capabilities: { resources: {} } });
  catalog.attach(server);
  return server;
}

serveStdio(build, { legacy: 'serve' });
