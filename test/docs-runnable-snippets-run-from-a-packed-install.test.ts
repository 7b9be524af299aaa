/**
 * Every block of README.md and docs/*.md marked runnable runs as written in a project that
 * installed mcpwire from the packed tarball, offline (the convention: COMMON.md's "Runnable
 * snippets", docs/testing.md). One `npm pack` for the file; each document gets a fresh scratch
 * project (its own home, the registry closed) and its blocks run there in document order, one
 * test per block named `DOC:LINE LANG`. A block whose mark this convention does not know fails,
 * and README.md must have runnable blocks at all, so a broken marking cannot pass by running
 * nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { markedSnippets, type Snippet } from './support/doc-snippets.js';
import { packedInstall, type PackedInstall, type ScratchProject } from './support/packed-install.js';
import { BLOCK_TIMEOUT_MS, runSnippet } from './support/snippet-runner.js';

const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const SNIPPETS = new Map<string, Snippet[]>(
  DOCS.map((doc) => [doc, markedSnippets(readFileSync(path.join(ROOT, doc), 'utf8'))]),
);

let install: PackedInstall | undefined;

beforeAll(async () => {
  install = await packedInstall();
}, 180_000);
afterAll(() => install?.remove());

it('README.md marks runnable blocks (so the marking is seen at all)', () => {
  expect(SNIPPETS.get('README.md')!.filter((s) => s.kind === 'run').length).toBeGreaterThan(0);
});

for (const [doc, snippets] of SNIPPETS) {
  if (snippets.length === 0) continue;
  describe(doc, () => {
    let project: ScratchProject | undefined;
    beforeAll(() => {
      project = install!.project(doc);
    });

    for (const snippet of snippets) {
      const name =
        snippet.kind === 'run'
          ? `${doc}:${snippet.line} ${snippet.lang}`
          : snippet.kind === 'file'
            ? `${doc}:${snippet.line} file=${snippet.path}`
            : `${doc}:${snippet.line} \`\`\`${snippet.info}`;
      // A ts block is checked, then run: two bounds.
      it(name, () => runSnippet(project!, doc, snippet), 2 * BLOCK_TIMEOUT_MS + 30_000);
    }
  });
}
